import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { TDraftCopy, TSavedCopy } from '@radflow/core';
import { useId } from 'react';
import { formatTimestamp } from '../../lib/format';

/**
 * Someone else saved the report after this writer's unsaved draft was started: neither is dropped
 * silently; the writer chooses which to keep (issue 7 §1 drafts, core chooseReportOpening).
 */
export function DraftConflictDialog({
  draft,
  saved,
  onKeepDraft,
  onUseSaved,
}: {
  draft: TDraftCopy;
  saved: TSavedCopy;
  onKeepDraft: () => void;
  onUseSaved: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog open aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Which report do you want to keep?</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {`${saved.savedBy ?? 'Someone'} saved this report at ${formatTimestamp(saved.savedAt)}, after your unsaved draft of ${formatTimestamp(draft.updatedAt)} was started.`}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onUseSaved}>Use the saved report</Button>
        <Button variant="contained" onClick={onKeepDraft}>
          Keep my draft
        </Button>
      </DialogActions>
    </Dialog>
  );
}
