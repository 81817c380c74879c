import { PassThrough } from 'node:stream';
import { gt } from 'drizzle-orm';
import type { TOnlineStatus, TStudyScope } from '@radflow/core';
import type { Db } from '../../db/client.js';
import { studyEvents } from '../../db/schema.js';
import {
  type LiveFeed,
  type TLiveEvent,
  type TLiveSubscriber,
  eventsBySubscriber,
  readFeedRows,
} from './live-feed.js';

export interface TLiveStreamOptions {
  /** A comment line this often, so proxies and the browser keep an idle stream open. */
  heartbeatMs: number;
  /**
   * A stream ends after about this long (±10%) and the browser reconnects with its Last-Event-ID:
   * the session, the roles and the scope are checked again (a stream holds the scope it opened with).
   */
  maxStreamMs: number;
  /** A resume with more events than this since its id gets `reset` instead. */
  replayMaxEvents: number;
  /** A resume whose first missed event is older than this gets `reset` instead. */
  replayMaxAgeMs: number;
  /** Unsent bytes past which a stream that does not read is closed (it resumes on reconnect). */
  maxBufferedBytes: number;
}

export const DEFAULT_STREAM_OPTIONS: TLiveStreamOptions = {
  heartbeatMs: 25_000,
  maxStreamMs: 15 * 60_000,
  replayMaxEvents: 1_000,
  replayMaxAgeMs: 10 * 60_000,
  maxBufferedBytes: 1024 * 1024,
};

/** How long EventSource waits before reconnecting after the stream ends (SSE `retry:`). */
const RETRY_MS = 2_000;

/**
 * One open `GET /api/live`: the SSE text of the feed's events for one tab. While it replays what
 * the tab missed, the feed's deliveries wait in `held`, so the resume points it sends never run
 * ahead of what it has sent (README "Resume").
 */
export class LiveStream implements TLiveSubscriber {
  readonly body = new PassThrough();
  private held: Array<{ events: readonly TLiveEvent[]; resumeId: number }> | null = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private closed = false;

  constructor(
    readonly userId: number,
    readonly scope: TStudyScope,
    readonly seesChat: boolean,
    readonly seesPresence: boolean,
    private readonly opts: TLiveStreamOptions,
    private readonly onClose: () => void,
  ) {
    this.body.on('close', () => this.close());
    this.write(`retry: ${RETRY_MS}\n\n`);
    const heartbeat = setInterval(() => this.write(': heartbeat\n\n'), opts.heartbeatMs);
    const lifetime = setTimeout(() => this.close(), opts.maxStreamMs * (0.9 + Math.random() * 0.2));
    heartbeat.unref();
    lifetime.unref();
    this.timers.push(heartbeat, lifetime);
  }

  deliver(events: readonly TLiveEvent[], resumeId: number): void {
    if (this.held) this.held.push({ events, resumeId });
    else this.send(events, resumeId);
  }

  /**
   * A doctor's dot: at once, with no `id:` (presence is not replayed; the tab's next beat reads the
   * whole list), so it never moves the resume point.
   */
  deliverPresence(dot: TOnlineStatus): void {
    this.write(`event: presence\ndata: ${JSON.stringify(dot)}\n\n`);
  }

  /**
   * Sends what the tab missed since `lastEventId` (null: a new tab, nothing to replay), then what
   * the feed delivered meanwhile, then `ready` with the resume point.
   */
  async start(db: Db, feed: LiveFeed, lastEventId: number | null): Promise<void> {
    try {
      if (lastEventId !== null) await this.replay(db, feed, lastEventId);
    } finally {
      const held = this.held ?? [];
      this.held = null;
      for (const { events, resumeId } of held) this.send(events, resumeId);
    }
    this.write(`id: ${feed.floor()}\nevent: ready\ndata: {}\n\n`);
  }

  private async replay(db: Db, feed: LiveFeed, lastEventId: number): Promise<void> {
    const rows = await readFeedRows(db, gt(studyEvents.id, lastEventId), this.opts.replayMaxEvents + 1);
    const first = rows[0];
    const tooOld = first !== undefined && Date.now() - first.createdAt.getTime() > this.opts.replayMaxAgeMs;
    // An id beyond anything stored: another database's (or a reset one's) id.
    const unknown = rows.length === 0 && lastEventId > feed.highest();
    if (rows.length > this.opts.replayMaxEvents || tooOld || unknown) {
      // Too much missed to say event by event: the tab refetches everything it shows.
      this.write(`event: reset\ndata: {}\n\n`);
      return;
    }
    const share = (await eventsBySubscriber(db, rows, [this])).get(this) ?? [];
    // No `id:` on replayed events: a drop mid-replay resumes from lastEventId again (duplicates
    // are harmless, a gap is not); `ready` then carries the resume point.
    for (const event of share) this.write(`event: study\ndata: ${JSON.stringify(event)}\n\n`);
  }

  private send(events: readonly TLiveEvent[], resumeId: number): void {
    let text = '';
    for (const event of events) text += `id: ${resumeId}\nevent: study\ndata: ${JSON.stringify(event)}\n\n`;
    this.write(text);
  }

  private write(text: string): void {
    if (this.closed) return;
    if (this.body.writableLength > this.opts.maxBufferedBytes) {
      this.close();
      return;
    }
    this.body.write(text);
  }

  /** Ends the stream (idempotent): the tab reconnects unless it is going away. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.onClose();
    this.body.end();
  }
}
