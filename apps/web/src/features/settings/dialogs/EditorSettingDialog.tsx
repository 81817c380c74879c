import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { EDITOR_FONT_FAMILIES, EDITOR_FONT_SIZES } from '@radflow/core';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { useSectionForm } from '../useSectionForm';

/** spec-lab §3 editor preferences with the §9 font lists. */
export default function EditorSettingDialog({ onClose }: { onClose: () => void }) {
  const form = useSectionForm('EDITOR_PREFERENCES', onClose);
  const { value, set } = form;
  return (
    <SettingDialogFrame entry="EDITOR_SETTING" onClose={onClose} {...form.frame}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          select
          label="Default font size"
          value={value.defaultEditorFontSize}
          onChange={(e) => set('defaultEditorFontSize', Number(e.target.value))}
        >
          {EDITOR_FONT_SIZES.map((size) => (
            <MenuItem key={size} value={size}>
              {size}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Default font family"
          value={value.defaultEditorFontFamily}
          onChange={(e) =>
            set('defaultEditorFontFamily', e.target.value as (typeof EDITOR_FONT_FAMILIES)[number])
          }
        >
          {EDITOR_FONT_FAMILIES.map((family) => (
            <MenuItem key={family} value={family} sx={{ fontFamily: family }}>
              {family}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={
            <Switch
              checked={value.hideReportPreview}
              onChange={(e) => set('hideReportPreview', e.target.checked)}
            />
          }
          label="Hide report preview"
        />
        <FormControlLabel
          control={
            <Switch
              checked={value.showImagesInPrintPreview}
              onChange={(e) => set('showImagesInPrintPreview', e.target.checked)}
            />
          }
          label="Show images in print preview"
        />
      </Stack>
    </SettingDialogFrame>
  );
}
