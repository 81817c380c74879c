import CloudUploadIcon from '@mui/icons-material/CloudUploadOutlined';
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import SendIcon from '@mui/icons-material/SendOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import {
  type TCaseSendBadge,
  type TGroupFlags,
  type TRole,
  type TStudyListRow,
  canCreateStudy,
  canDownloadZip,
  canForwardToPacs,
  isCenterUser,
  isRowActionsDisabled,
} from '@radflow/core';
import { CaseSendBadge } from '../forwarding/CaseSendBadge';

/**
 * The study-row actions this list wires itself (the rest are StudyRowActions of study-actions):
 * zip download, forward to PACS with its case-send badge, and the upload-study column. Each is
 * offered by the core rule that the server checks too.
 */

export interface TRowExtrasAccess {
  roles: readonly TRole[];
  flags: TGroupFlags;
}

/** spec-core §5 zip refusals by role (core canDownloadZip); nothing on a deleted study (§4). */
export function offersZip(row: TStudyListRow, { roles, flags }: TRowExtrasAccess): boolean {
  return !isRowActionsDisabled(row) && canDownloadZip(roles, flags);
}

/**
 * Forward to PACS (issue 3 §6): the group switch addForwardingPacsFeature and core canForwardToPacs,
 * the rule the forwarding routes check (center users and the group's staff). The PACS list is the
 * study's center's: a center user's own, and group staff name the row's `centerId`, so a row without
 * it (an older server) is offered to center users only.
 */
export function offersForward(row: TStudyListRow, { roles, flags }: TRowExtrasAccess): boolean {
  return (
    flags.addForwardingPacsFeature &&
    canForwardToPacs(roles) &&
    (row.centerId !== undefined || isCenterUser(roles)) &&
    !isRowActionsDisabled(row)
  );
}

/** The upload-study column (spec-core §2): the roles that bring studies in (core canCreateStudy). */
export function offersUploadStudy(row: TStudyListRow, { roles }: TRowExtrasAccess): boolean {
  return canCreateStudy(roles) && !isRowActionsDisabled(row);
}

export function RowExtraActions({
  row,
  access,
  badge,
  onZip,
  onForward,
}: {
  row: TStudyListRow;
  access: TRowExtrasAccess;
  badge: TCaseSendBadge | undefined;
  onZip(row: TStudyListRow): void;
  onForward(row: TStudyListRow): void;
}) {
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      {offersZip(row, access) && (
        <Tooltip title="Download zip">
          <IconButton size="small" aria-label={`Download zip of study ${row.id}`} onClick={() => onZip(row)}>
            <DownloadIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {offersForward(row, access) && (
        <Tooltip title="Forward to PACS">
          <IconButton
            size="small"
            aria-label={`Forward study ${row.id} to PACS`}
            onClick={() => onForward(row)}
          >
            <SendIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {badge && <CaseSendBadge badge={badge} />}
    </Box>
  );
}

export function UploadStudyButton({
  row,
  onUpload,
}: {
  row: TStudyListRow;
  onUpload(row: TStudyListRow): void;
}) {
  return (
    <Tooltip title="Upload images">
      <IconButton size="small" aria-label={`Upload images to study ${row.id}`} onClick={() => onUpload(row)}>
        <CloudUploadIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
