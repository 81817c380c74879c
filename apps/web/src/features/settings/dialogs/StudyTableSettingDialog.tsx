import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { useSectionForm } from '../useSectionForm';
import { ROW_COLOUR_FIELDS, type TRowColourField } from '../row-colours';

/** What the colour picker shows while "None" is ticked, and starts from when it is unticked. */
const PICKER_START = '#fff3cd';

/** spec-lab §3 study table preferences: the external viewer folder and the five row colours. */
export default function StudyTableSettingDialog({ onClose }: { onClose: () => void }) {
  const form = useSectionForm('UI_REPORT_TABLE_PREFERENCES', onClose);
  const { value, set } = form;
  return (
    <SettingDialogFrame entry="STUDY_TABLE_SETTING" onClose={onClose} {...form.frame}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label="Download folder for the external viewer"
          helperText="Where studies opened in RadiAnt are saved, e.g. C:\Studies"
          value={value.openInRadiantPath}
          onChange={(e) => set('openInRadiantPath', e.target.value)}
          slotProps={{ htmlInput: { maxLength: 500 } }}
        />
        <Typography variant="subtitle2">Row colours</Typography>
        {ROW_COLOUR_FIELDS.map(({ field, label }) => (
          <ColourField
            key={field}
            field={field}
            label={label}
            value={value[field]}
            onChange={(next) => set(field, next)}
          />
        ))}
      </Stack>
    </SettingDialogFrame>
  );
}

function ColourField({
  field,
  label,
  value,
  onChange,
}: {
  field: TRowColourField;
  label: string;
  value: string;
  onChange: (next: string) => void;
}) {
  const none = value === '';
  const inputId = `row-colour-${field}`;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
      <Typography component="label" htmlFor={inputId} sx={{ flex: 1 }}>
        {label}
      </Typography>
      <input
        id={inputId}
        type="color"
        value={none ? PICKER_START : value}
        disabled={none}
        onChange={(e) => onChange(e.target.value)}
        style={{ width: 48, height: 32, border: 'none', background: 'none', opacity: none ? 0.3 : 1 }}
      />
      <FormControlLabel
        control={
          <Checkbox
            size="small"
            checked={none}
            onChange={(e) => onChange(e.target.checked ? '' : PICKER_START)}
            slotProps={{ input: { 'aria-label': `No colour for ${label}` } }}
          />
        }
        label="None"
      />
    </Box>
  );
}
