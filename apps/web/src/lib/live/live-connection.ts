/**
 * The tab's one connection to `GET /api/live` (server modules/live/README.md): an EventSource,
 * whose own reconnects resume with Last-Event-ID; when the browser gives up on it (an answer that
 * is not a stream: 401, 429, 503), a new one after a growing pause (1 s, doubling, at most 30 s),
 * passing the last resume point as `?lastEventId=` (a new EventSource has none to send).
 * Free of React: the hook (useLiveUpdates) and the tests drive it.
 */

import { type TChatMessage, type TOnlineStatus, ZChatMessage, ZOnlineStatus } from '@radflow/core';

export type TLiveStatus = 'connecting' | 'open' | 'closed';

/** A study event as the server sends it: which row changed and how. */
export interface TLiveEvent {
  id: number;
  reportStatusId: number;
  type: string;
  /** Only on the author's own streams (server modules/live/live-feed.ts). */
  byYou?: boolean;
  /** A CHAT_MESSAGE_SENT's message, for users who may read the thread (server live README). */
  message?: TChatMessage;
}

export type TLiveMessage =
  | { kind: 'study'; event: TLiveEvent }
  | { kind: 'reset' }
  /** A doctor's dot changed (server live README "Presence"): the online list's row, as the beat has it. */
  | { kind: 'presence'; dot: TOnlineStatus };

/** The part of EventSource used here (tests give a fake). */
export interface TEventSourceLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

export const EVENT_SOURCE_CLOSED = 2;
export const LIVE_PATH = '/api/live';
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

export interface TLiveConnectionOptions {
  createEventSource(url: string): TEventSourceLike;
  onMessage(message: TLiveMessage): void;
  onStatus(status: TLiveStatus): void;
  setTimer?(fn: () => void, ms: number): unknown;
  clearTimer?(timer: unknown): void;
}

export class LiveConnection {
  private source: TEventSourceLike | null = null;
  private lastEventId: string | null = null;
  private retryMs = FIRST_RETRY_MS;
  private timer: unknown = null;
  private stopped = false;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (timer: unknown) => void;

  constructor(private readonly opts: TLiveConnectionOptions) {
    this.setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = opts.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  }

  start(): void {
    this.stopped = false;
    if (!this.source && this.timer === null) this.open();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.source?.close();
    this.source = null;
    this.opts.onStatus('closed');
  }

  private open(): void {
    const url = this.lastEventId === null ? LIVE_PATH : `${LIVE_PATH}?lastEventId=${this.lastEventId}`;
    const source = this.opts.createEventSource(url);
    this.source = source;
    this.opts.onStatus('connecting');
    const noteId = (event: MessageEvent<string>) => {
      if (event.lastEventId) this.lastEventId = event.lastEventId;
    };
    source.addEventListener('ready', (event) => {
      noteId(event);
      this.retryMs = FIRST_RETRY_MS;
      this.opts.onStatus('open');
    });
    source.addEventListener('study', (event) => {
      noteId(event);
      const parsed = parseEvent(event.data);
      if (parsed) this.opts.onMessage({ kind: 'study', event: parsed });
    });
    source.addEventListener('presence', (event) => {
      const dot = parseDot(event.data);
      if (dot) this.opts.onMessage({ kind: 'presence', dot });
    });
    source.addEventListener('reset', (event) => {
      noteId(event);
      this.opts.onMessage({ kind: 'reset' });
    });
    source.onerror = () => {
      if (this.source !== source) return;
      if (source.readyState !== EVENT_SOURCE_CLOSED) {
        // The browser reconnects by itself, with Last-Event-ID.
        this.opts.onStatus('connecting');
        return;
      }
      source.close();
      this.source = null;
      this.opts.onStatus('closed');
      if (this.stopped) return;
      const wait = this.retryMs;
      this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
      this.timer = this.setTimer(() => {
        this.timer = null;
        if (!this.stopped) this.open();
      }, wait);
    };
  }
}

function parseEvent(data: string): TLiveEvent | null {
  try {
    const value = JSON.parse(data) as Partial<Record<keyof TLiveEvent, unknown>>;
    // A message that does not parse is left out: the thread's refetch brings it.
    const message = value.message === undefined ? undefined : ZChatMessage.safeParse(value.message).data;
    return typeof value.id === 'number' &&
      typeof value.reportStatusId === 'number' &&
      typeof value.type === 'string'
      ? {
          id: value.id,
          reportStatusId: value.reportStatusId,
          type: value.type,
          ...(value.byYou === true ? { byYou: true } : {}),
          ...(message ? { message } : {}),
        }
      : null;
  } catch {
    return null;
  }
}

function parseDot(data: string): TOnlineStatus | null {
  try {
    const parsed = ZOnlineStatus.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
