import { defaultPreferences, groupFlags, type TGroupFlags } from '../preferences.js';
import type { TStudyRowFacts } from './study-row.js';

/** Test builders (not exported from the package index): defaults that tests override per case. */
export function createTestFlags(over: Partial<TGroupFlags> = {}): TGroupFlags {
  return { ...groupFlags(defaultPreferences()), ...over };
}

export function createTestRow(over: Partial<TStudyRowFacts> = {}): TStudyRowFacts {
  return {
    status: 'CREATED',
    urgent: false,
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
