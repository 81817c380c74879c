import { describe, expect, it } from 'vitest';
import { ROLES, type TRole } from '../identity/roles.js';
import { canManagePayouts, canReadOwnPayouts, canReadPayouts, payoutCounts } from './rules.js';

describe('who uses payouts (issue 26 §2)', () => {
  const manage: TRole[] = ['ROLE_TELE_RADIOLOGY', 'ROLE_BILLER', 'ROLE_GROUP'];
  it.each(ROLES.map((r) => [r] as const))('%s', (role) => {
    expect(canManagePayouts([role])).toBe(manage.includes(role));
    expect(canReadOwnPayouts([role])).toBe(role === 'ROLE_DOCTOR');
    expect(canReadPayouts([role])).toBe(manage.includes(role) || role === 'ROLE_DOCTOR');
  });
});

describe('payoutCounts', () => {
  const line = (charge: string, reportStatusId: number, reportId: number | null = null) => ({
    charge,
    reportStatusId,
    reportId,
  });
  it.each([
    ['nothing', [], { reads: 0, addenda: 0, urgent: 0 }],
    [
      'a read of two parts is one read',
      [line('READ', 1), line('READ', 1)],
      { reads: 1, addenda: 0, urgent: 0 },
    ],
    [
      'reads of two rows, an urgent one, two addenda of one row',
      [line('READ', 1), line('READ', 2), line('URGENT', 2), line('ADDENDUM', 2, 8), line('ADDENDUM', 2, 9)],
      { reads: 2, addenda: 2, urgent: 1 },
    ],
    [
      'an addendum alone (its read on an earlier statement)',
      [line('ADDENDUM', 3, 4)],
      { reads: 0, addenda: 1, urgent: 0 },
    ],
  ])('%s', (_, lines, counts) => {
    expect(payoutCounts(lines)).toEqual(counts);
  });
});
