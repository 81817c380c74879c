import type { TGroupFlags } from '../settings/preferences.js';
import { CENTER_ROLES, type TRole } from '../identity/roles.js';
import type { TReportStatus } from './statuses.js';

/**
 * The facts of one study row that the worklist rules read (a subset of spec-core §3 "Study /
 * report-status row", with the spec's field names). The server builds it from its row, the browser
 * from the list call's answer; each rule takes only the fields it reads (see TRuleInput).
 */
export interface TStudyRowFacts {
  status: TReportStatus;
  urgent: boolean;
  /**
   * The center the study belongs to (report_statuses.center_id); null when the caller does not
   * know it, which no center role may act on (see actingRoles).
   */
  centerId: number | null;
  /** spec-core §2 "parent id": set on a study created by splitting another. */
  splitFromReportStatusId: number | null;
  /**
   * The study has been split already (it is the parent of a split). The row of spec-core §3 does
   * not carry it, so the caller says so; false when unknown.
   */
  hasSplitChild: boolean;
  /** spec-core §3 `reports` is not empty. */
  hasReports: boolean;
  /** E-mail of the assigned doctor, or null. */
  assignedTo: string | null;
  shareLink: string | null;
  backedUpAt: Date | string | null;
  dunningLabels: readonly string[] | null;
  createdAt: Date | string;
  firstUploadCompletedAt: Date | string | null;
}

/**
 * What a rule gets: the user's roles, the group's switches and the row's facts, each narrowed to
 * what the rule reads so that a caller never has to invent the rest. A full TGroupFlags and a full
 * TStudyRowFacts always fit.
 */
export interface TRuleInput<R extends keyof TStudyRowFacts = never, F extends keyof TGroupFlags = never> {
  roles: readonly TRole[];
  flags: Pick<TGroupFlags, F>;
  row: Pick<TStudyRowFacts, R>;
}

/**
 * The input of a rule that reads only some of roles, flags and row (K); the rest may still be passed,
 * so every rule can be called with the same `{ roles, flags, row }`.
 */
export type TPartialRuleInput<
  K extends keyof TRuleInput,
  R extends keyof TStudyRowFacts = never,
  F extends keyof TGroupFlags = never,
> = Pick<TRuleInput<R, F>, K> & Partial<TRuleInput>;

/**
 * The acting user's own center (users.center_id), null for a user of no center. The rules that a
 * center user may take only on their own center's studies read it (see actingRoles).
 */
export interface TActorCenter {
  userCenterId: number | null;
}

/**
 * The roles a user acts with on one row (issue 4 §2/§6 "CENTER_SHARE_ALL and CENTER_BACKUP as their
 * names say"): the center roles count only on a study of the user's own center — ROLE_CENTER_SHARE_ALL
 * sees every center of the group (studies/access.ts), but the other centers' studies are read-only for
 * it — and ROLE_CENTER_BACKUP never acts (a backup account keeps copies; it views and downloads).
 * Group roles are untouched, so a user who is also group staff keeps the staff permissions everywhere.
 */
export function actingRoles({
  roles,
  userCenterId,
  row,
}: TActorCenter & { roles: readonly TRole[]; row: Pick<TStudyRowFacts, 'centerId'> }): readonly TRole[] {
  const isOwnCenter = userCenterId !== null && row.centerId === userCenterId;
  return roles.filter((r) => r !== 'ROLE_CENTER_BACKUP' && (isOwnCenter || !CENTER_ROLES.includes(r)));
}
