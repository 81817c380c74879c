import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { TSavedCopy } from '@radflow/core';
import { useId } from 'react';
import { formatTimestamp } from '../../lib/format';

/**
 * A save the server refused as stale (issue 21 §7: another tab or writer saved after this text was
 * opened). Nothing is chosen silently: reload the saved report (this text is dropped), or keep this
 * text, saved again from the newest version as a new version (the other text stays the one before).
 */
export function SaveConflictDialog({
  saved,
  busy,
  onReload,
  onKeepMine,
}: {
  /** The newest saved version, as read after the refusal (null: the report is gone, e.g. reworked). */
  saved: TSavedCopy | null;
  busy: boolean;
  onReload: () => void;
  onKeepMine: () => void;
}) {
  const titleId = useId();
  const who = saved
    ? `${saved.savedBy ?? 'Someone'} saved version ${saved.version} at ${formatTimestamp(saved.savedAt)}`
    : 'The saved report changed';
  return (
    <Dialog open aria-labelledby={titleId}>
      <DialogTitle id={titleId}>This report was saved elsewhere</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {`${who}, after you opened it (in another tab or by another writer). Your text was not saved.`}
        </DialogContentText>
        <DialogContentText sx={{ mt: 1 }}>
          Reload to continue from the saved report (your changes are dropped), or keep your text: it is saved
          as a new version and the other one stays in Versions.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button disabled={busy} onClick={onReload}>
          Reload the saved report
        </Button>
        <Button variant="contained" disabled={busy} onClick={onKeepMine}>
          Keep mine as a new version
        </Button>
      </DialogActions>
    </Dialog>
  );
}
