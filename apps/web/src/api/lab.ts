import { ZAllSlots, ZLabPreferences, type TAllSlots, type TLabPreferences } from '@radflow/core';
import { apiRequest } from './client';

/**
 * The lab calls several lab screens share (spec-lab §7): one fetcher and one query key each, so the
 * registration page, the bill screen and the doctor dialog read one cached answer. Only lazy lab
 * chunks import this file; nothing here loads with the entry.
 */

export const LAB_PREFERENCES_QUERY_KEY = ['lab', 'preferences'] as const;

/** GET /api/lab/get-preferences: slots, categories, test attributes, departments of the caller's lab. */
export function fetchLabPreferences(signal?: AbortSignal): Promise<TLabPreferences> {
  return apiRequest('/api/lab/get-preferences', { schema: ZLabPreferences, signal });
}

/** POST /api/lab/get-all-slot: the lab's slots and the blocked days of a range. */
export function fetchAllSlots(
  range: { startTime: string; endTime: string },
  signal?: AbortSignal,
): Promise<TAllSlots> {
  return apiRequest('/api/lab/get-all-slot', { json: range, schema: ZAllSlots, signal });
}
