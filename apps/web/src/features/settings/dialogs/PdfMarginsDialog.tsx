import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  SETTINGS_MESSAGES,
  ZCenterSettingResponse,
  ZPdfMarginsForm,
  type TCenterSettingResponse,
  type TPdfMarginsForm,
} from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRequest } from '../../../api/client';
import { useSnackbar } from '../../../components/feedback/feedback-context';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { sendMultipart, settingErrorText } from '../settings-api';
import { PickedImageField, type TImageChoice } from './PdfMarginsDialog.image-field';

const CENTER_SETTING_KEY = ['center-setting'] as const;

type TMarginField = keyof TPdfMarginsForm;
type TMargins = Record<TMarginField, string>;
type TProblems = Partial<Record<TMarginField, string>>;

const MARGINS: { field: TMarginField; label: string; required: boolean }[] = [
  { field: 'pdf_margin_top', label: 'Top margin (cm)', required: true },
  { field: 'pdf_margin_bottom', label: 'Bottom margin (cm)', required: true },
  { field: 'pdf_margin_left', label: 'Left margin (cm)', required: false },
  { field: 'pdf_margin_right', label: 'Right margin (cm)', required: false },
];

export interface TPageLayoutChanges {
  margins: TMargins;
  header: TImageChoice;
  footer: TImageChoice;
}

/**
 * The multipart body of POST /center-setting/update/ after the rule the server applies (spec-lab §5:
 * numbers with step 0.01, top and bottom required), or the problem of each margin.
 */
export function buildPageLayoutForm(
  changes: TPageLayoutChanges,
): { form: FormData } | { problems: TProblems } {
  const parsed = ZPdfMarginsForm.safeParse(changes.margins);
  if (!parsed.success) {
    const problems: TProblems = {};
    for (const issue of parsed.error.issues) problems[issue.path[0] as TMarginField] ??= issue.message;
    return { problems };
  }
  const form = new FormData();
  for (const { field } of MARGINS) {
    const value = parsed.data[field];
    if (value !== undefined) form.append(field, String(value));
  }
  const image = (choice: TImageChoice, part: 'header' | 'footer', removeFlag: string) => {
    if (choice.kind === 'picked') form.append(part, choice.file, choice.file.name);
    if (choice.kind === 'removed') form.append(removeFlag, 'true');
  };
  image(changes.header, 'header', 'removeHeader');
  image(changes.footer, 'footer', 'removeFooter');
  return { form };
}

const toMargins = (s: TCenterSettingResponse): TMargins => ({
  pdf_margin_top: String(s.pdfMarginTop),
  pdf_margin_bottom: String(s.pdfMarginBottom),
  pdf_margin_left: String(s.pdfMarginLeft),
  pdf_margin_right: String(s.pdfMarginRight),
});

/**
 * PDF Margins and Images (spec-lab §3 PDF margins, §5, §9 defaults 4/3/3/3 cm): the report page
 * margins and the png header and footer printed on reports, read with GET /api/center-setting/ and
 * saved as one multipart POST /api/center-setting/update/.
 */
export default function PdfMarginsDialog({ onClose }: { onClose: () => void }) {
  const current = useQuery({
    queryKey: CENTER_SETTING_KEY,
    queryFn: ({ signal }) =>
      apiRequest('/api/center-setting/', { signal, quiet: true, schema: ZCenterSettingResponse }),
  });
  // What the user typed; until the first edit, the stored margins.
  const [typed, setTyped] = useState<TMargins | null>(null);
  const margins = typed ?? (current.data ? toMargins(current.data) : null);
  const [header, setHeader] = useState<TImageChoice>({ kind: 'stored' });
  const [footer, setFooter] = useState<TImageChoice>({ kind: 'stored' });
  const [problems, setProblems] = useState<TProblems>({});
  const { showInfo, showError } = useSnackbar();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: async (form: FormData) =>
      ZCenterSettingResponse.parse(await sendMultipart('/api/center-setting/update/', form)),
    onSuccess: (saved) => {
      queryClient.setQueryData(CENTER_SETTING_KEY, saved);
      showInfo(SETTINGS_MESSAGES.updated);
      onClose();
    },
    onError: (error) => showError(settingErrorText(error)),
  });

  const onSave = () => {
    if (!margins) return;
    const built = buildPageLayoutForm({ margins, header, footer });
    if ('problems' in built) {
      setProblems(built.problems);
      return;
    }
    setProblems({});
    save.mutate(built.form);
  };

  const failure = save.error ?? current.error;
  return (
    <SettingDialogFrame
      entry="PDF_MARGINS"
      onClose={onClose}
      onSave={onSave}
      saveDisabled={!margins}
      busy={save.isPending}
      error={failure ? settingErrorText(failure) : null}
    >
      {margins && current.data ? (
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {MARGINS.map(({ field, label, required }) => (
              <TextField
                key={field}
                label={label}
                name={field}
                type="number"
                required={required}
                value={margins[field]}
                onChange={(e) => {
                  setTyped({ ...margins, [field]: e.target.value });
                  setProblems((p) => ({ ...p, [field]: undefined }));
                }}
                error={Boolean(problems[field])}
                helperText={problems[field]}
                slotProps={{ htmlInput: { step: 0.01, min: 0 } }}
              />
            ))}
          </Stack>
          <PickedImageField
            label="Header image"
            pngOnly
            storedUrl={current.data.headerImageUrl}
            choice={header}
            onChange={setHeader}
            removable
            disabled={save.isPending}
          />
          <PickedImageField
            label="Footer image"
            pngOnly
            storedUrl={current.data.footerImageUrl}
            choice={footer}
            onChange={setFooter}
            removable
            disabled={save.isPending}
          />
        </Stack>
      ) : current.isPending ? (
        <CircularProgress aria-label="Loading" size={24} />
      ) : null}
    </SettingDialogFrame>
  );
}
