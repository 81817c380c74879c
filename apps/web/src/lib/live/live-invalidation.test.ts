import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { STUDIES_QUERY_KEY } from '../../api/archive';
import { historyQueryKey } from '../../features/study-actions/study-actions.api';
import { reportsQueryKey, studyRowQueryKey } from '../../features/report-editor/report-editor-api';
import { CHAT_UNSEEN_KEY, chatThreadKey } from '../../features/chat/chat-api';
import {
  OPEN_CRITICAL_RESULTS_QUERY_KEY,
  criticalResultsQueryKey,
} from '../../features/critical-results/critical-results-api';
import { NOTIFICATIONS_QUERY_KEY } from '../../features/notifications/notifications.api';
import { PRESENCE_BEAT_KEY } from '../../features/presence/presence-api';
import { invalidateForLive, keysOfStudyChange } from './live-invalidation';
import { PRESENCE_BEAT_QUERY_KEY } from './presence-dots';

/**
 * Queries on screen for `keys`, each counting its refetches; `after(messages)` hands the messages to
 * invalidateForLive and answers which keys refetched, sorted.
 */
async function onScreen(keys: ReadonlyArray<readonly unknown[]>) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  const calls: string[] = [];
  const stops = keys.map((queryKey) =>
    new QueryObserver(client, {
      queryKey,
      queryFn: async () => {
        calls.push(JSON.stringify(queryKey));
        return 1;
      },
    }).subscribe(() => undefined),
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  calls.length = 0;
  return {
    async after(messages: Parameters<typeof invalidateForLive>[1]) {
      invalidateForLive(client, messages);
      await new Promise((resolve) => setTimeout(resolve, 0));
      for (const stop of stops) stop();
      return calls.sort();
    },
  };
}

describe('invalidateForLive', () => {
  it("names the features' own keys", () => {
    expect(keysOfStudyChange(5)).toEqual([
      [...STUDIES_QUERY_KEY],
      [...historyQueryKey(5)],
      [...studyRowQueryKey(5)],
      [...reportsQueryKey(5)],
      [...chatThreadKey(5)],
      [...CHAT_UNSEEN_KEY],
      [...NOTIFICATIONS_QUERY_KEY],
      [...criticalResultsQueryKey(5)],
      [...OPEN_CRITICAL_RESULTS_QUERY_KEY],
    ]);
    expect([...PRESENCE_BEAT_QUERY_KEY]).toEqual([...PRESENCE_BEAT_KEY]);
  });

  it('refetches the thread, the counts and the bell for a chat message, not the lists or the report', async () => {
    const screen = await onScreen([
      [...STUDIES_QUERY_KEY, { tab: 'all' }],
      chatThreadKey(5),
      [...CHAT_UNSEEN_KEY, [5, 6]],
      studyRowQueryKey(5),
    ]);
    const calls = await screen.after([
      { kind: 'study', event: { id: 9, reportStatusId: 5, type: 'CHAT_MESSAGE_SENT' } },
    ]);
    expect(calls).toEqual([JSON.stringify(['chat', 5]), JSON.stringify(['chat-unseen', [5, 6]])]);
  });

  it("refetches the author's own thread and timeline for their own message, not their counts or bell", async () => {
    const screen = await onScreen([
      chatThreadKey(5),
      [...CHAT_UNSEEN_KEY, [5, 6]],
      NOTIFICATIONS_QUERY_KEY,
      historyQueryKey(5),
    ]);
    const calls = await screen.after([
      { kind: 'study', event: { id: 9, reportStatusId: 5, type: 'CHAT_MESSAGE_SENT', byYou: true } },
    ]);
    expect(calls).toEqual([JSON.stringify(chatThreadKey(5)), JSON.stringify(historyQueryKey(5))].sort());
  });

  it('refetches an open thread before the counts and the bell', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
    const started: string[] = [];
    let answerThread: () => void = () => undefined;
    const observe = (queryKey: readonly unknown[], queryFn: () => Promise<number>) =>
      new QueryObserver(client, { queryKey, queryFn }).subscribe(() => undefined);
    let first = true;
    const stops = [
      observe(chatThreadKey(5), () => {
        started.push('thread');
        if (first) {
          first = false;
          return Promise.resolve(1);
        }
        return new Promise((resolve) => (answerThread = () => resolve(2)));
      }),
      observe([...CHAT_UNSEEN_KEY, [5]], async () => {
        started.push('counts');
        return 1;
      }),
    ];
    await new Promise((resolve) => setTimeout(resolve, 0));
    started.length = 0;
    invalidateForLive(client, [
      { kind: 'study', event: { id: 9, reportStatusId: 5, type: 'CHAT_MESSAGE_SENT' } },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual(['thread']);
    answerThread();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual(['thread', 'counts']);
    for (const stop of stops) stop();
  });

  it('refetches the queries on screen that the event touches, each once; the others only go stale', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
    const calls: string[] = [];
    const watch = (queryKey: readonly unknown[]) => {
      const observer = new QueryObserver(client, {
        queryKey,
        queryFn: async () => {
          calls.push(JSON.stringify(queryKey));
          return 1;
        },
      });
      return observer.subscribe(() => undefined);
    };
    const stops = [
      watch([...STUDIES_QUERY_KEY, { tab: 'all' }]),
      watch(studyRowQueryKey(5)),
      watch(studyRowQueryKey(6)),
    ];
    await client.prefetchQuery({ queryKey: ['study-history', 5], queryFn: () => 1 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    calls.length = 0;

    invalidateForLive(client, [
      { kind: 'study', event: { id: 1, reportStatusId: 5, type: 'ASSIGNED' } },
      { kind: 'study', event: { id: 2, reportStatusId: 5, type: 'REPORT_SAVED' } },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls.sort()).toEqual([
      JSON.stringify(['report-editor', 'row', 5]),
      JSON.stringify(['studies', { tab: 'all' }]),
    ]);
    expect(client.getQueryState(['study-history', 5])?.isInvalidated).toBe(true);
    expect(client.getQueryState(studyRowQueryKey(6))?.isInvalidated).toBe(false);
    for (const stop of stops) stop();
  });
});
