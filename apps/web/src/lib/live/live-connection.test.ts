import { describe, expect, it } from 'vitest';
import { FakeEventSource } from '../../test/fake-event-source';
import { EVENT_SOURCE_CLOSED, LiveConnection, type TLiveMessage, type TLiveStatus } from './live-connection';

function harness() {
  const sources: FakeEventSource[] = [];
  const messages: TLiveMessage[] = [];
  const statuses: TLiveStatus[] = [];
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const connection = new LiveConnection({
    createEventSource: (url) => {
      const source = new FakeEventSource(url);
      sources.push(source);
      return source;
    },
    onMessage: (m) => messages.push(m),
    onStatus: (s) => statuses.push(s),
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => undefined,
  });
  const fireTimer = () => timers.shift()!.fn();
  return { connection, sources, messages, statuses, timers, fireTimer };
}

describe('LiveConnection', () => {
  it('passes study events and resets on, and is open once the server says ready', () => {
    const h = harness();
    h.connection.start();
    expect(h.sources[0]!.url).toBe('/api/live');
    h.sources[0]!.emit('ready', {}, '7');
    h.sources[0]!.emit('study', { id: 9, reportStatusId: 3, type: 'ASSIGNED' }, '8');
    h.sources[0]!.emit('study', { nonsense: true }, '8');
    h.sources[0]!.emit('study', { id: 10, reportStatusId: 3, type: 'CHAT_MESSAGE_SENT', byYou: true }, '9');
    h.sources[0]!.emit('reset', {}, '9');
    expect(h.messages).toEqual([
      { kind: 'study', event: { id: 9, reportStatusId: 3, type: 'ASSIGNED' } },
      { kind: 'study', event: { id: 10, reportStatusId: 3, type: 'CHAT_MESSAGE_SENT', byYou: true } },
      { kind: 'reset' },
    ]);
    expect(h.statuses).toEqual(['connecting', 'open']);
  });

  it("leaves a dropped stream to the browser's own reconnect; after a refusal opens a new one later, from the last id, with a growing pause", () => {
    const h = harness();
    h.connection.start();
    h.sources[0]!.emit('ready', {}, '41');
    h.sources[0]!.fail(0);
    expect(h.sources).toHaveLength(1);
    expect(h.statuses.at(-1)).toBe('connecting');

    h.sources[0]!.fail(EVENT_SOURCE_CLOSED);
    expect(h.statuses.at(-1)).toBe('closed');
    expect(h.timers.map((t) => t.ms)).toEqual([1_000]);
    h.fireTimer();
    expect(h.sources[1]!.url).toBe('/api/live?lastEventId=41');
    h.sources[1]!.fail(EVENT_SOURCE_CLOSED);
    h.fireTimer();
    h.sources[2]!.fail(EVENT_SOURCE_CLOSED);
    expect(h.timers.map((t) => t.ms)).toEqual([4_000]);
    h.fireTimer();
    // Once a stream is open again the pause starts over.
    h.sources[3]!.emit('ready', {}, '50');
    h.sources[3]!.fail(EVENT_SOURCE_CLOSED);
    expect(h.timers.map((t) => t.ms)).toEqual([1_000]);
  });

  it('stops: closes the source and opens no other', () => {
    const h = harness();
    h.connection.start();
    h.connection.stop();
    expect(h.sources[0]!.closed).toBe(true);
    h.sources[0]!.fail(EVENT_SOURCE_CLOSED);
    expect(h.timers).toEqual([]);
    expect(h.statuses.at(-1)).toBe('closed');
  });
});
