import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { useSectionForm } from '../useSectionForm';

type TViewerField =
  | 'halfPageReporting'
  | 'enableVoiceTyping'
  | 'popupViewer'
  | 'popupViewerDoNotFocus'
  | 'hideStudyListReportButton';

/** spec-lab §3 UI preferences; the one-line help is ours (the spec names the fields only). */
export const VIEWER_SWITCHES: readonly { field: TViewerField; label: string; help: string }[] = [
  {
    field: 'halfPageReporting',
    label: 'Half page reporting',
    help: 'Open the report editor beside the images instead of over them.',
  },
  {
    field: 'enableVoiceTyping',
    label: 'Voice typing',
    help: 'Show the microphone button in the report editor to dictate.',
  },
  { field: 'popupViewer', label: 'Pop-up viewer', help: 'Open the viewer in a separate browser window.' },
  {
    field: 'popupViewerDoNotFocus',
    label: 'Keep focus on the study list',
    help: 'The pop-up viewer opens without taking the focus from this window.',
  },
  {
    field: 'hideStudyListReportButton',
    label: 'Hide report button in the study list',
    help: 'Reports are opened from the viewer only.',
  },
];

export default function ViewerSettingDialog({ onClose }: { onClose: () => void }) {
  const form = useSectionForm('UI_PREFERENCES', onClose);
  return (
    <SettingDialogFrame entry="VIEWER_SETTING" onClose={onClose} {...form.frame}>
      <Stack spacing={1.5}>
        {VIEWER_SWITCHES.map(({ field, label, help }) => (
          <div key={field}>
            <FormControlLabel
              control={
                <Switch checked={form.value[field]} onChange={(e) => form.set(field, e.target.checked)} />
              }
              label={label}
            />
            <FormHelperText sx={{ mt: 0, ml: 6 }}>{help}</FormHelperText>
          </div>
        ))}
      </Stack>
    </SettingDialogFrame>
  );
}
