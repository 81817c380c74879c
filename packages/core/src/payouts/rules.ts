import type { TRole } from '../identity/roles.js';
import { hasRole } from '../identity/roles.js';
import { canUseTeleBilling } from '../billing/permissions.js';

/*
 * The radiologist's payout (issue 26 §2): who may see and run it, and what a doctor is paid for.
 * The SQL that finds the charges (apps/server/src/modules/tele-payouts/payout-charges.ts) follows
 * DECISIONS.md there ("What a doctor is paid for").
 */

/** The messages of the payout calls (ours: the spec shows none). */
export const PAYOUT_MESSAGES = {
  badPeriod: 'The period must end on or after its start',
  notADoctor: 'This user is not a doctor of the group',
  statementNotFound: 'Payout statement not found',
  staleStatement: 'This statement was changed elsewhere: reload it and try again',
  overpaid: 'The payment is more than the amount due on this statement',
  rateExists: 'A rate for this doctor, modality, part and charge already starts on that day',
} as const;

/**
 * Who runs the payouts: the roles of Manage Tele Pricing / Manage Tele Invoice (spec-core §2 tele
 * menu). Doctors read their own statements only (canReadOwnPayouts).
 */
export function canManagePayouts(roles: readonly TRole[]): boolean {
  return canUseTeleBilling(roles);
}

/** A doctor reads their own payout statements (read-only). */
export function canReadOwnPayouts(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_DOCTOR');
}

/** Anyone who may call a payout read at all (the rest get 403 before any lookup). */
export function canReadPayouts(roles: readonly TRole[]): boolean {
  return canManagePayouts(roles) || canReadOwnPayouts(roles);
}

/** How many reads, addenda and urgent surcharges a set of lines holds (a read of two parts is one read). */
export function payoutCounts(
  lines: ReadonlyArray<{ charge: string; reportStatusId: number; reportId: number | null }>,
) {
  const reads = new Set<number>();
  let addenda = 0;
  let urgent = 0;
  for (const l of lines) {
    if (l.charge === 'READ') reads.add(l.reportStatusId);
    else if (l.charge === 'ADDENDUM') addenda++;
    else if (l.charge === 'URGENT') urgent++;
  }
  return { reads: reads.size, addenda, urgent };
}
