import Typography from '@mui/material/Typography';
import type { TReport, TStudyDetail } from '@radflow/core';
import { formatTimestamp } from '../../lib/format';
import { showsLock } from './editor-rules';
import { AUTO_SAVE_TEXT, type TAutoSaveState } from './useAutoSave';

/** The editor's status line: the study's status, who locked it, the last save, the auto-save state. */
export function ReportStatusLine({
  row,
  main,
  autoSave,
}: {
  row: TStudyDetail;
  main: TReport | null;
  autoSave: TAutoSaveState;
}) {
  const last = main?.versions[main.versions.length - 1] ?? null;
  const parts = [
    `Status: ${row.status}`,
    main?.awaitingVerification ? 'Awaiting verification' : null,
    showsLock(row) ? `Locked by ${row.lockedBy}` : null,
    last ? `Last saved ${formatTimestamp(last.savedAt)} by ${last.savedByName ?? last.savedBy ?? '—'}` : null,
    main?.signature
      ? `Signed off by ${main.signature.name} at ${formatTimestamp(main.signature.signedOffAt)}`
      : null,
    AUTO_SAVE_TEXT[autoSave] || null,
  ].filter((p): p is string => p !== null);
  return (
    <Typography variant="body2" color="text.secondary" role="status" data-testid="report-status-line">
      {parts.join(' · ')}
    </Typography>
  );
}
