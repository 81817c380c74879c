import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  APPOINTMENT_DATE_TYPES,
  APPOINTMENT_DATE_TYPE_LABELS,
  APPOINTMENT_MESSAGES,
  type TAppointmentCounts,
  type TAppointmentDateType,
  type TAppointmentSummary,
  type TAppointmentSummaryRequest,
  appointmentSummaryDays,
  calendarDayIn,
} from '@radflow/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchAppointmentSummary } from './lab-appointments-api';

function CountsTable({
  title,
  rows,
  total,
}: {
  title: string;
  rows: TAppointmentCounts[];
  total?: TAppointmentCounts;
}) {
  return (
    <Table size="small" aria-label={title}>
      <TableHead>
        <TableRow>
          <TableCell>{title}</TableCell>
          <TableCell align="right">Scheduled</TableCell>
          <TableCell align="right">Paid</TableCell>
          <TableCell align="right">Partially paid</TableCell>
          <TableCell align="right">Total</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {[...rows, ...(total ? [total] : [])].map((r) => (
          <TableRow key={r.key}>
            <TableCell>{r.key}</TableCell>
            <TableCell align="right">{r.scheduled}</TableCell>
            <TableCell align="right">{r.paid}</TableCell>
            <TableCell align="right">{r.partiallyPaid}</TableCell>
            <TableCell align="right">{r.total}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * The Detailed Summary (spec-lab §2): appointment counts per appointment name and per modality, by
 * state, over Today, Tomorrow, Yesterday or a custom range (both dates, at most 31 days: spec-lab §5
 * messages, checked here by the same core rule the server applies).
 */
export function AppointmentSummaryDialog({
  timeZone,
  now,
  onClose,
}: {
  timeZone: string;
  now: () => Date;
  onClose: () => void;
}) {
  const [dateType, setDateType] = useState<TAppointmentDateType>('TODAY');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const summary = useMutation({
    mutationFn: (body: TAppointmentSummaryRequest) => fetchAppointmentSummary(body),
  });

  const show = () => {
    const request = { dateType, startDate: startDate || null, endDate: endDate || null };
    const days = appointmentSummaryDays(request, calendarDayIn(now(), timeZone));
    if (!days.ok) {
      setProblem(days.message);
      summary.reset();
      return;
    }
    setProblem(null);
    summary.mutate(request);
  };

  const data: TAppointmentSummary | undefined = summary.data;
  const refusal = summary.error instanceof Error ? summary.error.message : null;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>Detailed Summary</DialogTitle>
      <DialogContent dividers>
        <Stack direction="row" spacing={2} sx={{ mb: 2, flexWrap: 'wrap' }}>
          <TextField
            select
            size="small"
            label="Date type"
            value={dateType}
            onChange={(e) => setDateType(e.target.value as TAppointmentDateType)}
            sx={{ minWidth: 180 }}
          >
            {APPOINTMENT_DATE_TYPES.map((t) => (
              <MenuItem key={t} value={t}>
                {APPOINTMENT_DATE_TYPE_LABELS[t]}
              </MenuItem>
            ))}
          </TextField>
          {dateType === 'CUSTOM' && (
            <>
              <TextField
                type="date"
                size="small"
                label="Start date"
                value={startDate}
                onChange={(e) => setStartDate(e.target.value)}
                slotProps={{ inputLabel: { shrink: true } }}
              />
              <TextField
                type="date"
                size="small"
                label="End date"
                value={endDate}
                onChange={(e) => setEndDate(e.target.value)}
                slotProps={{ inputLabel: { shrink: true } }}
              />
            </>
          )}
          <Button variant="contained" onClick={show}>
            Show
          </Button>
        </Stack>
        {summary.isPending && <LinearProgress />}
        {(problem ?? refusal) && <Alert severity="error">{problem ?? refusal}</Alert>}
        {data && data.total.total === 0 && (
          <Typography color="text.secondary">{APPOINTMENT_MESSAGES.noSummaryData}</Typography>
        )}
        {data && data.total.total > 0 && (
          <Stack spacing={3}>
            <Typography variant="body2" color="text.secondary">
              {data.startDay === data.endDay ? data.startDay : `${data.startDay} to ${data.endDay}`}
            </Typography>
            <CountsTable title="Appointment name" rows={data.byAppointmentName} total={data.total} />
            <CountsTable title="Modality" rows={data.byModality} />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
