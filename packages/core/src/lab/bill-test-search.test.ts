import { describe, expect, it } from 'vitest';
import { REPORT_STATUSES } from '../worklist/statuses.js';
import {
  REPORT_STATUSES_OF_LAB_STATUS,
  billStatusesOfFilter,
  labReportStatusOf,
} from './bill-test-search.js';
import { LAB_REPORT_STATUSES } from './entities.js';

describe('labReportStatusOf', () => {
  it.each([
    [null, 'PENDING'],
    ['DELETED', 'PENDING'],
    ['CREATED', 'CREATED'],
    ['HISTORY_CREATED', 'CREATED'],
    ['LOCKED', 'CREATED'],
    ['REPORTED', 'REPORTED'],
    ['DRAFTED', 'DRAFTED'],
    ['SIGNED_OFF', 'SIGNED_OFF'],
  ] as const)('%s → %s', (status, lab) => expect(labReportStatusOf(status)).toBe(lab));

  it('the filter map is its inverse: every report status under exactly the lab status it maps to', () => {
    for (const status of REPORT_STATUSES) {
      const under = LAB_REPORT_STATUSES.filter((lab) => REPORT_STATUSES_OF_LAB_STATUS[lab].includes(status));
      expect(under).toEqual([labReportStatusOf(status)]);
    }
  });
});

describe('billStatusesOfFilter', () => {
  it('Active, Scheduled and All tabs (spec-lab §2)', () => {
    expect(billStatusesOfFilter({})).toEqual(['SCHEDULED', 'OPEN', 'COMPLETED']);
    expect(billStatusesOfFilter({ scheduled: true })).toEqual(['SCHEDULED']);
    expect(billStatusesOfFilter({ cancelled: true })).toEqual([
      'SCHEDULED',
      'OPEN',
      'CANCELLED',
      'COMPLETED',
    ]);
  });
});
