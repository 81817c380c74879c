import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import { NOTIFICATION_KINDS, NOTIFICATION_KIND_LABELS, type TNotificationKind } from '@radflow/core';
import { useId, useState } from 'react';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { settingErrorText } from '../settings/settings-api';
import { askBrowserNotificationPermission, browserNotificationsSupported } from './browser-notification';
import { useSaveNotificationPreferences } from './notifications.api';

/**
 * Which kinds pop up, and the browser's own notification while the tab is hidden (issue 23 §2).
 * Saved in the personal section USER_PREFERENCES; switching the browser notification on
 * asks the browser's permission (a click, never on load).
 */
export default function NotificationSettingsDialog({
  current,
  onClose,
}: {
  current: { popupKinds: TNotificationKind[]; browserNotifications: boolean } | null;
  onClose: () => void;
}) {
  const titleId = useId();
  const [kinds, setKinds] = useState<TNotificationKind[]>(current?.popupKinds ?? []);
  const [browser, setBrowser] = useState(current?.browserNotifications ?? false);
  const [denied, setDenied] = useState(false);
  const save = useSaveNotificationPreferences();
  const { showInfo } = useSnackbar();

  const toggle = (kind: TNotificationKind, on: boolean) =>
    setKinds((list) => (on ? [...list, kind] : list.filter((k) => k !== kind)));

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Pop-up settings</DialogTitle>
      <DialogContent>
        <FormGroup aria-label="Kinds that pop up">
          {NOTIFICATION_KINDS.map((kind) => (
            <FormControlLabel
              key={kind}
              control={
                <Checkbox checked={kinds.includes(kind)} onChange={(e) => toggle(kind, e.target.checked)} />
              }
              label={NOTIFICATION_KIND_LABELS[kind]}
            />
          ))}
        </FormGroup>
        <FormControlLabel
          sx={{ mt: 1 }}
          control={
            <Switch
              checked={browser}
              disabled={!browserNotificationsSupported()}
              onChange={(e) => {
                const on = e.target.checked;
                if (!on) return setBrowser(false);
                void askBrowserNotificationPermission().then((granted) => {
                  setBrowser(granted);
                  setDenied(!granted);
                });
              }}
            />
          }
          label="Also notify me through the browser when this tab is hidden"
        />
        {denied && (
          <FormHelperText error>The browser did not allow notifications for this site.</FormHelperText>
        )}
        {save.isError && <FormHelperText error>{settingErrorText(save.error)}</FormHelperText>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={save.isPending}
          onClick={() =>
            save.mutate(
              { popupKinds: kinds, browserNotifications: browser },
              {
                onSuccess: () => {
                  showInfo('Saved');
                  onClose();
                },
              },
            )
          }
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
