import type { TGroupFlags } from '../settings/preferences.js';
import { CENTER_ROLES, type TRole, hasRole } from '../identity/roles.js';
import type { TUploadState, TViewerEntry } from './schemas.js';
import { WORKLIST_MESSAGES } from '../worklist/messages.js';
import type { TReportStatus } from '../worklist/statuses.js';

/**
 * A center user in the sense of spec-core §2 "Centers with the feature may use a full viewer only if
 * enableFullViewerForCenter": every role the user holds is a center role (center, center customer,
 * backup, share-all, lab roles, offline hybrid). A user who is also group staff or a doctor opens the
 * viewer through that role.
 */
export function isCenterOnlyUser(roles: readonly TRole[]): boolean {
  return roles.length > 0 && roles.every((r) => CENTER_ROLES.includes(r));
}

/**
 * spec-core §2 "Centers with the feature may use a full viewer only if enableFullViewerForCenter".
 * Decision: a center user without it still opens the images in the basic viewer — series, scrolling,
 * window presets, zoom, pan, cine — without the measurement and annotation tools (`canAnnotate` false):
 * a center checks what it sent; measuring and marking key images is the readers' work. Refusing the
 * images outright would leave a center unable to check its own upload.
 */
export function hasFullViewer(input: {
  roles: readonly TRole[];
  flags: Pick<TGroupFlags, 'enableFullViewerForCenter'>;
}): boolean {
  return !isCenterOnlyUser(input.roles) || input.flags.enableFullViewerForCenter;
}

/**
 * Whether the viewer opens a study, and what it tells the user (spec-core §2 Viewer entry, §4
 * "viewing shows 'Study has been deleted'", §5 upload messages). In order:
 * - a deleted study: refused, 'Study has been deleted';
 * - no image yet (upload NONE): refused, 'Study not uploaded, please contact center';
 * - upload PARTIAL: allowed (the images so far are readable) with 'Study is not fully uploaded.
 *   please check with center';
 * - else allowed.
 * The server answers it in the viewer context; the worklist's view button and the viewer show the
 * message. Which tools the viewer offers is `hasFullViewer` and `canAnnotateStudy`.
 */
export function viewerEntry(input: { status: TReportStatus; upload: TUploadState }): TViewerEntry {
  if (input.status === 'DELETED') return { allowed: false, message: WORKLIST_MESSAGES.studyDeleted };
  if (input.upload === 'NONE') return { allowed: false, message: WORKLIST_MESSAGES.studyNotUploaded };
  if (input.upload === 'PARTIAL') return { allowed: true, message: WORKLIST_MESSAGES.studyNotFullyUploaded };
  return { allowed: true };
}

/**
 * spec-core §6 / spec-lab §6: an assignor of a group with showActiveInViewer sees who was last active
 * in the viewer on each study of the list.
 */
export function seesActiveInViewer(
  roles: readonly TRole[],
  flags: Pick<TGroupFlags, 'showActiveInViewer'>,
): boolean {
  return flags.showActiveInViewer && asksActiveInViewer(roles);
}

/** The roles that may ask who was active in the viewer; the group's switch decides the rest. */
export function asksActiveInViewer(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_ASSIGNOR');
}
