/**
 * Study statuses and the ways the study table shows them (spec-core §4 "Study statuses", §2 "Study
 * table columns": the simple status column).
 */

/** spec-core §4: the study (report-status row) statuses. The complete transition set is not in the spec. */
export const REPORT_STATUSES = [
  'CREATED',
  'HISTORY_CREATED',
  'LOCKED',
  'REPORTED',
  'DRAFTED',
  'SIGNED_OFF',
  'DELETED',
] as const;
export type TReportStatus = (typeof REPORT_STATUSES)[number];

export function isReportStatus(value: string): value is TReportStatus {
  return (REPORT_STATUSES as readonly string[]).includes(value);
}

/**
 * The statuses of a study that still needs work: neither signed off nor deleted.
 * Decision (the spec names no such set): the admin list's Pending, Unassigned, Assigned, Urgent and
 * My Pending tabs use it, so that with admin Signed Off = SIGNED_OFF (spec-core §4) every live study
 * is in exactly one of Pending and Signed Off.
 */
export const OPEN_STATUSES = [
  'CREATED',
  'HISTORY_CREATED',
  'LOCKED',
  'REPORTED',
  'DRAFTED',
] as const satisfies readonly TReportStatus[];

/** spec-core §4: how a status is displayed; HISTORY_CREATED shows as SENT, a kept deleted study as BACKED_UP. */
export const DISPLAY_STATUSES = [
  'CREATED',
  'SENT',
  'LOCKED',
  'REPORTED',
  'DRAFTED',
  'SIGNED_OFF',
  'DELETED',
  'BACKED_UP',
] as const;
export type TDisplayStatus = (typeof DISPLAY_STATUSES)[number];

/**
 * spec-core §4 Study statuses: HISTORY_CREATED is displayed as SENT; a DELETED study with a share
 * link or a backup (backedUpAt) is displayed as BACKED_UP. Every other status shows as it is.
 * An empty share link counts as none.
 */
export function displayStatus(row: {
  status: TReportStatus;
  shareLink?: string | null;
  backedUpAt?: Date | string | null;
}): TDisplayStatus {
  switch (row.status) {
    case 'HISTORY_CREATED':
      return 'SENT';
    case 'DELETED':
      return row.shareLink || row.backedUpAt ? 'BACKED_UP' : 'DELETED';
    default:
      return row.status;
  }
}

/** spec-core §2 Study table columns: the values of the simple status column. */
export const SIMPLE_STATUSES = ['PENDING', 'SIGNED_OFF', 'DELETED'] as const;
export type TSimpleStatus = (typeof SIMPLE_STATUSES)[number];

/**
 * spec-core §2 Study table columns: "The simple status column shows SIGNED_OFF and DELETED as they
 * are and every other status as PENDING". It reads the stored status, so a backed-up deleted study
 * is DELETED here.
 */
export function simpleStatus(status: TReportStatus): TSimpleStatus {
  return status === 'SIGNED_OFF' || status === 'DELETED' ? status : 'PENDING';
}
