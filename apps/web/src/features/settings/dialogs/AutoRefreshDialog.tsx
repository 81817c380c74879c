import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import { useState } from 'react';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { settingErrorText, useSaveSection, useUserPreferences } from '../settings-api';

/**
 * The auto refresh toggle (spec-lab §2): UI_PREFERENCES.autoRefresh. Saves only that field, so the
 * viewer switches of the same section stay as they are; no Reset (it would reset those too).
 */
export default function AutoRefreshDialog({ onClose }: { onClose: () => void }) {
  const [autoRefresh, setAutoRefresh] = useState(useUserPreferences().UI_PREFERENCES.autoRefresh);
  const save = useSaveSection('UI_PREFERENCES');
  return (
    <SettingDialogFrame
      entry="AUTO_REFRESH"
      onClose={onClose}
      maxWidth="xs"
      onSave={() => save.mutate({ autoRefresh }, { onSuccess: onClose })}
      busy={save.isPending}
      error={save.error ? settingErrorText(save.error) : null}
    >
      <FormControlLabel
        control={<Switch checked={autoRefresh} onChange={(e) => setAutoRefresh(e.target.checked)} />}
        label="Refresh the study lists automatically"
      />
      <FormHelperText sx={{ mt: 0, ml: 6 }}>
        When on, the study lists reload every 25 seconds; when off, use the refresh button.
      </FormHelperText>
    </SettingDialogFrame>
  );
}
