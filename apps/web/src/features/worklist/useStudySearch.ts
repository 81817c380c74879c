import {
  AUTO_REFRESH_MS,
  FILTER_DEBOUNCE_MS,
  type TSearchTableRequest,
  type TTabFilter,
} from '@radflow/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { localStore } from './browser-storage';
import {
  cleanFilters,
  hasDateRange,
  keepSearch,
  loadSearch,
  toggleSort,
  withDateRange,
} from './search-state';
import { type TListCallPath, fetchStudyList, studyListKey } from './study-list-api';

const sameFilters = (a: Record<string, string>, b: Record<string, string>) => {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
};

export interface TStudySearchOptions {
  /** Where the last search is kept (the table key, spec-core §2). */
  storageKey: string;
  path: TListCallPath;
  filter: TTabFilter;
  contextDoctor?: string | null;
  /** False while the list cannot be asked yet (a typist without a chosen doctor). */
  enabled?: boolean;
  /** The user's auto refresh toggle (UI_PREFERENCES.autoRefresh): off, no 25 s refetch. */
  autoRefresh?: boolean;
}

/**
 * The search of one study table (spec-core §2, §9): starts from the kept search (and a numeric
 * `?id=`), keeps every change (the date range too), sends filter text 800 ms after the last
 * keystroke, refreshes every 25 s (unless the user turned auto refresh off) while the browser tab is
 * visible (TanStack Query pauses interval refetches of a hidden tab) and keeps showing the previous
 * page while the next one loads, so nothing flickers.
 */
export function useStudySearch({
  storageKey,
  path,
  filter,
  contextDoctor = null,
  enabled = true,
  autoRefresh = true,
}: TStudySearchOptions) {
  const [search, setSearch] = useState<TSearchTableRequest>(() =>
    loadSearch(localStore(), storageKey, typeof window === 'undefined' ? null : window.location.search),
  );
  const [filterDraft, setFilterDraft] = useState<Record<string, string>>(() => search.filters);
  const settledDraft = useDebouncedValue(filterDraft, FILTER_DEBOUNCE_MS);

  useEffect(() => keepSearch(localStore(), storageKey, search), [storageKey, search]);

  // Only a draft that has stopped changing is sent; a clear-all sets both at once, so the stale
  // debounced value that follows it is ignored.
  useEffect(() => {
    if (!sameFilters(settledDraft, filterDraft)) return;
    const next = cleanFilters(settledDraft);
    setSearch((s) => (sameFilters(next, s.filters) ? s : { ...s, filters: next, page: 0 }));
  }, [settledDraft, filterDraft]);

  const call = { path, search, filter, contextDoctor };
  const query = useQuery({
    queryKey: studyListKey(call),
    queryFn: ({ signal }) => fetchStudyList(call, signal),
    placeholderData: keepPreviousData,
    refetchInterval: autoRefresh ? AUTO_REFRESH_MS : false,
    enabled,
  });

  const setFilter = useCallback((key: string, value: string) => {
    setFilterDraft((d) => ({ ...d, [key]: value }));
  }, []);
  /** A date bound as the date input gives it ('yyyy-MM-dd', or '' when emptied). */
  const setDateRange = useCallback((range: { startTime?: string; endTime?: string }) => {
    setSearch((s) => withDateRange(s, range));
  }, []);
  const clearFilters = useCallback(() => {
    setFilterDraft({});
    setSearch((s) => withDateRange({ ...s, filters: {} }, { startTime: null, endTime: null }));
  }, []);
  const sortBy = useCallback((sortKey: string) => setSearch((s) => toggleSort(s, sortKey)), []);
  const setPage = useCallback((page: number) => setSearch((s) => ({ ...s, page })), []);
  const setSize = useCallback((size: number) => setSearch((s) => ({ ...s, size, page: 0 })), []);
  /** Back to the first page (a new tab). */
  const resetPage = useCallback(() => setSearch((s) => (s.page === 0 ? s : { ...s, page: 0 })), []);

  const hasFilters = Object.values(filterDraft).some((v) => v.trim() !== '') || hasDateRange(search);
  return {
    search,
    filterDraft,
    hasFilters,
    query,
    setFilter,
    setDateRange,
    clearFilters,
    sortBy,
    setPage,
    setSize,
    resetPage,
  };
}
