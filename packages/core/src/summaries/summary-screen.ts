import { z } from 'zod';
import { ZPageResponse, ZSearchTableRequest } from '../common/schemas.js';
import { formatDicomText, formatPersonName } from '../display/person-name.js';
import { formatDisplayTime } from '../display/display-time.js';
import { type TRole, hasRole, isCenterUser } from '../identity/roles.js';
import type { TGroupFlags } from '../settings/preferences.js';
import type { TStudyColumnId } from '../worklist/columns.js';
import { type TStudyListRow, ZStudyListRow } from '../worklist/schemas.js';
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

/*
 * The Advanced Search Report Summary (spec-core §2, §7 POST /query/report-summary): the summary's
 * page of rows plus aggregates by center and for the group, over the custom range and the last 1, 7
 * and 30 days.
 */

/** The roles whose menu holds 'Advanced Search Report Summary' (spec-core §2: CENTER, DOCTOR). */
export const ADVANCED_SUMMARY_ROLES: readonly TRole[] = ['ROLE_CENTER', 'ROLE_DOCTOR'];

export function hasAdvancedSummaryScreen(roles: readonly TRole[]): boolean {
  return roles.some((r) => ADVANCED_SUMMARY_ROLES.includes(r));
}

/** Off unless enableElasticReportSummary; then the summary page's own switches (summaryPageRefusal). */
export function advancedSummaryRefusal(
  roles: readonly TRole[],
  flags: Pick<TGroupFlags, 'hideSummaryPage' | 'teleMedSpecificCustomization' | 'enableElasticReportSummary'>,
): string | null {
  if (!flags.enableElasticReportSummary) return SUMMARY_MESSAGES.notAllowed;
  return summaryPageRefusal(roles, flags);
}

export const SUMMARY_WINDOW_KEYS = ['CUSTOM', 'LAST_1_DAYS', 'LAST_7_DAYS', 'LAST_30_DAYS'] as const;
export type TSummaryWindowKey = (typeof SUMMARY_WINDOW_KEYS)[number];
export const SUMMARY_WINDOW_LABELS: Readonly<Record<TSummaryWindowKey, string>> = {
  CUSTOM: 'Selected range',
  LAST_1_DAYS: 'Today',
  LAST_7_DAYS: 'Last 7 days',
  LAST_30_DAYS: 'Last 30 days',
};

/**
 * The days of a rolling window: the last `days` calendar days ending today in the zone, today
 * included (the last 1 day is today), so a window's numbers match a summary of the same days.
 */
export function rollingWindowDays(today: string, days: number): { startTime: string; endTime: string } {
  const start = new Date(Date.parse(`${today}T00:00:00Z`) - (days - 1) * 24 * 60 * 60 * 1000);
  return { startTime: start.toISOString().slice(0, 10), endTime: today };
}

/** One aggregate (spec-core §7): cases, completed (signed off), signed off in time, unique patients. */
export const ZSummaryAggregate = z.object({
  totalCases: z.number().int(),
  completedCases: z.number().int(),
  /** Signed off within TIMELY_SIGN_OFF_MINUTES (1440) of the upload. */
  signedOffWithinLimit: z.number().int(),
  uniquePatients: z.number().int(),
});
export type TSummaryAggregate = z.infer<typeof ZSummaryAggregate>;

export const ZCenterAggregate = ZSummaryAggregate.extend({
  centerEmail: z.string(),
  centerName: z.string(),
});
export type TCenterAggregate = z.infer<typeof ZCenterAggregate>;

export const ZSummaryWindow = z.object({
  key: z.enum(SUMMARY_WINDOW_KEYS),
  startTime: z.string(),
  endTime: z.string(),
  group: ZSummaryAggregate,
  /** By center e-mail, most cases first, at most SUMMARY_AGGREGATION_BUCKET_SIZE (1000). */
  centers: z.array(ZCenterAggregate),
});
export type TSummaryWindow = z.infer<typeof ZSummaryWindow>;

/** POST /query/report-summary: the page response of the custom range, and the aggregates. */
export const ZAdvancedSummaryPage = ZPageResponse(ZStudyListRow)
  .extend({ aggregations: z.array(ZSummaryWindow) })
  .meta({ id: 'AdvancedSummaryPage' });
export type TAdvancedSummaryPage = z.infer<typeof ZAdvancedSummaryPage>;
