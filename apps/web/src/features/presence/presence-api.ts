import { ZBeatResponse, type TPresenceStatus } from '@radflow/core';
import { apiRequest } from '../../api/client';

/**
 * The tab's beat's answer in the query cache (issue 23 §3): the new chat messages for the user and
 * the online dots. One beat per tab (PresenceHost); others read it here (the online list; the
 * notifications may read `notificationMessages`) and ask for a beat now with
 * `queryClient.refetchQueries({ queryKey: PRESENCE_BEAT_KEY })`.
 */
export const PRESENCE_BEAT_KEY = ['presence', 'beat'] as const;

/** The spec's fetchFrom: 'yyyy-MM-dd HH:mm:ss', read by the server as UTC. */
export function fetchFromText(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', ' ');
}

/** POST /chat-thread/beat. Quiet: a failing beat is the connection dropping, told once by the host. */
export function postBeat(status: TPresenceStatus, fetchFrom: Date, signal?: AbortSignal) {
  return apiRequest('/api/chat-thread/beat', {
    json: { status, fetchFrom: fetchFromText(fetchFrom) },
    schema: ZBeatResponse,
    signal,
    quiet: true,
  });
}
