import { z } from 'zod';
import { ZSearchTableRequest } from '../common/schemas.js';
import { formatDicomText, formatPersonName } from '../display/person-name.js';
import { formatDisplayTime } from '../display/display-time.js';
import { type TRole, hasRole, isCenterUser } from '../identity/roles.js';
import type { TGroupFlags } from '../settings/preferences.js';
import type { TStudyColumnId } from '../worklist/columns.js';
import type { TStudyListRow } from '../worklist/schemas.js';
import { displayStatus } from '../worklist/statuses.js';
import { SUMMARY_DATE_TYPES, SUMMARY_MESSAGES, type TSummaryDateType } from './range.js';

/**
 * The summary screens (spec-core §2 "Summary screen", §7 POST /report-summary/, /total-summary/,
 * /report-summary/csv): who may open them, which actions a row offers, and the text of each
 * column — one rule each, read by the screen, the API and the Excel file alike, so the file says
 * what the screen shows.
 */

/**
 * The roles whose menu holds a summary (spec-core §2 Menu per role: CENTER and DOCTOR 'Report
 * summary' /summary, ADMIN 'Report summary admin' /summary-admin). Assignors, billers and
 * tele-radiology users reach it through one of these roles (the spec's history actions name them).
 */
export const SUMMARY_ROLES: readonly TRole[] = ['ROLE_CENTER', 'ROLE_DOCTOR', 'ROLE_ADMIN'];

export function hasSummaryScreen(roles: readonly TRole[]): boolean {
  return roles.some((r) => SUMMARY_ROLES.includes(r));
}

/**
 * spec-core §2: 'You are not allowed to view this page' when hideSummaryPage is on or the user is a
 * tele-medicine-customised assignor or center (the same users the drawer hides the menu item from:
 * identity/menus.ts). Null: the page may be shown.
 */
export function summaryPageRefusal(
  roles: readonly TRole[],
  flags: Pick<TGroupFlags, 'hideSummaryPage' | 'teleMedSpecificCustomization'>,
): string | null {
  if (flags.hideSummaryPage) return SUMMARY_MESSAGES.notAllowed;
  if (flags.teleMedSpecificCustomization && (hasRole(roles, 'ROLE_ASSIGNOR') || isCenterUser(roles)))
    return SUMMARY_MESSAGES.notAllowed;
  return null;
}

/** spec-core §2: 'Download Excel' is hidden (and refused) for an assignor under disableExcelDownloadForAssignor. */
export function canDownloadSummaryExcel(
  roles: readonly TRole[],
  flags: Pick<TGroupFlags, 'disableExcelDownloadForAssignor'>,
): boolean {
  return !(flags.disableExcelDownloadForAssignor && hasRole(roles, 'ROLE_ASSIGNOR'));
}

/**
 * The history cell's buttons (spec-core §2 History actions; §6 "Billers and tele-radiology may open
 * history edit on the summary"; "timeline button (also assignors)" of the center): history edit for
 * billers and tele-radiology only; the report editor for every row but a deleted one (drawn
 * disabled); the timeline for assignors and center users.
 */
export function summaryHistoryActions(
  roles: readonly TRole[],
  row: Pick<TStudyListRow, 'status'>,
): { editHistory: boolean; openReport: boolean; timeline: boolean } {
  return {
    editHistory: hasRole(roles, 'ROLE_BILLER', 'ROLE_TELE_RADIOLOGY'),
    openReport: row.status !== 'DELETED',
    timeline: hasRole(roles, 'ROLE_ASSIGNOR') || isCenterUser(roles),
  };
}

/** The date type of a request: absent is upload time; anything else is the caller's mistake. */
export function summaryDateTypeOf(value: string | null | undefined): TSummaryDateType | null {
  if (value === null || value === undefined || value.trim() === '') return 'UPLOAD_TIME';
  return SUMMARY_DATE_TYPES.find((t) => t === value.trim()) ?? null;
}

/** spec-core §7 POST /report-summary/ (and /total-summary/, /report-summary/csv): the search payload. */
export const ZSummaryRequest = ZSearchTableRequest.meta({ id: 'SummaryRequest' });
export type TSummaryRequest = z.infer<typeof ZSummaryRequest>;

/**
 * POST /total-summary/: the totals of the same filter, by the simple status the summary shows
 * (spec-core §2: SIGNED_OFF and DELETED as they are, every other status PENDING).
 */
export const ZSummaryTotals = z
  .object({
    total: z.number().int(),
    signedOff: z.number().int(),
    pending: z.number().int(),
    deleted: z.number().int(),
  })
  .meta({ id: 'SummaryTotals' });
export type TSummaryTotals = z.infer<typeof ZSummaryTotals>;

/** The fields of a row the summary's columns read. */
export type TSummaryTextRow = Pick<
  TStudyListRow,
  | 'id'
  | 'patientName'
  | 'patientId'
  | 'invoiceNumber'
  | 'accessionNumber'
  | 'studyName'
  | 'history'
  | 'status'
  | 'shareLink'
  | 'backedUpAt'
  | 'radiologyCenter'
  | 'assignedTo'
  | 'assignedToName'
  | 'referringPhysicianName'
  | 'studyDateTime'
  | 'lastUploadCompletedAt'
  | 'signedOffAt'
  | 'hasReports'
>;

/** The path of a row's share page (its link opens it; the Excel file writes it with the origin). */
export const sharePathOf = (shareLink: string) => `/share?link=${encodeURIComponent(shareLink)}`;

/**
 * The text of a summary column for a row: what the screen's cell reads and what the Excel file
 * holds ('' where the screen shows a dash). Times are the group's display zone, without the zone
 * label (the page names it once). The share column's text is the page's path; the screen draws it
 * as an 'Open' link, the file as the whole address.
 */
export function summaryCellText(column: TStudyColumnId, row: TSummaryTextRow, timeZone: string): string {
  const time = (v: string | null) => formatDisplayTime(v, timeZone, { label: false });
  switch (column) {
    case 'id':
      return String(row.id);
    case 'patient':
      return formatPersonName(row.patientName);
    case 'patientId':
      return row.patientId;
    case 'invoiceNumber':
      return row.invoiceNumber || row.accessionNumber;
    case 'studyName':
      return formatDicomText(row.studyName);
    case 'history':
      return row.history;
    case 'reportStatus':
      return displayStatus(row);
    case 'center':
      return row.radiologyCenter;
    case 'assigned':
      return row.assignedToName ?? row.assignedTo ?? '';
    case 'referral':
      return formatPersonName(row.referringPhysicianName);
    case 'share':
      return row.shareLink ? sharePathOf(row.shareLink) : '';
    case 'studyDate':
      return row.studyDateTime ?? '';
    case 'uploadedDate':
      return time(row.lastUploadCompletedAt);
    case 'signedOffDate':
      return time(row.signedOffAt);
    case 'report':
      return row.hasReports ? 'Available' : '';
    default:
      return '';
  }
}
