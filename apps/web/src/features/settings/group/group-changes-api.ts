import { ZGroupChangesPage, type TGroupChangesPage } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/client';

export const RECENT_CHANGES_SIZE = 20;
export const GROUP_CHANGES_QUERY_KEY = ['settings', 'group-changes'] as const;

/** GET /api/setting/group-changes (contract): the group's latest setting changes, newest first. */
export function fetchGroupChanges(signal?: AbortSignal): Promise<TGroupChangesPage> {
  return apiRequest(`/api/setting/group-changes?page=0&size=${RECENT_CHANGES_SIZE}`, {
    signal,
    // The panel shows its own line for a failure; it must not sign anyone out.
    quiet: true,
    schema: ZGroupChangesPage,
  });
}

/** The newest group setting changes; each save of the panel invalidates it. */
export function useGroupChanges() {
  return useQuery({
    queryKey: GROUP_CHANGES_QUERY_KEY,
    queryFn: ({ signal }) => fetchGroupChanges(signal),
    staleTime: 0,
  });
}
