import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  APPOINTMENT_MESSAGES,
  APPOINTMENT_STATE_LABELS,
  type TAppointment,
  type TSlotOccurrence,
  appointmentGroupingOf,
  groupAppointments,
  inWindows,
  nextCalendarDay,
  slotWindowKey,
  startOfDayIn,
  calendarDayIn,
  windowsCovering,
} from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useFeedback } from '../../components/feedback/feedback-context';
import { useSignedInSession } from '../auth/session';
import { AppointmentSummaryDialog } from './AppointmentSummaryDialog';
import { TimeSlotFilterDialog } from './TimeSlotFilterDialog';
import { clockTime } from './clock-time';
import { openAppointmentSlipPrint } from '../lab-summary/open-bill-print';
import { fetchAllSlots } from '../../api/lab';
import { searchAppointments } from './lab-appointments-api';

const STATE_COLOURS = { SCHEDULED: 'info', PAID: 'success', PARTIALLY_PAID: 'warning' } as const;

function AppointmentCard({ appointment: a }: { appointment: TAppointment }) {
  const feedback = useFeedback();
  return (
    <Card variant="outlined" sx={{ width: 280 }} data-testid="appointment-card">
      <CardContent sx={{ pb: 1 }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
          <Typography variant="subtitle2">
            {clockTime(a.startTimeOfAppointment)}–{clockTime(a.endTimeOfAppointment)}
          </Typography>
          <Chip size="small" color={STATE_COLOURS[a.state]} label={APPOINTMENT_STATE_LABELS[a.state]} />
        </Stack>
        <Typography variant="subtitle1">{a.patientName}</Typography>
        <Typography variant="body2" color="text.secondary">
          UHID {a.uhidNumber}
          {a.mobileNumber ? ` · ${a.mobileNumber}` : ''}
        </Typography>
        <Typography variant="body2">
          {a.labModality}: {a.testName}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Invoice {a.invoiceNumber} · Due ₹{a.dueAmount.toFixed(2)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Report {a.statusOfReport}
          {a.uploadedThroughWorkList ? ' · via worklist' : ''}
        </Typography>
      </CardContent>
      <CardActions>
        <Link component={RouterLink} to={`/lab/create-bill/${a.billId}`}>
          Open bill
        </Link>
        <Button size="small" onClick={() => void openAppointmentSlipPrint(a.billId, feedback.showError)}>
          Appointment slip
        </Button>
      </CardActions>
    </Card>
  );
}

/**
 * Today's appointment cards (spec-lab §2 "Appointment cards view for today"), for the front desk:
 * grouped by appointment name, or by modality under amuSpecialCustomization; by default only the
 * slot windows covering the current time (spec-lab §9), others chosen in Filter by Time Slots; the
 * Detailed Summary. Shown only under the group switch appointmentSupportRIS.
 */
export function TodayAppointments({ now = () => new Date() }: { now?: () => Date }) {
  const { flags } = useSignedInSession();
  if (!flags.appointmentSupportRIS) return null;
  return <Appointments now={now} timeZone={flags.displayTimeZone} amu={flags.amuSpecialCustomization} />;
}

function Appointments({ now, timeZone, amu }: { now: () => Date; timeZone: string; amu: boolean }) {
  const feedback = useFeedback();
  // The day is fixed when the view opens: a desk left open past midnight keeps its day until reloaded.
  const [range] = useState(() => {
    const today = calendarDayIn(now(), timeZone);
    return {
      startTime: startOfDayIn(today, timeZone).toISOString(),
      endTime: startOfDayIn(nextCalendarDay(today), timeZone).toISOString(),
    };
  });
  const slots = useQuery({
    queryKey: ['lab-appointments', 'slots', range],
    queryFn: ({ signal }) => fetchAllSlots(range, signal),
  });
  const appointments = useQuery({
    queryKey: ['lab-appointments', 'today', range],
    queryFn: ({ signal }) => searchAppointments(range, signal),
  });
  useEffect(() => {
    if (!slots.isFetching) return undefined;
    return feedback.startLoading(APPOINTMENT_MESSAGES.fetching);
  }, [slots.isFetching, feedback]);

  const windows: TSlotOccurrence[] = useMemo(() => slots.data?.slots ?? [], [slots.data]);
  // null: the default, the windows covering the current time.
  const [chosen, setChosen] = useState<Set<string> | null>(null);
  const selected = useMemo(
    () => chosen ?? new Set(windowsCovering(windows, now()).map(slotWindowKey)),
    [chosen, windows, now],
  );
  const [dialog, setDialog] = useState<'filter' | 'summary' | null>(null);

  const shown = useMemo(() => {
    const picked = windows.filter((w) => selected.has(slotWindowKey(w)));
    return inWindows(appointments.data?.appointments ?? [], picked);
  }, [windows, selected, appointments.data]);
  const groups = groupAppointments(shown, appointmentGroupingOf({ amuSpecialCustomization: amu }));

  return (
    <Box component="section" aria-label="Today's appointments">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" sx={{ flexGrow: 1 }}>
          Today&apos;s appointments
        </Typography>
        <Button onClick={() => setDialog('filter')} disabled={slots.isPending}>
          Filter by Time Slots
        </Button>
        <Button
          onClick={() => {
            // New bookings and payments since the view opened: seats and states are read again.
            void slots.refetch();
            void appointments.refetch();
          }}
          disabled={slots.isFetching || appointments.isFetching}
        >
          Refresh
        </Button>
        <Button onClick={() => setDialog('summary')}>Detailed Summary</Button>
      </Stack>
      {appointments.isPending || slots.isPending ? (
        <Typography color="text.secondary">{APPOINTMENT_MESSAGES.loading}</Typography>
      ) : groups.length === 0 ? (
        <Typography color="text.secondary">{APPOINTMENT_MESSAGES.noSlots}</Typography>
      ) : (
        <Stack spacing={2}>
          {groups.map((g) => (
            <Box key={g.key} component="section" aria-label={g.key}>
              <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
                {g.key} ({g.appointments.length})
              </Typography>
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                {g.appointments.map((a) => (
                  <AppointmentCard key={a.id} appointment={a} />
                ))}
              </Stack>
            </Box>
          ))}
        </Stack>
      )}
      {dialog === 'filter' && (
        <TimeSlotFilterDialog
          windows={windows}
          selected={selected}
          onClose={() => setDialog(null)}
          onApply={(keys) => {
            setChosen(keys);
            setDialog(null);
          }}
        />
      )}
      {dialog === 'summary' && (
        <AppointmentSummaryDialog timeZone={timeZone} now={now} onClose={() => setDialog(null)} />
      )}
    </Box>
  );
}
