import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onLiveEvent, startLiveUpdates } from './live-updates';

/** The browser's EventSource as the stream uses it: listeners by event name. */
class FakeEventSource {
  static last: FakeEventSource | null = null;
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  private readonly listeners = new Map<string, Array<(event: MessageEvent<string>) => void>>();
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.readyState = 2;
  }
  study(id: number) {
    const event = new MessageEvent('study', {
      data: JSON.stringify({ id, reportStatusId: 5, type: 'CHAT_MESSAGE_SENT' }),
      lastEventId: String(id),
    });
    for (const listener of this.listeners.get('study') ?? []) listener(event as MessageEvent<string>);
  }
}

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

    source.study(1);
    vi.advanceTimersByTime(0);
    flushHeard();
    expect(heard).toEqual([[1]]);

    // Within the batch window of that flush: held until the window ends, then together.
    vi.advanceTimersByTime(10);
    source.study(2);
    source.study(3);
    vi.advanceTimersByTime(30);
    flushHeard();
    expect(heard).toEqual([[1]]);
    vi.advanceTimersByTime(10);
    flushHeard();
    expect(heard).toEqual([[1], [2, 3]]);

    // Quiet again: at once.
    vi.advanceTimersByTime(500);
    source.study(4);
    vi.advanceTimersByTime(0);
    flushHeard();
    expect(heard).toEqual([[1], [2, 3], [4]]);
    stopListening();
    stop();
  });
});
