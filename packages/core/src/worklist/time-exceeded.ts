import { hasRole } from '../identity/roles.js';
import type { TRuleInput } from './study-row.js';

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
  const since = new Date(row.firstUploadCompletedAt ?? row.createdAt).getTime();
  if (Number.isNaN(since)) return false;
  return (now.getTime() - since) / MINUTE_MS > limit;
}
