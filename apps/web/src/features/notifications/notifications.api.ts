import {
  AUTO_REFRESH_MS,
  ZNotificationsPage,
  ZNotificationsSeenResponse,
  hasNotifications,
  type TNotificationPreferencesInput,
  type TNotificationsPage,
  type TRole,
} from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { postSection } from '../settings/settings-api';

/**
 * The bell's calls (server modules/notifications). One query key, ['notifications']: the live
 * stream invalidates it on every study event; until then (and as its fallback) it refetches every
 * AUTO_REFRESH_MS. Quiet: a background poll never shows a snackbar.
 */
export const NOTIFICATIONS_QUERY_KEY = ['notifications'] as const;

export function fetchNotifications(signal?: AbortSignal, before?: number): Promise<TNotificationsPage> {
  const query = before === undefined ? '' : `?before=${before}`;
  return apiRequest(`/api/notifications${query}`, { signal, quiet: true, schema: ZNotificationsPage });
}

/** The bell's page; asked only by a role that has notifications (core hasNotifications). */
export function useNotifications(roles: readonly TRole[]) {
  return useQuery({
    queryKey: NOTIFICATIONS_QUERY_KEY,
    queryFn: ({ signal }) => fetchNotifications(signal),
    enabled: hasNotifications(roles),
    refetchInterval: AUTO_REFRESH_MS,
    refetchIntervalInBackground: true,
    // Not the top bar's loading line: nobody waits for a poll.
    meta: { background: true },
  });
}

/** Marks notifications seen (`ids`) or all of them (null), then reads the bell again. */
export function useMarkSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: readonly number[] | null) =>
      ids === null
        ? apiRequest('/api/notifications/all-seen', { method: 'POST', schema: ZNotificationsSeenResponse })
        : apiRequest('/api/notifications/seen', {
            method: 'POST',
            json: { ids },
            schema: ZNotificationsSeenResponse,
          }),
    // Seen at once on screen; the refetch confirms.
    onMutate: (ids) => {
      queryClient.setQueryData<TNotificationsPage>(NOTIFICATIONS_QUERY_KEY, (page) => {
        if (!page) return page;
        const marks = (id: number) => ids === null || ids.includes(id);
        const newlySeen = page.notifications.filter((n) => !n.seen && marks(n.id)).length;
        return {
          ...page,
          unseen: ids === null ? 0 : Math.max(0, page.unseen - newlySeen),
          notifications: page.notifications.map((n) => (marks(n.id) ? { ...n, seen: true } : n)),
        };
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY }),
  });
}

/** Saves the pop-up choice (the personal section USER_PREFERENCES). */
export function useSaveNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: TNotificationPreferencesInput) =>
      postSection('update', 'USER_PREFERENCES', changes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY }),
  });
}
