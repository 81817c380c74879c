import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { TRouterVersionCheck } from '@radflow/core';

/**
 * The router-update offer dialog (spec-core §2 'Study detail dialogs and widgets'): shown when the
 * router's check-version says a newer version exists; Update asks the router to update itself.
 */
export function RouterUpdateDialog({
  check,
  busy,
  onUpdate,
  onLater,
}: {
  check: TRouterVersionCheck;
  busy: boolean;
  onUpdate: () => void;
  onLater: () => void;
}) {
  return (
    <Dialog open onClose={onLater} aria-labelledby="router-update-title">
      <DialogTitle id="router-update-title">Router update</DialogTitle>
      <DialogContent>
        <Typography>
          Version {check.latestVersion} of the router is available; this computer runs {check.currentVersion}.
        </Typography>
        {check.notes && (
          <Typography color="textSecondary" sx={{ mt: 1 }}>
            {check.notes}
          </Typography>
        )}
        <Typography color="textSecondary" sx={{ mt: 1 }}>
          Nothing in the queue is lost: the router restarts into the new version and carries on.
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onLater}>Later</Button>
        <Button variant="contained" onClick={onUpdate} disabled={busy}>
          Update
        </Button>
      </DialogActions>
    </Dialog>
  );
}
