import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  SETTINGS_MESSAGES,
  ZLabPrefix,
  ZLabPrefixResponse,
  type TLabPrefix,
  type TLabPrefixResponse,
} from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRequest } from '../../../api/client';
import { useSnackbar } from '../../../components/feedback/feedback-context';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { settingErrorText } from '../settings-api';

const PREFIX_KEY = ['lab', 'prefix'] as const;

/** The four fields as typed (sequences are text until checked). */
type TPrefixForm = Record<keyof TLabPrefix, string>;
type TProblems = Partial<Record<keyof TLabPrefix, string>>;

const FIELDS: { field: keyof TLabPrefix; label: string; numeric: boolean }[] = [
  { field: 'prefix', label: 'Invoice prefix', numeric: false },
  { field: 'sequence', label: 'Invoice sequence', numeric: true },
  { field: 'uhidPrefix', label: 'UHID prefix', numeric: false },
  { field: 'uhidSequence', label: 'UHID sequence', numeric: true },
];

/** The form checked by the rule the server applies (spec-lab §5: all four required). */
export function checkLabPrefix(form: TPrefixForm): { value: TLabPrefix } | { problems: TProblems } {
  const parsed = ZLabPrefix.safeParse(form);
  if (parsed.success) return { value: parsed.data };
  const problems: TProblems = {};
  for (const issue of parsed.error.issues) problems[issue.path[0] as keyof TLabPrefix] ??= issue.message;
  return { problems };
}

const toForm = (p: TLabPrefixResponse): TPrefixForm => ({
  prefix: p.prefix,
  sequence: String(p.sequence),
  uhidPrefix: p.uhidPrefix,
  uhidSequence: String(p.uhidSequence),
});

/**
 * Invoice Number and Prefix (spec-lab §3 lab prefix, §7): the next invoice number and UHID of the
 * lab are prefix + sequence. Read with GET /api/lab/get-prefix, saved with POST /api/lab/add-prefix.
 */
export default function InvoicePrefixDialog({ onClose }: { onClose: () => void }) {
  const current = useQuery({
    queryKey: PREFIX_KEY,
    queryFn: ({ signal }) =>
      apiRequest('/api/lab/get-prefix', { signal, quiet: true, schema: ZLabPrefixResponse }),
  });
  // What the user typed; until the first edit, the stored values.
  const [typed, setTyped] = useState<TPrefixForm | null>(null);
  const form = typed ?? (current.data ? toForm(current.data) : null);
  const [problems, setProblems] = useState<TProblems>({});
  const { showInfo, showError } = useSnackbar();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (value: TLabPrefix) =>
      apiRequest('/api/lab/add-prefix', { json: value, quiet: true, schema: ZLabPrefixResponse }),
    onSuccess: (saved) => {
      queryClient.setQueryData(PREFIX_KEY, saved);
      showInfo(SETTINGS_MESSAGES.updated);
      onClose();
    },
    onError: (error) => showError(settingErrorText(error)),
  });

  const onSave = () => {
    if (!form) return;
    const checked = checkLabPrefix(form);
    if ('problems' in checked) {
      setProblems(checked.problems);
      return;
    }
    setProblems({});
    save.mutate(checked.value);
  };

  const failure = save.error ?? current.error;
  return (
    <SettingDialogFrame
      entry="INVOICE_PREFIX"
      onClose={onClose}
      onSave={onSave}
      saveDisabled={!form}
      busy={save.isPending}
      error={failure ? settingErrorText(failure) : null}
    >
      {form ? (
        <Stack spacing={2} sx={{ pt: 1 }}>
          {FIELDS.map(({ field, label, numeric }) => (
            <TextField
              key={field}
              label={label}
              name={field}
              required
              value={form[field]}
              onChange={(e) => {
                setTyped({ ...form, [field]: e.target.value });
                setProblems((p) => ({ ...p, [field]: undefined }));
              }}
              error={Boolean(problems[field])}
              helperText={problems[field]}
              slotProps={numeric ? { htmlInput: { inputMode: 'numeric' } } : undefined}
            />
          ))}
        </Stack>
      ) : current.isPending ? (
        <CircularProgress aria-label="Loading" size={24} />
      ) : null}
    </SettingDialogFrame>
  );
}
