import { defaultPreferences, groupFlags, type TGroupFlags } from '../settings/preferences.js';
import type { TStudyRowFacts } from './study-row.js';

/** Test builders (not exported from the package index): defaults that tests override per case. */

/** The center createTestRow's study belongs to; pass it as `userCenterId` for a user of that center. */
export const TEST_CENTER_ID = 7;
export function createTestFlags(over: Partial<TGroupFlags> = {}): TGroupFlags {
  return { ...groupFlags(defaultPreferences()), ...over };
}

export function createTestRow(over: Partial<TStudyRowFacts> = {}): TStudyRowFacts {
  return {
    status: 'CREATED',
    urgent: false,
    centerId: TEST_CENTER_ID,
    splitFromReportStatusId: null,
    hasSplitChild: false,
    hasReports: false,
    assignedTo: null,
    shareLink: null,
    backedUpAt: null,
    dunningLabels: null,
    createdAt: '2026-06-01T08:00:00Z',
    firstUploadCompletedAt: null,
    ...over,
  };
}
