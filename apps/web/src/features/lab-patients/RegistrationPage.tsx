import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { type TLabPatient, patientSearchOf } from '@radflow/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { useSignedInSession } from '../auth/session';
import { TodayAppointments } from '../lab-appointments/TodayAppointments';
import { BillingList } from '../lab-bills/BillingList';
import { GENDER_LABELS } from './lab-form';
import { PatientDialog } from './PatientDialog';
import { PatientPicker } from './PatientPicker';

/** Where the front desk goes on with a patient: the bill screen (built by the billing part). */
export function createBillPath(patient: Pick<TLabPatient, 'id'>): string {
  return `/lab/create-bill?patientId=${patient.id}`;
}

export const BILLS_SECTION_LABEL = 'Bills';
export const APPOINTMENTS_SECTION_LABEL = "Today's appointments";

/**
 * /lab/registration (spec-lab §2): the front desk's start screen, where the receptionist lands after
 * saving a bill. Find the patient as you type (name or mobile) or register a new one — the typed text
 * fills the new patient's name or mobile — then go on to the bill with that patient. Below, the
 * billing list (lab-bills) and, under appointmentSupportRIS, today's appointments (lab-appointments)
 * as two tabs, so both fit a 1366×768 screen under the finder.
 */
export function RegistrationPage() {
  const { flags } = useSignedInSession();
  const [section, setSection] = useState<'bills' | 'appointments'>('bills');
  const [patient, setPatient] = useState<TLabPatient | null>(null);
  const [typed, setTyped] = useState('');
  const [dialog, setDialog] = useState<'new' | 'edit' | null>(null);
  const navigate = useNavigate();
  const search = dialog === 'new' && !patient ? patientSearchOf(typed) : null;
  const initial =
    search?.mobileNumber?.length === 10
      ? { mobileNumber: search.mobileNumber }
      : search?.name
        ? { name: search.name }
        : {};

  return (
    <Box component="section">
      <PageHeader
        title="Patient Registration"
        actions={
          <Button variant="contained" onClick={() => setDialog('new')}>
            Register New Patient
          </Button>
        }
      />
      <Paper variant="outlined" sx={{ p: 2, maxWidth: 960 }}>
        <Stack spacing={1.5}>
          {/* The finder and its actions on one line: the lists below keep the height of a 768 screen. */}
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <Box sx={{ flex: 1, minWidth: 320 }}>
              <PatientPicker
                label="Find patient"
                value={patient}
                onChange={setPatient}
                onInputChange={setTyped}
                autoFocus
              />
            </Box>
            <Button
              variant="contained"
              disabled={!patient}
              onClick={() => patient && void navigate(createBillPath(patient))}
            >
              Create Bill
            </Button>
            <Button variant="outlined" disabled={!patient} onClick={() => setDialog('edit')}>
              Edit Patient
            </Button>
          </Box>
          {patient && (
            <Box aria-label="Selected patient" role="group">
              <Typography variant="h6">{`${patient.designation} ${patient.name}`}</Typography>
              <Typography color="text.secondary">
                {[
                  `UHID ${patient.uhidNumber}`,
                  patient.ageString,
                  GENDER_LABELS[patient.gender],
                  patient.mobileNumber,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Typography>
            </Box>
          )}
        </Stack>
      </Paper>
      <Box sx={{ mt: 2 }}>
        {flags.appointmentSupportRIS ? (
          <Tabs
            value={section}
            onChange={(_e, next: 'bills' | 'appointments') => setSection(next)}
            aria-label="Front desk"
            sx={{ mb: 1 }}
          >
            <Tab value="bills" label={BILLS_SECTION_LABEL} />
            <Tab value="appointments" label={APPOINTMENTS_SECTION_LABEL} />
          </Tabs>
        ) : (
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {BILLS_SECTION_LABEL}
          </Typography>
        )}
        {section === 'appointments' && flags.appointmentSupportRIS ? <TodayAppointments /> : <BillingList />}
      </Box>
      {dialog !== null && (
        <PatientDialog
          patient={dialog === 'edit' ? patient : null}
          initial={initial}
          onClose={() => setDialog(null)}
          onSaved={setPatient}
        />
      )}
    </Box>
  );
}

export default RegistrationPage;
