import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ZContactInfoSetting, type TUserPreferences } from '@radflow/core';
import { useState } from 'react';
import { ImageUploadField } from '../ImageUploadField';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { useSectionForm } from '../useSectionForm';

type TContactInfo = TUserPreferences['USER_INFORMATION'];
type TTextField = Exclude<keyof TContactInfo, 'centerImage'>;

const FIELDS: readonly { field: TTextField; label: string; multiline?: boolean; type?: string }[] = [
  { field: 'email', label: 'Email', type: 'email' },
  { field: 'mobileNumber', label: 'Mobile number', type: 'tel' },
  { field: 'address', label: 'Address', multiline: true },
  { field: 'gstNumber', label: 'GST number' },
  { field: 'disclaimer', label: 'Disclaimer', multiline: true },
  { field: 'copyLinkTitleText', label: 'Title of shared report links' },
];

/** Field errors from core's rules (the server answers the same words). */
export function contactInfoProblems(value: TContactInfo): Partial<Record<keyof TContactInfo, string>> {
  const parsed = ZContactInfoSetting.safeParse(value);
  if (parsed.success) return {};
  const problems: Partial<Record<keyof TContactInfo, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof TContactInfo;
    problems[field] ??= issue.message;
  }
  return problems;
}

/** spec-lab §3 contact info (USER_INFORMATION), with the center image. */
export default function ContactInfoDialog({ onClose }: { onClose: () => void }) {
  const form = useSectionForm('USER_INFORMATION', onClose);
  const [problems, setProblems] = useState<Partial<Record<keyof TContactInfo, string>>>({});
  const [uploading, setUploading] = useState(false);
  const { value, set } = form;

  const onSave = () => {
    const found = contactInfoProblems(value);
    setProblems(found);
    if (Object.keys(found).length === 0) form.frame.onSave();
  };

  return (
    <SettingDialogFrame
      entry="CONTACT_INFO"
      onClose={onClose}
      {...form.frame}
      onSave={onSave}
      saveDisabled={uploading}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        {FIELDS.map(({ field, label, multiline, type }) => (
          <TextField
            key={field}
            label={label}
            name={field}
            type={type}
            multiline={multiline}
            minRows={multiline ? 2 : undefined}
            value={value[field]}
            onChange={(e) => {
              set(field, e.target.value);
              setProblems((p) => ({ ...p, [field]: undefined }));
            }}
            error={Boolean(problems[field])}
            helperText={problems[field]}
          />
        ))}
        <ImageUploadField
          label="Center image"
          assetType="CENTER_IMAGE"
          value={value.centerImage}
          onChange={(url) => set('centerImage', url)}
          onBusyChange={setUploading}
        />
      </Stack>
    </SettingDialogFrame>
  );
}
