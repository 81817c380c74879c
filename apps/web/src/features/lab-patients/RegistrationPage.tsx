import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type TLabPatient, patientSearchOf } from '@radflow/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { GENDER_LABELS } from './lab-form';
import { PatientDialog } from './PatientDialog';
import { PatientPicker } from './PatientPicker';

/** Where the front desk goes on with a patient: the bill screen (built by the billing part). */
export function createBillPath(patient: Pick<TLabPatient, 'id'>): string {
  return `/lab/create-bill?patientId=${patient.id}`;
}

/**
 * /lab/registration (spec-lab §2): the front desk's start screen. Find the patient as you type (name
 * or mobile) or register a new one — the typed text fills the new patient's name or mobile — then
 * go on to the bill with that patient.
 */
export function RegistrationPage() {
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
      <Paper variant="outlined" sx={{ p: 2, maxWidth: 760 }}>
        <Stack spacing={2}>
          <PatientPicker
            label="Find patient"
            value={patient}
            onChange={setPatient}
            onInputChange={setTyped}
            autoFocus
          />
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
          <Box sx={{ display: 'flex', gap: 1 }}>
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
        </Stack>
      </Paper>
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
