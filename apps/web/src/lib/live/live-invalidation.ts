import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { TLiveMessage } from './live-connection';

/**
 * The react-query keys a study event makes stale (issue 23 §4), written here rather than imported
 * so the live layer depends on no feature (each feature imports `onLiveEvent` from here); the
 * unit test holds them equal to the features' own key functions. Prefixes: invalidating one marks
 * every query under it; only those on screen (active) refetch, the others when next shown.
 */
export function keysOfStudyChange(reportStatusId: number): QueryKey[] {
  return [
    // Every study list (api/archive.ts STUDIES_QUERY_KEY).
    ['studies'],
    // The history, timeline and attachments dialogs (study-actions.api.ts historyQueryKey).
    ['study-history', reportStatusId],
    // The report editor's row and reports (report-editor-api.ts studyRowQueryKey, reportsQueryKey).
    ['report-editor', 'row', reportStatusId],
    ['report-editor', 'reports', reportStatusId],
    // The chat, the bell and critical results (issue 23 §1, §2, §5).
    ['chat', reportStatusId],
    ['chat-unseen'],
    ['notifications'],
    ['critical-results', reportStatusId],
    ['critical-results-open'],
  ];
}

/**
 * A chat message changes the thread, the unseen counts, the bell and the study's timeline, nothing
 * of the list's rows or the report: refetching every list on screen for each message (two open
 * lists per conversation) queued the thread's own refetch behind them (bench/chat-delivery.ts).
 */
export function keysOfChatMessage(reportStatusId: number): QueryKey[] {
  return [['chat', reportStatusId], ['chat-unseen'], ['notifications'], ['study-history', reportStatusId]];
}

/**
 * The author's own message: their thread (another tab of theirs) and the timeline. Their unseen
 * counts and bell cannot have changed (own messages are neither), and on one database that takes
 * one statement at a time (PGlite) those refetches queued before the reader's thread.
 */
export function keysOfOwnChatMessage(reportStatusId: number): QueryKey[] {
  return [
    ['chat', reportStatusId],
    ['study-history', reportStatusId],
  ];
}

/** What an event of `type` on a row makes stale; `byYou`: the stream says the caller did it. */
export function keysOfStudyEvent(type: string, reportStatusId: number, byYou = false): QueryKey[] {
  if (type !== 'CHAT_MESSAGE_SENT') return keysOfStudyChange(reportStatusId);
  return byYou ? keysOfOwnChatMessage(reportStatusId) : keysOfChatMessage(reportStatusId);
}

/** After a `reset` (too much missed to say event by event): every key of every study. */
export const KEYS_OF_RESET: QueryKey[] = [
  ['studies'],
  ['study-history'],
  ['report-editor'],
  ['chat'],
  ['chat-unseen'],
  ['notifications'],
  ['critical-results'],
  ['critical-results-open'],
];

/**
 * Marks what `messages` changed as stale, each key once: a burst of events (an ingest, a
 * multi-assign) is one refetch per query, not one per event.
 */
export function invalidateForLive(queryClient: QueryClient, messages: readonly TLiveMessage[]): void {
  const keys = new Map<string, QueryKey>();
  for (const message of messages) {
    // A dot changes no query by refetch (live-updates.ts applies it to the online list itself).
    if (message.kind === 'presence') continue;
    const changed =
      message.kind === 'reset'
        ? KEYS_OF_RESET
        : keysOfStudyEvent(message.event.type, message.event.reportStatusId, message.event.byYou === true);
    for (const key of changed) keys.set(JSON.stringify(key), key);
  }
  // An open chat thread first, the rest once it has answered: on a message both tabs refetch
  // their counts and bells too, and the thread (what the reader is looking at) waited behind them.
  const all = [...keys.values()];
  const isThread = (key: QueryKey) => key[0] === 'chat' && key.length === 2;
  const invalidate = (queryKey: QueryKey) => queryClient.invalidateQueries({ queryKey });
  void Promise.all(all.filter(isThread).map(invalidate)).finally(() => {
    for (const queryKey of all.filter((key) => !isThread(key))) void invalidate(queryKey);
  });
}
