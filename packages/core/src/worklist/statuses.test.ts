import { describe, expect, it } from 'vitest';
import {
  OPEN_STATUSES,
  REPORT_STATUSES,
  type TReportStatus,
  displayStatus,
  isReportStatus,
  simpleStatus,
} from './statuses.js';

describe('REPORT_STATUSES (spec-core §4 Study statuses)', () => {
  it('holds the seven statuses in the spec order', () => {
    expect(REPORT_STATUSES).toEqual([
      'CREATED',
      'HISTORY_CREATED',
      'LOCKED',
      'REPORTED',
      'DRAFTED',
      'SIGNED_OFF',
      'DELETED',
    ]);
  });

  it('recognises its own values only', () => {
    expect(isReportStatus('LOCKED')).toBe(true);
    expect(isReportStatus('SENT')).toBe(false);
    expect(isReportStatus('signed_off')).toBe(false);
  });

  it('OPEN_STATUSES is every status but SIGNED_OFF and DELETED', () => {
    expect(OPEN_STATUSES).toEqual(REPORT_STATUSES.filter((s) => s !== 'SIGNED_OFF' && s !== 'DELETED'));
  });
});

describe('displayStatus (spec-core §4)', () => {
  it.each([
    ['CREATED', null, null, 'CREATED'],
    ['HISTORY_CREATED', null, null, 'SENT'],
    ['HISTORY_CREATED', 'abc', '2026-01-01', 'SENT'],
    ['LOCKED', null, null, 'LOCKED'],
    ['REPORTED', null, null, 'REPORTED'],
    ['DRAFTED', null, null, 'DRAFTED'],
    ['SIGNED_OFF', 'abc', '2026-01-01', 'SIGNED_OFF'],
    ['DELETED', null, null, 'DELETED'],
    ['DELETED', '', null, 'DELETED'],
    ['DELETED', 'abc', null, 'BACKED_UP'],
    ['DELETED', null, '2026-01-01T00:00:00Z', 'BACKED_UP'],
    ['DELETED', 'abc', new Date('2026-01-01'), 'BACKED_UP'],
  ] as const)('%s with shareLink %s and backedUpAt %s shows %s', (status, shareLink, backedUpAt, shown) => {
    expect(displayStatus({ status, shareLink, backedUpAt })).toBe(shown);
  });
});

describe('simpleStatus (spec-core §2 the simple status column)', () => {
  it.each<[TReportStatus, string]>([
    ['CREATED', 'PENDING'],
    ['HISTORY_CREATED', 'PENDING'],
    ['LOCKED', 'PENDING'],
    ['REPORTED', 'PENDING'],
    ['DRAFTED', 'PENDING'],
    ['SIGNED_OFF', 'SIGNED_OFF'],
    ['DELETED', 'DELETED'],
  ])('%s → %s', (status, simple) => {
    expect(simpleStatus(status)).toBe(simple);
  });
});
