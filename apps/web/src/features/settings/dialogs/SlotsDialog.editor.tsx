import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ALL_LAB_MODALITIES, SETTINGS_MESSAGES, SLOT_DAYS, isSlotDate } from '@radflow/core';
import { useState } from 'react';
import { SLOT_DAY_NAMES, addBlockedDay, type TSlotDayForm, type TSlotForm } from './SlotsDialog.form';

/**
 * The form of one slot (spec-lab §3 appointment slot): name (locked while editing, spec-lab §4),
 * one lab modality, a timing per weekday and the blocked dates. `onSubmit` answers a message to
 * show when the slot is refused.
 */
export function SlotEditor({
  initial,
  editing,
  disabled,
  onSubmit,
  onCancel,
}: {
  initial: TSlotForm;
  editing: boolean;
  disabled: boolean;
  onSubmit: (form: TSlotForm) => string | null;
  onCancel: () => void;
}) {
  const [form, setForm] = useState<TSlotForm>(initial);
  const [blockedDate, setBlockedDate] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const setDay = (day: (typeof SLOT_DAYS)[number], change: Partial<TSlotDayForm>) =>
    setForm((f) => ({ ...f, days: { ...f.days, [day]: { ...f.days[day], ...change } } }));

  const addDate = () => {
    if (!isSlotDate(blockedDate)) {
      setProblem(SETTINGS_MESSAGES.slotBlockedDateInvalid);
      return;
    }
    setProblem(null);
    setForm((f) => ({ ...f, blockedDays: addBlockedDay(f.blockedDays, blockedDate) }));
    setBlockedDate('');
  };

  const submit = () => setProblem(onSubmit(form));

  return (
    <Stack
      spacing={2}
      role="group"
      aria-label={editing ? `Edit slot ${initial.name}` : 'New slot'}
      // Enter in a slot field must not save the dialog with the slot still unadded.
      onKeyDown={(e) => {
        if (e.key === 'Enter' && e.target instanceof HTMLInputElement) e.preventDefault();
      }}
    >
      <Stack direction="row" spacing={1}>
        <TextField
          label="Slot name"
          size="small"
          value={form.name}
          disabled={editing || disabled}
          onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))}
          sx={{ flex: 1 }}
        />
        <TextField
          select
          label="Lab modality"
          size="small"
          value={form.modality}
          disabled={disabled}
          onChange={(e) => setForm((f) => ({ ...f, modality: e.target.value }))}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          sx={{ width: 160 }}
        >
          <option value="">Select</option>
          {ALL_LAB_MODALITIES.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </TextField>
      </Stack>
      <Stack spacing={1}>
        {SLOT_DAYS.map((day) => {
          const d = form.days[day];
          const name = SLOT_DAY_NAMES[Number(day)];
          return (
            <Stack key={day} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={d.enabled}
                    disabled={disabled}
                    onChange={(e) => setDay(day, { enabled: e.target.checked })}
                  />
                }
                label={name}
                sx={{ width: 140 }}
              />
              {/* A day off has no times: only the days worked show their fields. */}
              {d.enabled ? (
                <>
                  <TextField
                    type="time"
                    label={`${name} start`}
                    size="small"
                    value={d.startTime}
                    disabled={disabled}
                    onChange={(e) => setDay(day, { startTime: e.target.value })}
                    slotProps={{ inputLabel: { shrink: true } }}
                  />
                  <TextField
                    type="time"
                    label={`${name} end`}
                    size="small"
                    value={d.endTime}
                    disabled={disabled}
                    onChange={(e) => setDay(day, { endTime: e.target.value })}
                    slotProps={{ inputLabel: { shrink: true } }}
                  />
                  <TextField
                    type="number"
                    label={`${name} appointment limit`}
                    size="small"
                    value={d.appointmentLimit}
                    disabled={disabled}
                    onChange={(e) => setDay(day, { appointmentLimit: e.target.value })}
                    slotProps={{ htmlInput: { min: 1, step: 1 }, inputLabel: { shrink: true } }}
                    sx={{ width: 130 }}
                  />
                </>
              ) : null}
            </Stack>
          );
        })}
      </Stack>
      <Stack spacing={1}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <TextField
            type="date"
            label="Blocked date"
            size="small"
            value={blockedDate}
            disabled={disabled}
            onChange={(e) => setBlockedDate(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Button onClick={addDate} disabled={disabled}>
            Block date
          </Button>
        </Stack>
        {form.blockedDays.length > 0 ? (
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }} aria-label="Blocked dates">
            {form.blockedDays.map((date) => (
              <Chip
                key={date}
                label={date}
                onDelete={
                  disabled
                    ? undefined
                    : () => setForm((f) => ({ ...f, blockedDays: f.blockedDays.filter((x) => x !== date) }))
                }
              />
            ))}
          </Stack>
        ) : null}
      </Stack>
      {problem ? (
        <Typography role="alert" color="error" variant="body2">
          {problem}
        </Typography>
      ) : null}
      <Stack direction="row" spacing={1}>
        <Button variant="outlined" onClick={submit} disabled={disabled}>
          {editing ? 'Update slot' : 'Add slot'}
        </Button>
        {editing ? (
          <Button color="inherit" onClick={onCancel}>
            Cancel edit
          </Button>
        ) : null}
      </Stack>
    </Stack>
  );
}
