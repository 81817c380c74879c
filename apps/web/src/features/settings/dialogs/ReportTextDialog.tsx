import Stack from '@mui/material/Stack';
import { RichTextEditor } from '../RichTextEditor';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { useSectionForm } from '../useSectionForm';

const PARTS = [
  { field: 'header', label: 'Header' },
  { field: 'footer', label: 'Footer' },
  { field: 'disclaimer', label: 'Disclaimer' },
] as const;

/** spec-lab §3 report text: header, footer and disclaimer as HTML (the server sanitises it). */
export default function ReportTextDialog({ onClose }: { onClose: () => void }) {
  const form = useSectionForm('REPORT_TEXT', onClose);
  return (
    <SettingDialogFrame entry="REPORT_TEXT" onClose={onClose} maxWidth="md" {...form.frame}>
      <Stack spacing={3}>
        {PARTS.map(({ field, label }) => (
          <RichTextEditor
            key={field}
            label={label}
            value={form.value[field]}
            onChange={(html) => form.set(field, html)}
          />
        ))}
      </Stack>
    </SettingDialogFrame>
  );
}
