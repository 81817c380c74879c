import { type SQL, asc, eq, gt, inArray, max, or, sql } from 'drizzle-orm';
import type { TChatMessage, TOnlineStatus, TStudyEventType, TStudyScope } from '@radflow/core';
import type { Db } from '../../db/client.js';
import { reportStatuses, studyEvents } from '../../db/schema.js';
import { EventWindow } from './event-window.js';
import { dotOf, parsePresenceChange } from './presence-channel.js';
import { type TWakeup, listenForStudyEvents } from './study-events-wakeup.js';
import { type TRowBefore, visibleRowsByScope } from './visible-rows.js';

/** What the stream says of an event: which row changed and how; nothing of the patient. */
export interface TLiveEvent {
  id: number;
  reportStatusId: number;
  type: TStudyEventType;
  /**
   * Only on the author's own streams: the tab need not refetch what its own action cannot have
   * changed for its user (their unseen chat counts, their bell: own events are never either).
   */
  byYou?: true;
  /**
   * A CHAT_MESSAGE_SENT's message, as the thread's GET answers it to this reader (README "Chat
   * messages"): only on the streams of users who may read the thread (the row's access rule, which
   * decided the event, and core canChat: `seesChat`).
   */
  message?: TChatMessage;
}

/** A row of study_events as the feed reads it. */
export interface TFeedRow extends Omit<TLiveEvent, 'byYou' | 'message'> {
  groupId: number;
  actorUserId: number | null;
  createdAt: Date;
  /**
   * An ASSIGNED/UNASSIGNED's row as it was (its `previousAssignedToUserId`): who saw it then hears
   * that it left their view (README); null for other events.
   */
  assignedBefore: { userId: number | null } | null;
  /** A CHAT_MESSAGE_SENT's message id (its detail's `messageId`); null for other events. */
  chatMessageId: number | null;
}

/** Reads chat messages by id as the thread's GET answers them, `seen` false (chat module). */
export type TChatMessagesById = (ids: readonly number[]) => Promise<ReadonlyMap<number, TChatMessage>>;

/** One open stream, as the feed sees it. */
export interface TLiveSubscriber {
  readonly userId: number;
  readonly scope: TStudyScope;
  /** The events this subscriber may see, and the resume point to tag them with (README). */
  deliver(events: readonly TLiveEvent[], resumeId: number): void;
  /** Whether its user takes part in the study chat (core canChat), as the thread's GET requires. */
  readonly seesChat: boolean;
  /** Whether its user sees the online dots (core seesOnlineStatuses). */
  readonly seesPresence: boolean;
  /** A doctor's dot changed in its group (README "Presence"). */
  deliverPresence(dot: TOnlineStatus): void;
}

export interface TLiveFeedOptions {
  /** A wake-up waits this long for more before reading: a burst becomes one read. */
  coalesceMs: number;
  /** A read this often whatever the NOTIFYs say (one lost on a dropped connection). */
  fallbackMs: number;
  /** How long an id missing below the highest read is asked for again (EventWindow). */
  pendingTtlMs: number;
  /** Rows per read; a full read reads again at once. */
  readLimit: number;
  onError(error: unknown): void;
  /** Where a CHAT_MESSAGE_SENT's message is read to ride its event; absent: events carry none. */
  chatMessagesById?: TChatMessagesById;
}

export const DEFAULT_FEED_OPTIONS: Omit<TLiveFeedOptions, 'onError'> = {
  coalesceMs: 20,
  fallbackMs: 3_000,
  pendingTtlMs: 60_000,
  readLimit: 500,
};

/** Rows at the start whose holes are taken as pending (an insert in flight while the feed starts). */
const START_WINDOW = 200;
const MAX_PENDING = 5_000;
/** Streams written to before the feed lets the event loop run its timers and sockets. */
const WRITES_PER_TURN = 200;

const feedColumns = {
  id: studyEvents.id,
  reportStatusId: studyEvents.reportStatusId,
  type: studyEvents.eventType,
  actorUserId: studyEvents.actorUserId,
  groupId: reportStatuses.groupId,
  createdAt: studyEvents.createdAt,
  hasAssignedBefore: sql<boolean>`coalesce(${studyEvents.detail} ? 'previousAssignedToUserId', false)`,
  assignedBefore: sql<number | null>`(${studyEvents.detail} ->> 'previousAssignedToUserId')::integer`,
  chatMessageId: sql<
    number | null
  >`case when ${studyEvents.eventType} = 'CHAT_MESSAGE_SENT' then (${studyEvents.detail} ->> 'messageId')::integer end`,
};

/** study_events rows matching `where`, lowest id first, with the group of their report row. */
export async function readFeedRows(db: Db, where: SQL | undefined, limit: number): Promise<TFeedRow[]> {
  const rows = await db
    .select(feedColumns)
    .from(studyEvents)
    .innerJoin(reportStatuses, eq(reportStatuses.id, studyEvents.reportStatusId))
    .where(where)
    .orderBy(asc(studyEvents.id))
    .limit(limit);
  return rows.map(({ hasAssignedBefore, assignedBefore, chatMessageId, ...r }) => ({
    ...r,
    chatMessageId: chatMessageId === null ? null : Number(chatMessageId),
    assignedBefore: hasAssignedBefore
      ? { userId: assignedBefore === null ? null : Number(assignedBefore) }
      : null,
  }));
}

/**
 * Each subscriber's share of `rows`: the events of rows its scope may see, now or, for an
 * assignment's events, before it (one query per distinct scope, visible-rows.ts).
 */
export async function eventsBySubscriber<
  S extends Pick<TLiveSubscriber, 'userId' | 'scope'> & { seesChat?: boolean },
>(
  db: Db,
  rows: readonly TFeedRow[],
  subscribers: Iterable<S>,
  chatMessages: ReadonlyMap<number, TChatMessage> = new Map(),
): Promise<Map<S, TLiveEvent[]>> {
  const rowsByGroup = new Map<number, number[]>();
  for (const row of rows) {
    const ids = rowsByGroup.get(row.groupId) ?? [];
    if (!ids.includes(row.reportStatusId)) ids.push(row.reportStatusId);
    rowsByGroup.set(row.groupId, ids);
  }
  const scopes = new Map<string, TStudyScope>();
  const keyOf = new Map<S, string>();
  for (const subscriber of subscribers) {
    const key = JSON.stringify(subscriber.scope);
    scopes.set(key, subscriber.scope);
    keyOf.set(subscriber, key);
  }
  const beforeByGroup = new Map<number, TRowBefore[]>();
  for (const row of rows) {
    if (!row.assignedBefore) continue;
    const list = beforeByGroup.get(row.groupId) ?? [];
    list.push({ reportStatusId: row.reportStatusId, assignedToUserId: row.assignedBefore.userId });
    beforeByGroup.set(row.groupId, list);
  }
  const visible = await visibleRowsByScope(db, rowsByGroup, scopes, beforeByGroup);
  const answer = new Map<S, TLiveEvent[]>();
  for (const [subscriber, key] of keyOf) {
    const ids = visible.get(key);
    const events = rows
      .filter((r) => ids?.has(r.reportStatusId))
      .map((r): TLiveEvent => {
        const event: TLiveEvent = { id: r.id, reportStatusId: r.reportStatusId, type: r.type };
        if (r.actorUserId === subscriber.userId) event.byYou = true;
        // The row is visible to this scope (the access rule, above); the thread also needs canChat.
        const message = r.chatMessageId === null ? undefined : chatMessages.get(r.chatMessageId);
        if (message && subscriber.seesChat === true)
          event.message = { ...message, seen: event.byYou === true };
        return event;
      });
    if (events.length > 0) answer.set(subscriber, events);
  }
  return answer;
}

/**
 * The process's one reader of study_events for all its streams (README). Started by the first
 * stream; a NOTIFY (or the fallback timer) wakes it; it reads the rows it has not read
 * (EventWindow: out-of-order commits), decides who may see them in a batch, and hands each
 * subscriber its share. Its reads are ordinary queries: on PGlite they take their turns with the
 * requests' (db/pglite-turns.ts), one read per wake-up burst.
 */
export class LiveFeed {
  private readonly subscribers = new Set<TLiveSubscriber>();
  private window: EventWindow | null = null;
  private starting: Promise<void> | null = null;
  private wakeup: TWakeup | null = null;
  private fallback: NodeJS.Timeout | null = null;
  private scheduled: NodeJS.Timeout | null = null;
  private reading: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private lastReadAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly opts: TLiveFeedOptions,
  ) {}

  /** Reads where study_events ends and starts listening; once (later calls wait for the first). */
  start(): Promise<void> {
    this.starting ??= this.begin().catch((error: unknown) => {
      this.starting = null;
      throw error;
    });
    return this.starting;
  }

  private async begin(): Promise<void> {
    // Listen first: a row committed between the two is then read by the wake-up.
    const wakeup = await listenForStudyEvents(
      this.db,
      () => this.wake(),
      (error) => this.opts.onError(error),
      (payload) => this.presence(payload),
    );
    if (this.stopped) {
      await wakeup.stop();
      return;
    }
    this.wakeup = wakeup;
    const [top] = await this.db.select({ highest: max(studyEvents.id) }).from(studyEvents);
    const highest = Number(top?.highest ?? 0);
    const window = new EventWindow({
      highest,
      pendingTtlMs: this.opts.pendingTtlMs,
      maxPending: MAX_PENDING,
    });
    const recent = await this.db
      .select({ id: studyEvents.id })
      .from(studyEvents)
      .where(gt(studyEvents.id, highest - START_WINDOW));
    const present = new Set(recent.map((r) => Number(r.id)));
    const holes: number[] = [];
    for (let id = Math.max(1, highest - START_WINDOW + 1); id < highest; id++) {
      if (!present.has(id)) holes.push(id);
    }
    window.markMissing(holes, Date.now());
    this.window = window;
    this.fallback = setInterval(() => this.wake(0), this.opts.fallbackMs);
    this.fallback.unref();
    this.wake(0);
  }

  /** The resume point for a client (EventWindow.floor); 0 before the start. */
  floor(): number {
    return this.window?.floor() ?? 0;
  }

  /** The highest id read; 0 before the start. */
  highest(): number {
    return this.window?.highest ?? 0;
  }

  subscribe(subscriber: TLiveSubscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /** Open streams of a user in this process. */
  streamsOf(userId: number): number {
    let count = 0;
    for (const s of this.subscribers) if (s.userId === userId) count += 1;
    return count;
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /**
   * Schedules a read: at once after a quiet spell (a lone chat message must not wait out a window:
   * it was a tenth of its delivery time), else in `delayMs`, so the rest of a burst is one read.
   */
  wake(delayMs = this.opts.coalesceMs): void {
    if (this.stopped || !this.window) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    if (this.scheduled) return;
    const quiet = Date.now() - this.lastReadAt >= this.opts.coalesceMs;
    this.scheduled = setTimeout(
      () => {
        this.scheduled = null;
        this.lastReadAt = Date.now();
        this.reading = this.readAll().finally(() => {
          this.reading = null;
        });
      },
      quiet ? 0 : delayMs,
    );
  }

  /** Reads until nothing new is left; errors go to onError (the fallback timer tries again). */
  private async readAll(): Promise<void> {
    const window = this.window;
    if (!window) return;
    try {
      do {
        this.again = false;
        const pending = window.pending();
        const rows = await readFeedRows(
          this.db,
          pending.length > 0
            ? or(gt(studyEvents.id, window.highest), inArray(studyEvents.id, pending))
            : gt(studyEvents.id, window.highest),
          this.opts.readLimit,
        );
        const fresh = new Set(
          window.accept(
            rows.map((r) => r.id),
            Date.now(),
          ),
        );
        const newRows = rows.filter((r) => fresh.has(r.id));
        if (newRows.length > 0 && this.subscribers.size > 0) await this.dispatch(newRows, window.floor());
        if (rows.length >= this.opts.readLimit) this.again = true;
      } while (this.again && !this.stopped);
    } catch (error) {
      this.opts.onError(error);
    }
  }

  private async dispatch(rows: readonly TFeedRow[], resumeId: number): Promise<void> {
    const chatMessageIds = rows.flatMap((r) => (r.chatMessageId === null ? [] : [r.chatMessageId]));
    const chatMessages =
      chatMessageIds.length > 0 && this.opts.chatMessagesById
        ? await this.opts.chatMessagesById(chatMessageIds)
        : undefined;
    const shares = await eventsBySubscriber(this.db, rows, [...this.subscribers], chatMessages);
    let written = 0;
    for (const [subscriber, events] of shares) {
      // A stream closed while its share was decided gets nothing.
      if (!this.subscribers.has(subscriber)) continue;
      subscriber.deliver(events, resumeId);
      // Thousands of socket writes in one go hold the event loop past the load-shedding plugin's
      // busy bound, and the refetches the event causes are shed (bench/live-stream.ts): yield.
      if (++written % WRITES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * A doctor's dot changed (presence-channel.ts): to the streams of its group that show the dots,
   * but its own user's. No query: the payload says the group, the stream knows its scope.
   */
  private presence(payload: string): void {
    const change = parsePresenceChange(payload);
    if (!change || this.stopped) return;
    const dot = dotOf(change);
    for (const subscriber of this.subscribers) {
      if (
        subscriber.seesPresence &&
        subscriber.scope.groupId === change.groupId &&
        subscriber.userId !== change.userId
      ) {
        subscriber.deliverPresence(dot);
      }
    }
  }

  /** Waits for a read in progress (tests, the bench). */
  async settle(): Promise<void> {
    while (this.reading || this.scheduled) {
      await (this.reading ?? new Promise((resolve) => setTimeout(resolve, 5)));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.fallback) clearInterval(this.fallback);
    if (this.scheduled) clearTimeout(this.scheduled);
    this.subscribers.clear();
    await this.reading?.catch(() => undefined);
    await this.starting?.catch(() => undefined);
    await this.wakeup?.stop();
  }
}
