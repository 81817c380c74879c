import type { QueryClient } from '@tanstack/react-query';
import { type TBeatResponse, type TOnlineStatus, sortOnlineFirst } from '@radflow/core';

/**
 * The online list's query (features/presence/presence-api.ts PRESENCE_BEAT_KEY, written here so the
 * live layer depends on no feature; live-invalidation.test.ts holds the two equal): the tab's last
 * beat, whose `onlineStatuses` the list and its dots show.
 */
export const PRESENCE_BEAT_QUERY_KEY = ['presence', 'beat'] as const;

/**
 * A doctor's dot from the stream (issue 23 §3, server live README "Presence") put into the tab's
 * online list: their row replaced (or added: a doctor made since the last beat), ONLINE first as the
 * beat orders it (core sortOnlineFirst). Before the tab's first beat there is no list: nothing to
 * change, the beat brings the whole of it.
 */
export function applyPresenceDot(queryClient: QueryClient, dot: TOnlineStatus): void {
  queryClient.setQueryData<TBeatResponse>(PRESENCE_BEAT_QUERY_KEY, (beat) => {
    if (!beat) return beat;
    const others = beat.onlineStatuses.filter((d) => d.email !== dot.email);
    return { ...beat, onlineStatuses: sortOnlineFirst([...others, dot]) };
  });
}
