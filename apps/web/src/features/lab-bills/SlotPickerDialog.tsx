import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { BILL_MESSAGES, formatDisplayTime, startOfDayIn, type TSlotOccurrence } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { fetchAllSlots } from '../../api/lab';
import { fetchSlotCounts } from './bill-api';
import type { TAppointmentChoice } from './bill-form';

export const APPOINTMENT_DATE_LABEL = 'Appointment Date';
export const SLOT_LABEL = 'Slot';
const DAY_MS = 86_400_000;

const slotKey = (s: { appointmentName: string; startTime: string }) => `${s.appointmentName}|${s.startTime}`;

/** 'MRI Morning · 09:00–11:00 · Available 2 / 5' (spec-lab §9 "Available x / limit"). */
export function slotOptionLabel(slot: TSlotOccurrence, timeZone: string): string {
  const time = (iso: string) => formatDisplayTime(iso, timeZone, { label: false }).slice(11, 16);
  return `${slot.appointmentName} · ${time(slot.startTime)}–${time(slot.endTime)} · Available ${slot.available} / ${slot.appointmentLimit}`;
}

/**
 * The appointment slot picker (spec-lab §2, §4–§5; only under appointmentSupportRIS): a date, then a
 * slot of the line's modality on it from POST /api/lab/get-all-slot. A date change clears the slot;
 * blocked slots are listed under 'Note: …'; a full slot cannot be picked, and before the choice is
 * kept POST /api/lab/get-slot reads its seats again, so a slot filled meanwhile is refused here (the
 * server refuses it too, at the second).
 */
export function SlotPickerDialog({
  modality,
  testName,
  timeZone,
  initialDate,
  current,
  onClose,
  onChoose,
}: {
  modality: string;
  testName: string;
  timeZone: string;
  initialDate: string;
  current: TAppointmentChoice | null;
  onClose(): void;
  onChoose(choice: TAppointmentChoice | null): void;
}) {
  const [date, setDate] = useState(
    current ? formatDisplayTime(current.start, timeZone).slice(0, 10) : initialDate,
  );
  const [slot, setSlot] = useState(
    current ? slotKey({ appointmentName: current.appointmentName, startTime: current.start }) : '',
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  const from = date ? startOfDayIn(date, timeZone) : null;
  const query = useQuery({
    queryKey: ['lab', 'slots', date, timeZone],
    queryFn: ({ signal }) =>
      fetchAllSlots(
        { startTime: from!.toISOString(), endTime: new Date(from!.getTime() + DAY_MS).toISOString() },
        signal,
      ),
    enabled: from !== null,
  });
  const forModality = (query.data?.slots ?? []).filter((s) => s.labModality === modality && s.date === date);
  const open = forModality.filter((s) => !s.blocked);
  const blocked = forModality.filter((s) => s.blocked);

  const save = async () => {
    const chosen = open.find((s) => slotKey(s) === slot);
    if (!date || !chosen) {
      setProblem(BILL_MESSAGES.selectSlotAndDate);
      return;
    }
    setChecking(true);
    try {
      const counts = await fetchSlotCounts({
        appointmentName: chosen.appointmentName,
        startTime: from!.toISOString(),
        endTime: new Date(from!.getTime() + DAY_MS).toISOString(),
      });
      const booked = counts.testCount[chosen.startTime] ?? 0;
      const keeps = current?.appointmentName === chosen.appointmentName && current.start === chosen.startTime;
      if (!keeps && booked >= chosen.appointmentLimit) {
        setProblem(
          `The slot ${chosen.appointmentName} is full: ${booked} of ${chosen.appointmentLimit} booked. Choose another slot.`,
        );
        void query.refetch();
        return;
      }
      onChoose({ appointmentName: chosen.appointmentName, start: chosen.startTime, end: chosen.endTime });
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : String(error));
    } finally {
      setChecking(false);
    }
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby="slot-picker-title" fullWidth maxWidth="sm">
      <DialogTitle id="slot-picker-title">Appointment: {testName}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'flex', gap: 2, mt: 1, flexWrap: 'wrap' }}>
          <TextField
            label={APPOINTMENT_DATE_LABEL}
            type="date"
            value={date}
            onChange={(e) => {
              // spec-lab §4: a date change clears the selected slot.
              setDate(e.target.value);
              setSlot('');
              setProblem(null);
            }}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            select
            label={SLOT_LABEL}
            value={open.some((s) => slotKey(s) === slot) ? slot : ''}
            onChange={(e) => {
              setSlot(e.target.value);
              setProblem(null);
            }}
            sx={{ minWidth: 300, flex: 1 }}
            disabled={open.length === 0}
          >
            {open.map((s) => (
              <MenuItem key={slotKey(s)} value={slotKey(s)} disabled={s.available <= 0}>
                {slotOptionLabel(s, timeZone)}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        {date && query.isSuccess && forModality.length === 0 && (
          <Alert severity="info" sx={{ mt: 2 }}>
            {BILL_MESSAGES.noSlotsForModality}
          </Alert>
        )}
        {blocked.length > 0 && (
          <Alert severity="warning" sx={{ mt: 2 }} data-testid="blocked-slots">
            {BILL_MESSAGES.blockedSlotsNote}:{' '}
            {blocked.map((s) => `${s.appointmentName} (${s.date})`).join(', ')}
          </Alert>
        )}
        {problem && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {problem}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        {current && (
          <Button color="error" onClick={() => onChoose(null)}>
            Remove Appointment
          </Button>
        )}
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void save()} disabled={checking}>
          Save Slot
        </Button>
      </DialogActions>
    </Dialog>
  );
}
