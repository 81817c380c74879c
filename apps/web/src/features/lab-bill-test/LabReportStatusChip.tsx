import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import type { TLabReportStatus } from '@radflow/core';

const STATUS_COLOR: Record<TLabReportStatus, 'default' | 'info' | 'warning' | 'success' | 'secondary'> = {
  PENDING: 'default',
  CREATED: 'info',
  DRAFTED: 'warning',
  REPORTED: 'secondary',
  SIGNED_OFF: 'success',
};

/**
 * A billed test's report status (spec-lab §2, §4): a chip, and for a signed-off test a link that
 * opens its report in a new tab. The test-level dashboard and the billing list show it alike.
 */
export function LabReportStatusChip({
  status,
  studyInstanceUid,
  reportStatusId,
  label = status,
  linkLabel,
}: {
  status: TLabReportStatus;
  studyInstanceUid: string | null;
  reportStatusId: number | null;
  /** The chip's text (the billing list prefixes the test code). */
  label?: string;
  /** The link's accessible name: which test's report it opens. */
  linkLabel: string;
}) {
  const chip = <Chip size="small" label={label} color={STATUS_COLOR[status]} />;
  if (status !== 'SIGNED_OFF' || !studyInstanceUid || reportStatusId === null) return chip;
  return (
    <Link
      href={`/report-edit/${studyInstanceUid}/${reportStatusId}`}
      target="_blank"
      rel="noopener"
      aria-label={linkLabel}
    >
      {chip}
    </Link>
  );
}
