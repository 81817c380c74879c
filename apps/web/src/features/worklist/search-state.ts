import { STUDY_LIST_SORT_FIELDS, type TSearchTableRequest, initialSearchRequest } from '@radflow/core';
import { readJsonMap, writeJsonMap } from './browser-storage';

/**
 * The last search of each study table (spec-core §2 "The last search request is kept per table key
 * locally"; §3 local flags "a table-filter map keyed by table key"): one localStorage entry holding a
 * map from table key to the table's last search-table request.
 */
export const TABLE_FILTER_STORAGE_KEY = 'radflow.tableFilters';

const SORTABLE = new Set<string>(STUDY_LIST_SORT_FIELDS);

/**
 * The search a table opens with: the kept one (core initialSearchRequest: valid, page size 20 or 50,
 * a numeric `?id=` replaces the id filter), with a sort column the list calls no longer know reset to
 * the default (the server answers 400 to an unknown orderingCriteria) and filters of blank text
 * dropped.
 */
export function loadSearch(
  storage: Storage | undefined,
  storageKey: string,
  query: string | URLSearchParams | null,
): TSearchTableRequest {
  const kept = readJsonMap(storage, TABLE_FILTER_STORAGE_KEY)[storageKey];
  const request = initialSearchRequest({ kept, query });
  if (!SORTABLE.has(request.orderingCriteria)) {
    request.orderingCriteria = 'id';
    request.sortOrder = 'DESC';
  }
  request.filters = cleanFilters(request.filters);
  return setDates(request, request.startTime, request.endTime);
}

/** spec-core §9 date format: the only form the date inputs write and the list calls read as a whole day. */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A kept date bound as the list calls take it: 'yyyy-MM-dd', else none (an unreadable bound would
 * make every refresh answer 400).
 */
export function cleanDate(value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  return DATE_ONLY.test(text) ? text : null;
}

/**
 * The search with a new date range (spec-core §3 startTime/endTime), back on page 0. The server reads
 * a yyyy-MM-dd end as inclusive (apps/server/src/modules/worklist/DECISIONS.md), so the range is the
 * days the user picked.
 */
export function withDateRange(
  request: TSearchTableRequest,
  range: { startTime?: string | null; endTime?: string | null },
): TSearchTableRequest {
  return setDates(
    { ...request, page: 0 },
    range.startTime === undefined ? request.startTime : range.startTime,
    range.endTime === undefined ? request.endTime : range.endTime,
  );
}

/** Sets both bounds in place; a bound that is not a date is left out of the request. */
function setDates(
  request: TSearchTableRequest,
  startTime: string | null | undefined,
  endTime: string | null | undefined,
): TSearchTableRequest {
  delete request.startTime;
  delete request.endTime;
  const start = cleanDate(startTime);
  const end = cleanDate(endTime);
  if (start) request.startTime = start;
  if (end) request.endTime = end;
  return request;
}

/** Whether a search narrows by a date. */
export function hasDateRange(request: Pick<TSearchTableRequest, 'startTime' | 'endTime'>): boolean {
  return Boolean(request.startTime || request.endTime);
}

/** Keeps a table's search, leaving the other tables' entries as they are. */
export function keepSearch(
  storage: Storage | undefined,
  storageKey: string,
  request: TSearchTableRequest,
): void {
  const all = readJsonMap(storage, TABLE_FILTER_STORAGE_KEY);
  writeJsonMap(storage, TABLE_FILTER_STORAGE_KEY, {
    ...all,
    [storageKey]: { ...request, filters: cleanFilters(request.filters) },
  });
}

/** Filters with text only (trimmed); an emptied box is no filter. */
export function cleanFilters(filters: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(filters)
      .map(([k, v]) => [k, v.trim()] as const)
      .filter(([, v]) => v !== ''),
  );
}

/** The next search after a header click: a new column sorts descending, the same column flips. */
export function toggleSort(request: TSearchTableRequest, sortKey: string): TSearchTableRequest {
  const sortOrder =
    request.orderingCriteria === sortKey ? (request.sortOrder === 'DESC' ? 'ASC' : 'DESC') : 'DESC';
  return { ...request, orderingCriteria: sortKey, sortOrder, page: 0 };
}
