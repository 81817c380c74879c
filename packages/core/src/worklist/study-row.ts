import type { TGroupFlags } from '../preferences.js';
import type { TRole } from '../roles.js';
import type { TReportStatus } from './statuses.js';

/**
 * The facts of one study row that the worklist rules read (a subset of spec-core §3 "Study /
 * report-status row", with the spec's field names). The server builds it from its row, the browser
 * from the list call's answer; each rule takes only the fields it reads (see TRuleInput).
 */
export interface TStudyRowFacts {
  status: TReportStatus;
  urgent: boolean;
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
