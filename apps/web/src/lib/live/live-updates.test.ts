import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '../../test/fake-event-source';
import { onLiveEvent, startLiveUpdates } from './live-updates';

/** A chat message's study event with id `id` (its resume id too). */
const studyEvent = (source: FakeEventSource, id: number) =>
  source.emit('study', { id, reportStatusId: 5, type: 'CHAT_MESSAGE_SENT' }, String(id));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the tab stream batches', () => {
  it('hands the first event after a quiet spell on at once, and a burst right after it in one go', () => {
    vi.useFakeTimers();
    vi.stubGlobal('EventSource', FakeEventSource);
    const heard: number[][] = [];
    let batch: number[] = [];
    const stopListening = onLiveEvent((event) => batch.push(event.id));
    const flushHeard = () => {
      if (batch.length > 0) heard.push(batch);
      batch = [];
    };
    const stop = startLiveUpdates(new QueryClient());
    const source = FakeEventSource.last!;

    studyEvent(source, 1);
    vi.advanceTimersByTime(0);
    flushHeard();
    expect(heard).toEqual([[1]]);

    // Within the batch window of that flush: held until the window ends, then together.
    vi.advanceTimersByTime(10);
    studyEvent(source, 2);
    studyEvent(source, 3);
    vi.advanceTimersByTime(30);
    flushHeard();
    expect(heard).toEqual([[1]]);
    vi.advanceTimersByTime(10);
    flushHeard();
    expect(heard).toEqual([[1], [2, 3]]);

    // Quiet again: at once.
    vi.advanceTimersByTime(500);
    studyEvent(source, 4);
    vi.advanceTimersByTime(0);
    flushHeard();
    expect(heard).toEqual([[1], [2, 3], [4]]);
    stopListening();
    stop();
  });
});

/** The online list's query (features/presence/presence-api.ts PRESENCE_BEAT_KEY): the tab's last beat. */
const BEAT_KEY = ['presence', 'beat'];

describe('presence on the tab stream (issue 23 §3)', () => {
  const beat = (onlineStatuses: Array<{ email: string; status: string; updatedAt: string | null }>) => ({
    notificationMessages: [],
    onlineStatuses,
  });

  it("puts a doctor's new dot into the online list at once, ONLINE first, without a beat", () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const queryClient = new QueryClient();
    queryClient.setQueryData(
      BEAT_KEY,
      beat([
        { email: 'a@x.test', status: 'ONLINE', updatedAt: '2026-11-27T10:00:00.000Z' },
        { email: 'b@x.test', status: 'OFFLINE', updatedAt: null },
      ]),
    );
    const stop = startLiveUpdates(queryClient);
    const source = FakeEventSource.last!;

    source.emit('presence', { email: 'b@x.test', status: 'ONLINE', updatedAt: '2026-11-27T10:05:00.000Z' });
    expect(queryClient.getQueryData(BEAT_KEY)).toEqual(
      beat([
        { email: 'a@x.test', status: 'ONLINE', updatedAt: '2026-11-27T10:00:00.000Z' },
        { email: 'b@x.test', status: 'ONLINE', updatedAt: '2026-11-27T10:05:00.000Z' },
      ]),
    );
    source.emit('presence', { email: 'a@x.test', status: 'OFFLINE', updatedAt: '2026-11-27T10:06:00.000Z' });
    expect(queryClient.getQueryData(BEAT_KEY)).toEqual(
      beat([
        { email: 'b@x.test', status: 'ONLINE', updatedAt: '2026-11-27T10:05:00.000Z' },
        { email: 'a@x.test', status: 'OFFLINE', updatedAt: '2026-11-27T10:06:00.000Z' },
      ]),
    );
    // A doctor the list did not have yet (made since the last beat) joins it.
    source.emit('presence', { email: 'c@x.test', status: 'ONLINE', updatedAt: '2026-11-27T10:07:00.000Z' });
    const list = queryClient.getQueryData<ReturnType<typeof beat>>(BEAT_KEY)!.onlineStatuses;
    expect(list.map((d) => [d.email, d.status])).toEqual([
      ['b@x.test', 'ONLINE'],
      ['c@x.test', 'ONLINE'],
      ['a@x.test', 'OFFLINE'],
    ]);
    // Something that is not a dot changes nothing.
    source.emit('presence', { email: 'a@x.test', status: 'AWAY' });
    expect(queryClient.getQueryData<ReturnType<typeof beat>>(BEAT_KEY)!.onlineStatuses).toEqual(list);
    stop();
  });

  it('before the first beat there is no list to change: it stays unasked', () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const queryClient = new QueryClient();
    const stop = startLiveUpdates(queryClient);
    FakeEventSource.last!.emit('presence', { email: 'b@x.test', status: 'ONLINE', updatedAt: null });
    expect(queryClient.getQueryData(BEAT_KEY)).toBeUndefined();
    stop();
  });
});
