import type { TStudyListRow } from '@radflow/core';

/** What every study dialog takes: the row, how to close, and what to do after a change. */
export interface TStudyDialogProps {
  row: TStudyListRow;
  onClose: () => void;
  /** Called after each successful change, once the lists are marked stale. */
  onChanged: () => void;
}
