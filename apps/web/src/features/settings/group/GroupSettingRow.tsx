import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { appDomainRedirect } from '../../../app/app-domain';
import { useConfirm } from '../../../components/feedback/feedback-context';
import { useSaveGroupSection } from '../settings-api';
import { GROUP_CHANGES_QUERY_KEY } from './group-changes-api';
import { inputToValue, valueToInput, type TGroupField } from './group-fields';

/**
 * One group field: its readable name, its one-line explanation and an editor by type. A switch or a
 * select saves at once; a text or number field saves with its own Save button (or Enter). Each save
 * posts only this field to update-group, whose hook puts the answer into the session (so a changed
 * appDomain redirects at once, spec-core §4) and shows 'Setting updated successfully'.
 */
export function GroupSettingRow({ field, value }: { field: TGroupField; value: unknown }) {
  const describedBy = useId();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const save = useSaveGroupSection(field.section);
  // The value on its way, held in this row's own state: set in the click's own task, so the switch
  // never springs back while the request library reports "pending" only a timer later.
  const [sending, setSending] = useState<{ value: unknown } | null>(null);
  const busy = sending !== null || save.isPending;
  const shown = sending ? sending.value : value;

  const send = async (next: unknown) => {
    if (field.field === 'appDomain' && !(await confirmDomainMove(next))) return;
    setSending({ value: next });
    save.mutate({ [field.field]: next } as never, {
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: GROUP_CHANGES_QUERY_KEY }),
      onSettled: () => setSending(null),
    });
  };

  // Saving an appDomain other than this host signs this browser out and sends it there.
  const confirmDomainMove = (next: unknown) => {
    const target = appDomainRedirect(typeof next === 'string' ? next : null, window.location);
    if (!target) return Promise.resolve(true);
    return confirm({
      title: 'Change app domain',
      message: `Users on ${window.location.host} will be signed out and sent to ${new URL(target).host}, you too. Continue?`,
      confirmLabel: 'Change',
    });
  };

  return (
    <Box
      data-testid={`group-field-${field.field}`}
      sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 1.25, flexWrap: 'wrap' }}
    >
      <Box sx={{ flex: '1 1 18rem', minWidth: 0 }}>
        <Typography variant="body1">{field.label}</Typography>
        <Typography id={describedBy} variant="body2" color="text.secondary">
          {field.explanation}
          {field.arrivesWith && ` Stored now; it takes effect with ${field.arrivesWith}, not built yet.`}
        </Typography>
      </Box>
      <Box sx={{ flex: '0 0 auto' }}>
        {field.editor.kind === 'switch' ? (
          <Switch
            checked={Boolean(shown)}
            disabled={busy}
            onChange={(e) => void send(e.target.checked)}
            slotProps={{ input: { 'aria-label': field.label, 'aria-describedby': describedBy } }}
          />
        ) : field.editor.kind === 'select' ? (
          <TextField
            select
            size="small"
            label={field.label}
            value={valueToInput(shown)}
            disabled={busy}
            onChange={(e) => {
              const parsed = inputToValue(field.editor, e.target.value);
              if (parsed.ok) void send(parsed.value);
            }}
            sx={{ minWidth: '12rem' }}
            slotProps={{
              select: { displayEmpty: true },
              inputLabel: { shrink: true },
              htmlInput: { 'aria-describedby': describedBy },
            }}
          >
            {field.editor.options.map((o) => (
              <MenuItem key={o.value} value={o.value}>
                {o.label}
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <TypedValueEditor
            // A stored value changed elsewhere (another save, a reset) starts the field afresh.
            key={valueToInput(value)}
            field={field}
            stored={value}
            busy={busy}
            describedBy={describedBy}
            onSave={(next) => void send(next)}
          />
        )}
      </Box>
    </Box>
  );
}

/** A text or whole-number value, saved by its own Save button once it differs from the stored one. */
function TypedValueEditor({
  field,
  stored,
  busy,
  describedBy,
  onSave,
}: {
  field: TGroupField;
  stored: unknown;
  busy: boolean;
  describedBy: string;
  onSave: (value: unknown) => void;
}) {
  const [input, setInput] = useState(() => valueToInput(stored));
  const [error, setError] = useState<string | null>(null);
  const isChanged = input.trim() !== valueToInput(stored);
  const allowsNone =
    field.editor.kind === 'integer' || (field.editor.kind === 'text' && field.editor.emptyIsNull);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !isChanged) return;
    const parsed = inputToValue(field.editor, input);
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    setError(null);
    onSave(parsed.value);
  };

  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit}
      sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}
    >
      <TextField
        size="small"
        label={field.label}
        value={input}
        onChange={(e) => {
          setInput(e.target.value);
          setError(null);
        }}
        error={error !== null}
        helperText={error ?? (allowsNone ? 'Empty for none' : ' ')}
        disabled={busy}
        sx={{ width: '16rem' }}
        slotProps={{
          htmlInput: {
            'aria-describedby': describedBy,
            inputMode: field.editor.kind === 'integer' ? 'numeric' : undefined,
          },
        }}
      />
      <Button
        type="submit"
        variant="outlined"
        disabled={busy || !isChanged}
        aria-label={`Save ${field.label}`}
      >
        {busy ? 'Saving…' : 'Save'}
      </Button>
    </Box>
  );
}
