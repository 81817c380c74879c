import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { APPOINTMENT_MESSAGES, type TSlotOccurrence, slotWindowKey } from '@radflow/core';
import { useState } from 'react';
import { clockTime } from './clock-time';

/**
 * Filter by Time Slots (spec-lab §2): today's slot windows to show the appointments of, each with
 * its seats ("Available x / limit", spec-lab §9). Apply keeps the ticked windows.
 */
export function TimeSlotFilterDialog({
  windows,
  selected,
  onApply,
  onClose,
}: {
  windows: readonly TSlotOccurrence[];
  selected: ReadonlySet<string>;
  onApply: (keys: Set<string>) => void;
  onClose: () => void;
}) {
  const [ticked, setTicked] = useState(() => new Set(selected));
  const toggle = (key: string) =>
    setTicked((was) => {
      const next = new Set(was);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>Filter by Time Slots</DialogTitle>
      <DialogContent dividers>
        {windows.length === 0 ? (
          <Typography color="text.secondary">{APPOINTMENT_MESSAGES.noSlots}</Typography>
        ) : (
          <Stack>
            {windows.map((w) => {
              const key = slotWindowKey(w);
              return (
                <FormControlLabel
                  key={key}
                  control={<Checkbox checked={ticked.has(key)} onChange={() => toggle(key)} />}
                  label={`${w.appointmentName} (${w.labModality}) ${clockTime(w.startTime)}–${clockTime(w.endTime)} · Available ${w.available} / ${w.appointmentLimit}${w.blocked ? ' · blocked' : ''}`}
                />
              );
            })}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setTicked(new Set(windows.map(slotWindowKey)))}>Select all</Button>
        <Button onClick={() => setTicked(new Set())}>Clear</Button>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => onApply(ticked)}>
          Apply
        </Button>
      </DialogActions>
    </Dialog>
  );
}
