import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { SETTINGS_MESSAGES, SLOT_DAYS, type TLabSlot } from '@radflow/core';
import { useState } from 'react';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { useResetSection, useSaveSection, useUserPreferences } from '../settings-api';
import { SlotEditor } from './SlotsDialog.editor';
import { SLOT_DAY_NAMES, emptySlotForm, placeSlot, slotToForm } from './SlotsDialog.form';

/** "Monday 09:00–17:00 (10)" for each day of the slot, Sunday first. */
export function describeSlotWeek(slot: TLabSlot): string {
  return SLOT_DAYS.flatMap((day) => {
    const t = slot.weeklyTiming[day];
    return t ? [`${SLOT_DAY_NAMES[Number(day)]} ${t.startTime}–${t.endTime} (${t.appointmentLimit})`] : [];
  }).join(', ');
}

/**
 * Slots (spec-lab §3 appointment slot, §5 slot rules): the center's LAB_SLOTS list, added to, edited
 * and deleted here and saved whole. With the group switch appointmentSupportRIS off the server
 * refuses new slots, so adding is disabled with its message; stored slots can still be changed.
 */
export default function SlotsDialog({ onClose }: { onClose: () => void }) {
  const preferences = useUserPreferences();
  const canAdd = preferences.GROUP_SWITCHES.appointmentSupportRIS;
  const [slots, setSlots] = useState<TLabSlot[]>(() => [...preferences.LAB_SLOTS.slots]);
  /** null: the editor adds a new slot; a number: it edits that slot. */
  const [editing, setEditing] = useState<number | null>(null);
  // A new key remounts the editor with fresh values after an add, an edit or a cancel.
  const [editorKey, setEditorKey] = useState(0);
  const save = useSaveSection('LAB_SLOTS');
  const reset = useResetSection('LAB_SLOTS');

  const startEditor = (index: number | null) => {
    setEditing(index);
    setEditorKey((k) => k + 1);
  };

  const editedSlot = editing === null ? undefined : slots[editing];

  return (
    <SettingDialogFrame
      entry="SLOTS"
      onClose={onClose}
      onSave={() => save.mutate({ slots }, { onSuccess: onClose })}
      onReset={() => reset.mutate(undefined, { onSuccess: onClose })}
      busy={save.isPending || reset.isPending}
      maxWidth="md"
    >
      <Stack spacing={2}>
        {slots.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No slots yet
          </Typography>
        ) : (
          <List dense aria-label="Slots">
            {slots.map((slot, index) => (
              <ListItem
                key={slot.name}
                secondaryAction={
                  <Stack direction="row" spacing={1}>
                    <Button size="small" aria-label={`Edit ${slot.name}`} onClick={() => startEditor(index)}>
                      Edit
                    </Button>
                    <Button
                      size="small"
                      color="error"
                      aria-label={`Delete ${slot.name}`}
                      onClick={() => {
                        setSlots((list) => list.filter((_, i) => i !== index));
                        startEditor(null);
                      }}
                    >
                      Delete
                    </Button>
                  </Stack>
                }
              >
                <ListItemText
                  primary={`${slot.name} · ${slot.labModalities.join(', ')}`}
                  secondary={[
                    describeSlotWeek(slot),
                    slot.blockedDays.length ? `Blocked: ${slot.blockedDays.join(', ')}` : '',
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                  sx={{ pr: 18 }}
                />
              </ListItem>
            ))}
          </List>
        )}
        <Divider />
        {!canAdd && editing === null ? (
          <Alert severity="warning">{SETTINGS_MESSAGES.slotAppointmentsOff}</Alert>
        ) : null}
        <SlotEditor
          key={editorKey}
          initial={editedSlot ? slotToForm(editedSlot) : emptySlotForm()}
          editing={editedSlot !== undefined}
          disabled={!canAdd && editedSlot === undefined}
          onCancel={() => startEditor(null)}
          onSubmit={(form) => {
            const result = placeSlot(slots, form, editedSlot ? editing : null);
            if ('error' in result) return result.error;
            setSlots(result.slots);
            startEditor(null);
            return null;
          }}
        />
      </Stack>
    </SettingDialogFrame>
  );
}
