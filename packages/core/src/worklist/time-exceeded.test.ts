import { describe, expect, it } from 'vitest';
import type { TRole } from '../identity/roles.js';
import { REPORT_STATUSES } from './statuses.js';
import { isTimeExceeded } from './time-exceeded.js';

const now = new Date('2026-06-01T10:00:00Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString();
const flags = { signOffTimeLimit: 60 as number | null, showRedAfterTAT: true };
const row = (over: object = {}) => ({
  status: 'HISTORY_CREATED' as const,
  createdAt: minutesAgo(500),
  firstUploadCompletedAt: minutesAgo(61) as string | null,
  ...over,
});

/** spec-core §4 Time exceeded, each condition on its own with the others holding. */
describe('isTimeExceeded (spec-core §4)', () => {
  it('is exceeded when every condition holds', () => {
    expect(isTimeExceeded({ roles: ['ROLE_ASSIGNOR'], flags, row: row(), now })).toBe(true);
  });

  it.each(REPORT_STATUSES.map((s) => [s, s !== 'SIGNED_OFF' && s !== 'DELETED'] as const))(
    'unsigned: status %s → %s',
    (status, exceeded) => {
      expect(isTimeExceeded({ roles: ['ROLE_ASSIGNOR'], flags, row: row({ status }), now })).toBe(exceeded);
    },
  );

  it.each([
    [null, false],
    [60, true],
    [120, false],
  ] as const)('signOffTimeLimit %s → %s', (limit, exceeded) => {
    expect(
      isTimeExceeded({
        roles: ['ROLE_ASSIGNOR'],
        flags: { ...flags, signOffTimeLimit: limit },
        row: row(),
        now,
      }),
    ).toBe(exceeded);
  });

  it.each([
    [true, true],
    [false, false],
  ])('showRedAfterTAT %s → %s', (showRedAfterTAT, exceeded) => {
    expect(
      isTimeExceeded({ roles: ['ROLE_ASSIGNOR'], flags: { ...flags, showRedAfterTAT }, row: row(), now }),
    ).toBe(exceeded);
  });

  it.each<[TRole[], boolean]>([
    [['ROLE_ASSIGNOR'], true],
    [['ROLE_VERIFIER'], true],
    [['ROLE_BILLER'], false],
    [['ROLE_ADMIN'], false],
    [['ROLE_DOCTOR'], false],
    [['ROLE_CENTER'], false],
  ])('user %j → %s', (roles, exceeded) => {
    expect(isTimeExceeded({ roles, flags, row: row(), now })).toBe(exceeded);
  });

  it.each([
    [59, false],
    [60, false],
    [60.5, true],
    [61, true],
  ])('%s minutes since first upload against 60 → %s (strictly more)', (minutes, exceeded) => {
    expect(
      isTimeExceeded({
        roles: ['ROLE_ASSIGNOR'],
        flags,
        row: row({ firstUploadCompletedAt: minutesAgo(minutes) }),
        now,
      }),
    ).toBe(exceeded);
  });

  it('counts from the first upload, not from creation, when the upload completed', () => {
    const r = row({ createdAt: minutesAgo(500), firstUploadCompletedAt: minutesAgo(30) });
    expect(isTimeExceeded({ roles: ['ROLE_ASSIGNOR'], flags, row: r, now })).toBe(false);
  });

  it.each([
    [61, true],
    [30, false],
  ])('counts from creation (%s minutes ago) when no upload completed → %s', (minutes, exceeded) => {
    const r = row({ createdAt: new Date(now.getTime() - minutes * 60_000), firstUploadCompletedAt: null });
    expect(isTimeExceeded({ roles: ['ROLE_ASSIGNOR'], flags, row: r, now })).toBe(exceeded);
  });

  it('is not exceeded for an unreadable date', () => {
    expect(
      isTimeExceeded({
        roles: ['ROLE_ASSIGNOR'],
        flags,
        row: row({ firstUploadCompletedAt: 'not a date' }),
        now,
      }),
    ).toBe(false);
  });
});
