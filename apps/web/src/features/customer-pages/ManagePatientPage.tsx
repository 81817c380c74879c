import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  CUSTOMER_PAGE_MESSAGES as M,
  FILTER_DEBOUNCE_MS,
  MOBILE_PATTERN,
  type TCenterPatient,
} from '@radflow/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { useFeedback } from '../../components/feedback/feedback-context';
import { formatTimestamp } from '../../lib/format';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { CHANNEL_LABELS, STATUS_LABELS } from '../share-page/MessageDeliveryList';
import {
  centerPatientsQueryKey,
  correctPatientMobile,
  fetchCenterPatients,
  fetchPatientMessages,
  patientMessagesQueryKey,
  sendReportToPatient,
} from './customer-pages.api';

export const MANAGE_PATIENT_LABELS = {
  title: 'Manage patient for center',
  search: 'Search patient name, id or mobile',
  send: 'Send report',
  resend: 'Send again',
  history: 'Sent',
  editMobile: 'Edit mobile',
  mobileLabel: "Patient's mobile",
  mobileInvalid: 'Enter 10 digits starting with 6, 7, 8 or 9',
  save: 'Save',
  cancel: 'Cancel',
  nothingSent: 'Nothing sent yet',
  sentInfo: 'Report sent to the patient',
  mobileSaved: 'Mobile number saved',
} as const;
const L = MANAGE_PATIENT_LABELS;

const invalidate = (client: ReturnType<typeof useQueryClient>) =>
  client.invalidateQueries({ queryKey: ['customer-pages'] });

/** What was sent for one study (channel, recipient, status, time), newest first. */
function SentDialog({ patient, onClose }: { patient: TCenterPatient; onClose: () => void }) {
  const messages = useQuery({
    queryKey: patientMessagesQueryKey(patient.reportStatusId),
    queryFn: ({ signal }) => fetchPatientMessages(patient.reportStatusId, signal),
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="sent-title" fullWidth maxWidth="sm">
      <DialogTitle id="sent-title">Sent to {patient.patientName || 'the patient'}</DialogTitle>
      <DialogContent>
        {messages.isPending && <LinearProgress />}
        {messages.data && messages.data.length === 0 && <Typography>{L.nothingSent}</Typography>}
        {messages.data && messages.data.length > 0 && (
          <Table size="small" aria-label="Messages sent">
            <TableHead>
              <TableRow>
                <TableCell>Channel</TableCell>
                <TableCell>To</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>When</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {messages.data.map((m) => (
                <TableRow key={m.id}>
                  <TableCell>{CHANNEL_LABELS[m.channel]}</TableCell>
                  <TableCell>{m.recipient}</TableCell>
                  <TableCell>{STATUS_LABELS[m.status]}</TableCell>
                  <TableCell>{formatTimestamp(m.sentAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/** Correct the patient's mobile: saved against the number shown (409 if someone changed it meanwhile). */
function MobileDialog({ patient, onClose }: { patient: TCenterPatient; onClose: () => void }) {
  const [value, setValue] = useState(patient.mobileNumber ?? '');
  const client = useQueryClient();
  const { showInfo } = useFeedback();
  const save = useMutation({
    mutationFn: () =>
      correctPatientMobile(patient.reportStatusId, {
        mobileNumber: value.trim(),
        previousMobileNumber: patient.mobileNumber,
      }),
    onSuccess: async () => {
      showInfo(L.mobileSaved);
      onClose();
      await invalidate(client);
    },
    onError: () => invalidate(client),
  });
  const invalid = value.trim() !== '' && !MOBILE_PATTERN.test(value.trim());
  return (
    <Dialog open onClose={onClose} aria-labelledby="mobile-title" fullWidth maxWidth="xs">
      <DialogTitle id="mobile-title">
        {L.editMobile}: {patient.patientName || `study ${patient.reportStatusId}`}
      </DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          margin="dense"
          label={L.mobileLabel}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          error={invalid}
          helperText={invalid ? L.mobileInvalid : ' '}
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 10 } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{L.cancel}</Button>
        <Button
          variant="contained"
          onClick={() => save.mutate()}
          disabled={invalid || value.trim() === '' || save.isPending}
        >
          {L.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function PatientRow({ patient }: { patient: TCenterPatient }) {
  const [dialog, setDialog] = useState<'sent' | 'mobile' | null>(null);
  const client = useQueryClient();
  const { showInfo } = useFeedback();
  const send = useMutation({
    mutationFn: () => sendReportToPatient(patient.reportStatusId),
    onSuccess: async () => {
      showInfo(L.sentInfo);
      await invalidate(client);
    },
  });
  const canSend = patient.isSignedOff && patient.mobileNumber !== null;
  const who = patient.patientName || `study ${patient.reportStatusId}`;
  return (
    <TableRow>
      <TableCell>
        <Typography variant="body2">{patient.patientName || '—'}</Typography>
        <Typography variant="caption" color="textSecondary">
          {patient.patientId}
        </Typography>
      </TableCell>
      <TableCell>
        {[patient.studyName, patient.modality].filter(Boolean).join(' · ') || '—'}
        <Typography variant="caption" color="textSecondary" component="div">
          {patient.studyDate}
        </Typography>
      </TableCell>
      <TableCell>
        {patient.isSignedOff ? (
          <Chip size="small" color="success" label="Ready" />
        ) : (
          <Chip size="small" label="In progress" />
        )}
      </TableCell>
      <TableCell>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <span>{patient.mobileNumber ?? '—'}</span>
          <Button size="small" onClick={() => setDialog('mobile')} aria-label={`${L.editMobile} of ${who}`}>
            {L.editMobile}
          </Button>
        </Stack>
      </TableCell>
      <TableCell>
        {patient.sentCount > 0 ? (
          <Button size="small" onClick={() => setDialog('sent')} aria-label={`${L.history} to ${who}`}>
            {patient.sentCount} · {formatTimestamp(patient.lastSentAt)}
          </Button>
        ) : (
          <Typography variant="caption" color="textSecondary">
            {L.nothingSent}
          </Typography>
        )}
      </TableCell>
      <TableCell>
        <Button
          variant={patient.sentCount > 0 ? 'outlined' : 'contained'}
          size="small"
          disabled={!canSend || send.isPending}
          onClick={() => send.mutate()}
          aria-label={`${patient.sentCount > 0 ? L.resend : L.send} to ${who}`}
          title={!patient.isSignedOff ? M.notSignedOff : patient.mobileNumber ? undefined : M.noMobile}
        >
          {patient.sentCount > 0 ? L.resend : L.send}
        </Button>
        {dialog === 'sent' && <SentDialog patient={patient} onClose={() => setDialog(null)} />}
        {dialog === 'mobile' && <MobileDialog patient={patient} onClose={() => setDialog(null)} />}
      </TableCell>
    </TableRow>
  );
}

/**
 * /manage-patient (ROLE_CENTER_CUSTOMER unless the group's doNotSendWhatsappMessage; issue 26 §4):
 * the center's patients with their mobile; send (again) the signed-off report by SMS and WhatsApp,
 * see what was sent and when, and correct the mobile.
 */
export function ManagePatientPage() {
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), FILTER_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: centerPatientsQueryKey(term),
    queryFn: ({ signal }) => fetchCenterPatients(term, signal),
    placeholderData: keepPreviousData,
  });
  const patients = query.data?.patients ?? [];
  return (
    <Box component="section" aria-label={L.title}>
      <PageHeader title={L.title} />
      <TextField
        size="small"
        label={L.search}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        sx={{ mb: 2, minWidth: 320 }}
      />
      {query.isFetching && <LinearProgress />}
      {query.isError && <Alert severity="error">{query.error.message}</Alert>}
      {query.data && patients.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography>{M.noPatients}</Typography>
        </Paper>
      )}
      {patients.length > 0 && (
        <TableContainer component={Paper}>
          <Table size="small" aria-label="Patients">
            <TableHead>
              <TableRow>
                <TableCell>Patient</TableCell>
                <TableCell>Study</TableCell>
                <TableCell>Report</TableCell>
                <TableCell>Mobile</TableCell>
                <TableCell>Sent</TableCell>
                <TableCell>Send</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {patients.map((p) => (
                <PatientRow key={p.reportStatusId} patient={p} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {query.data && patients.length === query.data.limit && (
        <Typography variant="caption" color="textSecondary">
          The newest {query.data.limit} are shown; search to find older ones.
        </Typography>
      )}
    </Box>
  );
}

export default ManagePatientPage;
