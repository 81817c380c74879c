import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  type TStudyColumnId,
  type TStudyListRow,
  displayStatus,
  formatDicomText,
  formatPersonName,
  paymentColumnText,
  simpleStatus,
  tagChips,
} from '@radflow/core';
import type { ReactNode } from 'react';
import { formatTimestamp } from '../../lib/format';
import { isUploadPending } from './study-columns-meta';

/** The cells of the study table (spec-core §2 Study table columns), one renderer per column id. */

export const UPLOAD_PENDING_LABEL = 'Upload pending';

/** The Assigned cell of a study assigned to the signed-in user (issue 21 §5). */
export const ASSIGNED_TO_YOU = 'You';
export const ASSIGNED_TO_YOUR_DOCTOR = 'Your doctor';

const dash = '—';
const text = (value: string | null | undefined): string => (value && value.trim() ? value : dash);

/*
 * Issue 21 §6: the default columns fit a 1280 px screen. A table gives each column at least its
 * content's unbreakable width, so long texts are cut at these widths (the whole text in the tooltip)
 * and dates break between day and time.
 */
function Ellipsis({ value, width = 140 }: { value: string; width?: number }) {
  if (value === dash) return <>{dash}</>;
  return (
    <Tooltip title={value}>
      <Box
        component="span"
        sx={{
          display: 'block',
          maxWidth: width,
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
        }}
      >
        {value}
      </Box>
    </Tooltip>
  );
}

/**
 * A time column: the time alone in the group's display time zone (a zone label on every row would
 * widen the table by a third); the cell's title gives it with its label.
 */
function TimeCell({ value }: { value: string | null }) {
  if (!value) return <>{dash}</>;
  return <span title={formatTimestamp(value)}>{formatTimestamp(value, { label: false })}</span>;
}

export function UploadPendingBadge() {
  return <Chip size="small" color="warning" variant="outlined" label={UPLOAD_PENDING_LABEL} />;
}

/** spec-core §2: the first 2 tags, then a '+N' chip naming the rest in its tooltip. */
export function TagChips({ tags }: { tags: TStudyListRow['tags'] }) {
  const { shown, moreLabel } = tagChips(tags);
  if (tags.length === 0) return <>{dash}</>;
  const rest = tags.slice(shown.length).map((t) => t.tag);
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'nowrap' }}>
      {shown.map((t) => (
        <Chip key={t.id} size="small" label={t.tag} color={t.globalTag ? 'primary' : 'default'} />
      ))}
      {moreLabel && (
        <Tooltip title={rest.join(', ')}>
          <Chip size="small" variant="outlined" label={moreLabel} aria-label={`${rest.length} more tags`} />
        </Tooltip>
      )}
    </Box>
  );
}

/** Whether the row is assigned to the signed-in user (e-mails compare case-insensitively). */
export function isAssignedTo(row: Pick<TStudyListRow, 'assignedTo'>, me: string | undefined): boolean {
  return Boolean(me && row.assignedTo && row.assignedTo.toLowerCase() === me.toLowerCase());
}

/**
 * Renders one data column; `actions`, `uploadStudy` and `activeInViewer` are drawn by the table's
 * callers. `me` is whose work the list shows (the signed-in user's e-mail, or the doctor a typist
 * types for): their studies read `meLabel` ('You', 'Your doctor') under Assigned.
 */
export function renderStudyCell(
  column: TStudyColumnId,
  row: TStudyListRow,
  me?: string,
  meLabel: string = ASSIGNED_TO_YOU,
): ReactNode {
  switch (column) {
    case 'id':
      return row.id;
    case 'patient':
      return <Ellipsis value={text(formatPersonName(row.patientName))} />;
    case 'patientId':
      return text(row.patientId);
    case 'age':
      return [row.patientAge, row.patientSex].filter((v) => v.trim()).join(' / ') || dash;
    case 'studyName':
      return (
        <Box>
          <Ellipsis value={text(formatDicomText(row.studyName))} width={120} />
          {row.modality && (
            <Typography variant="caption" color="textSecondary">
              {row.modality}
            </Typography>
          )}
        </Box>
      );
    case 'imageCount':
      return (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, whiteSpace: 'nowrap' }}>
          {`${row.count.series}/${row.count.images}`}
          {isUploadPending(row) && <UploadPendingBadge />}
        </Box>
      );
    case 'imageUploadStatus':
      return isUploadPending(row) ? <UploadPendingBadge /> : row.lastUploadCompletedAt ? 'Uploaded' : dash;
    case 'history':
      return <Ellipsis value={text(row.history)} width={160} />;
    case 'tag':
      return <TagChips tags={row.tags} />;
    case 'reportStatus':
      return <Chip size="small" variant="outlined" label={displayStatus(row)} />;
    case 'status':
      return simpleStatus(row.status);
    case 'studyType':
      return <Ellipsis value={text(row.reportStudyPart.join(', '))} />;
    case 'center':
      return <Ellipsis value={text(row.radiologyCenter)} width={100} />;
    case 'radiologyCenter':
      return <Ellipsis value={text(row.institutionName)} width={100} />;
    case 'referral':
    case 'risReferringDoctor':
      return <Ellipsis value={text(formatPersonName(row.referringPhysicianName))} />;
    case 'department':
      return text(row.department);
    case 'email':
      return text(row.email);
    case 'contactNo':
    case 'risMobile':
      return text(row.mobileNumber);
    case 'created':
    case 'risCreatedDate':
      return <TimeCell value={row.createdAt} />;
    case 'studyDate':
      return text(row.studyDateTime);
    case 'uploadedDate':
      return <TimeCell value={row.lastUploadCompletedAt} />;
    case 'signedOffDate':
      return <TimeCell value={row.signedOffAt} />;
    case 'assigned':
      // Issue 21 §5: what is the doctor's own stands out from the pool and from other doctors' work.
      return isAssignedTo(row, me) ? (
        <Chip
          size="small"
          color="primary"
          label={meLabel}
          title={row.assignedToName ?? row.assignedTo ?? undefined}
        />
      ) : (
        <Ellipsis value={text(row.assignedToName ?? row.assignedTo)} width={100} />
      );
    case 'auditor':
      return text(row.auditor);
    case 'auditApproval':
      return text(row.auditStatus);
    case 'parentId':
      return row.splitFromReportStatusId ?? dash;
    case 'risUhid':
      return text(row.uhid);
    case 'invoiceNumber':
      return text(row.invoiceNumber || row.accessionNumber);
    case 'report':
      return row.hasReports ? 'Available' : dash;
    case 'share':
      return row.shareLink ? (
        <Link href={`/share?link=${encodeURIComponent(row.shareLink)}`} target="_blank" rel="noopener">
          Open
        </Link>
      ) : (
        dash
      );
    case 'payment':
      return paymentColumnText(row);
    // Columns the list rows carry no data for yet (URLs, RIS billing, identifier).
    case 'originReferenceId':
    case 'identifier':
    case 'proxyUrl':
    case 'specialUploadUrl':
    case 'risBillCategories':
    case 'risPriorities':
    case 'risBillingStatus':
    case 'actions':
    case 'uploadStudy':
    case 'activeInViewer':
      return dash;
  }
}
