import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ZBillingDetailsSetting, type TBillingDetailsSetting } from '@radflow/core';
import { useState } from 'react';
import { ImageUploadField } from '../ImageUploadField';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { settingErrorText, useResetSection, useSaveSection, useUserPreferences } from '../settings-api';

type TField = keyof TBillingDetailsSetting;
/** The form's values as typed: every field text, the GST percentage too. */
type TBillingForm = Record<TField, string>;
type TProblems = Partial<Record<TField, string>>;

const TEXT_FIELDS: { field: Exclude<TField, 'logo'>; label: string; numeric?: boolean }[] = [
  { field: 'accName', label: 'Account name' },
  { field: 'bankName', label: 'Bank name' },
  { field: 'bankAccount', label: 'Bank account number', numeric: true },
  { field: 'bankIFSC', label: 'IFSC code' },
  { field: 'bankBranch', label: 'Bank branch' },
  { field: 'pan', label: 'PAN' },
  { field: 'gstNumber', label: 'GST number' },
  { field: 'gstPercentage', label: 'GST percentage', numeric: true },
];

/** Blank → the default (0); a number as typed; other text → NaN, which the rule refuses. */
const percentageOf = (text: string): number | undefined => {
  const t = text.trim();
  if (t === '') return undefined;
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(t) ? Number(t) : Number.NaN;
};

/** The section to save after the rule the server applies (core ZBillingDetailsSetting), or the problems. */
export function checkBillingDetails(
  form: TBillingForm,
): { value: TBillingDetailsSetting } | { problems: TProblems } {
  const parsed = ZBillingDetailsSetting.safeParse({
    ...form,
    gstPercentage: percentageOf(form.gstPercentage),
  });
  if (parsed.success) return { value: parsed.data };
  const problems: TProblems = {};
  for (const issue of parsed.error.issues) problems[issue.path[0] as TField] ??= issue.message;
  return { problems };
}

const toForm = (v: TBillingDetailsSetting): TBillingForm => ({
  ...v,
  gstPercentage: String(v.gstPercentage),
});

/**
 * Billing Details (spec-lab §3 billing): the logo and the bank and tax details printed on invoices,
 * the user's BILLING_DETAILS section. The logo is uploaded on its own when picked (contract
 * upload-assets, 'Please wait while we upload image' / 'Image upload failed') and saved as its URL.
 */
export default function BillingDetailsDialog({ onClose }: { onClose: () => void }) {
  const stored = useUserPreferences().BILLING_DETAILS;
  const [form, setForm] = useState<TBillingForm>(() => toForm(stored));
  const [problems, setProblems] = useState<TProblems>({});
  const [uploading, setUploading] = useState(false);
  const save = useSaveSection('BILLING_DETAILS');
  const reset = useResetSection('BILLING_DETAILS');
  const failure = save.error ?? reset.error;

  const set = (field: TField, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setProblems((p) => ({ ...p, [field]: undefined }));
  };

  const onSave = () => {
    const checked = checkBillingDetails(form);
    if ('problems' in checked) {
      setProblems(checked.problems);
      return;
    }
    setProblems({});
    save.mutate(checked.value, { onSuccess: onClose });
  };

  return (
    <SettingDialogFrame
      entry="BILLING_DETAILS"
      onClose={onClose}
      onSave={onSave}
      onReset={() => reset.mutate(undefined, { onSuccess: onClose })}
      busy={save.isPending || reset.isPending}
      saveDisabled={uploading}
      error={failure ? settingErrorText(failure) : null}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <ImageUploadField
          label="Logo"
          assetType="BILLING_LOGO"
          value={form.logo}
          onChange={(url) => set('logo', url)}
          onBusyChange={setUploading}
        />
        {problems.logo ? (
          <Typography role="alert" color="error" variant="body2">
            {problems.logo}
          </Typography>
        ) : null}
        {TEXT_FIELDS.map(({ field, label, numeric }) => (
          <TextField
            key={field}
            label={label}
            name={field}
            value={form[field]}
            onChange={(e) => set(field, e.target.value)}
            error={Boolean(problems[field])}
            helperText={problems[field]}
            slotProps={
              numeric
                ? { htmlInput: { inputMode: field === 'gstPercentage' ? 'decimal' : 'numeric' } }
                : undefined
            }
          />
        ))}
      </Stack>
    </SettingDialogFrame>
  );
}
