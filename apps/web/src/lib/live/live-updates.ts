import { type TChatMessage, type TChatThread, withChatMessage } from '@radflow/core';
import type { QueryClient } from '@tanstack/react-query';
import { type TLiveEvent, type TLiveMessage, type TLiveStatus, LiveConnection } from './live-connection';
import { invalidateForLive } from './live-invalidation';
import { applyPresenceDot } from './presence-dots';

/**
 * Events arriving within this long of a flush are one invalidation (a burst refetches once more,
 * not once per event); the first event after a quiet spell goes at once: a chat message waiting
 * out a batch window was a fifth of its delivery time (bench/chat-delivery.ts).
 */
const BATCH_MS = 50;

type TListener<T> = (value: T) => void;
const eventListeners = new Set<TListener<TLiveEvent>>();
const statusListeners = new Set<TListener<TLiveStatus>>();
let status: TLiveStatus = 'closed';

/**
 * Calls `listener` with each study event the tab's stream brings (after the queries it changes were
 * marked stale); returns the unsubscribe. For features that react beyond a refetch (a pop-up).
 */
export function onLiveEvent(listener: (event: TLiveEvent) => void): () => void {
  eventListeners.add(listener);
  return () => eventListeners.delete(listener);
}

/** The stream's status now, and a subscription to its changes (useLiveStatus). */
export function liveStatus(): TLiveStatus {
  return status;
}
export function onLiveStatus(listener: (status: TLiveStatus) => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

function setStatus(next: TLiveStatus) {
  if (next === status) return;
  status = next;
  for (const listener of statusListeners) listener(next);
}

let users = 0;
let connection: LiveConnection | null = null;
let pending: TLiveMessage[] = [];
let flushTimer: ReturnType<typeof setTimeout> | null = null;
let lastFlushAt = Number.NEGATIVE_INFINITY;

/**
 * The thread's query (features/chat/chat-api.ts chatThreadKey, written here as the live layer
 * imports no feature): only a thread the tab holds; one not loaded fetches when shown.
 */
function applyChatMessage(queryClient: QueryClient, reportStatusId: number, message: TChatMessage): void {
  queryClient.setQueryData<TChatThread>(['chat', reportStatusId], (thread) =>
    thread ? withChatMessage(thread, message) : thread,
  );
}

/**
 * Starts the tab's one stream (a second caller shares it); the returned function stops it when the
 * last caller is gone. Each batch of messages invalidates its queries, then the listeners hear it.
 */
export function startLiveUpdates(queryClient: QueryClient): () => void {
  users += 1;
  if (!connection && typeof EventSource !== 'undefined') {
    connection = new LiveConnection({
      createEventSource: (url) => new EventSource(url, { withCredentials: true }),
      onStatus: setStatus,
      onMessage(message) {
        // A dot is the data itself, not a refetch: into the online list at once.
        if (message.kind === 'presence') {
          applyPresenceDot(queryClient, message.dot);
          return;
        }
        // A chat message the event carries: into the open thread now, drawn with no round trip
        // (issue 23 §6); the thread's refetch below still follows and reconciles (seen marks).
        if (message.kind === 'study' && message.event.message) {
          applyChatMessage(queryClient, message.event.reportStatusId, message.event.message);
        }
        pending.push(message);
        if (flushTimer) return;
        flushTimer = setTimeout(
          () => {
            flushTimer = null;
            lastFlushAt = Date.now();
            const batch = pending;
            pending = [];
            invalidateForLive(queryClient, batch);
            for (const m of batch) {
              if (m.kind === 'study') for (const listener of eventListeners) listener(m.event);
            }
          },
          Math.max(0, lastFlushAt + BATCH_MS - Date.now()),
        );
      },
    });
    connection.start();
  }
  return () => {
    users -= 1;
    if (users > 0 || !connection) return;
    connection.stop();
    connection = null;
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    lastFlushAt = Number.NEGATIVE_INFINITY;
    pending = [];
  };
}
