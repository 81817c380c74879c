import { hasRole } from '../identity/roles.js';
import type { TRuleInput, TStudyRowFacts } from './study-row.js';

const MINUTE_MS = 60_000;

/**
 * spec-core §4 Time exceeded: a row is time-exceeded when it is unsigned, signOffTimeLimit is set,
 * showRedAfterTAT is on, the user is an assignor or verifier, and the minutes since first upload (or
 * creation, when the first upload has not completed) exceed the limit — strictly: at exactly the
 * limit it is not yet exceeded. Decision: "unsigned" leaves DELETED studies out too; a deleted study
 * has no turnaround to miss.
 */
export function isTimeExceeded({
  roles,
  flags,
  row,
  now,
}: TRuleInput<'status' | 'createdAt' | 'firstUploadCompletedAt', 'signOffTimeLimit' | 'showRedAfterTAT'> & {
  now: Date;
}): boolean {
  if (row.status === 'SIGNED_OFF' || row.status === 'DELETED') return false;
  const limit = flags.signOffTimeLimit;
  if (!limit || !flags.showRedAfterTAT) return false;
  if (!hasRole(roles, 'ROLE_ASSIGNOR', 'ROLE_VERIFIER')) return false;
  const deadline = signOffDeadline(row, limit);
  return deadline !== null && isPastSignOffDeadline(deadline, now);
}

/**
 * When a study's sign-off clock starts (spec-core §4): its first completed upload, else its creation.
 * Null for a date that does not parse (a row the caller built badly has no turnaround).
 */
export function signOffClockStart(
  row: Pick<TStudyRowFacts, 'createdAt' | 'firstUploadCompletedAt'>,
): Date | null {
  const since = new Date(row.firstUploadCompletedAt ?? row.createdAt);
  return Number.isNaN(since.getTime()) ? null : since;
}

/** The instant by which the study should be signed off: the clock start plus `limitMinutes`. */
export function signOffDeadline(
  row: Pick<TStudyRowFacts, 'createdAt' | 'firstUploadCompletedAt'>,
  limitMinutes: number,
): Date | null {
  const since = signOffClockStart(row);
  return since === null ? null : new Date(since.getTime() + limitMinutes * MINUTE_MS);
}

/** Past the deadline: strictly, so at exactly the limit a study is not yet exceeded (spec-core §4). */
export function isPastSignOffDeadline(deadline: Date, now: Date): boolean {
  return now.getTime() > deadline.getTime();
}
