import { createHash } from 'node:crypto';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { type Db, instanceIndexOf } from '../../db/client.js';
import type { IndexRow, InstanceIndex } from '../../db/instance-index.js';
import { ingestJournalPositions } from '../../db/schema.js';
import type { BlobStore } from '../storage/blob-store.js';
import { IngestJournal, type JournalRecord } from './ingest-journal.js';

/**
 * Acknowledge on durable storage, index in batches (ARCHIVE.md "acknowledge before indexing";
 * `INGEST_ACK=journal`). The record of an instance whose blob is durable is appended to the
 * journal (ingest-journal.ts); once synced the sender is answered, and one indexer writes the
 * records of every association into the index in large batches, each with the journal's position
 * in the same transaction. On start, the records after that position are indexed before any
 * ingest is taken (`startIngestJournal`), so an acknowledged instance is always indexed.
 *
 * The answer must be the index's answer: before a record is appended, `admit` decides what the
 * index would do with it, from one indexed read (the study's center, the SOP instance's hash: the
 * index's prepared admission statement) and
 * the instances admitted but not yet committed (in memory). Only a new instance of a study of the
 * sending center (or a new study) is journaled. Anything else — another center's study (refused
 * and audited), a re-sent instance (same or other bytes) — goes through the index writer and
 * waits for the index, exactly as without the journal; an instance whose study or SOP instance is
 * still waiting to be committed waits for that commit first, and is then decided again. Every
 * ingest, journaled or not, is "admitted" until its row is committed, so two ingests never decide
 * on the same study or instance from stale facts.
 */

/** Records in one index transaction at most. */
const MAX_BATCH = 256;
/** A record waits at most this long for its batch: QIDO sees an acknowledged instance within it. */
const MAX_DELAY_MS = 100;

interface Waiter {
  centerId: number;
  count: number;
  settled: Promise<void>;
  resolve(): void;
}

/** An ingest that was admitted: it holds its study and SOP instance until `release`. */
export interface Admission {
  /** Whether the instance may be acknowledged from the journal (a new instance the index takes). */
  journal: boolean;
  release(): void;
}

interface Queued {
  record: JournalRecord;
  release(): void;
}

export interface JournalLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const studyKey = (row: IndexRow) => `${row.groupId}\n${row.studyInstanceUid}`;
const sopKey = (row: IndexRow) => `${row.groupId}\n${row.studyInstanceUid}\n${row.sopInstanceUid}`;

export class JournalIndexer {
  private readonly studiesWaiting = new Map<string, Waiter>();
  private readonly sopsWaiting = new Map<string, Waiter>();
  /** Incremented whenever admitted rows are released: a read older than that may be stale. */
  private epoch = 0;
  /** Records appended and neither indexed nor given up: the journal's position stays below them. */
  private readonly outstanding = new Set<number>();
  private queue: Queued[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private idle: Array<() => void> = [];
  private stopped = false;
  /** Batches written and records in them (tests and the bench read these). */
  readonly stats = { batches: 0, records: 0, largestBatch: 0, notStored: 0, failed: 0 };

  constructor(
    private readonly index: InstanceIndex,
    readonly journal: IngestJournal,
    private readonly log?: JournalLog,
  ) {}

  /**
   * Decides, before anything is acknowledged, whether the index will take `row` as a new
   * instance; holds its study and SOP instance until `release` (after its commit).
   */
  async admit(row: IndexRow): Promise<Admission> {
    for (;;) {
      const epoch = this.epoch;
      const found = await this.index.admissionFacts(row);
      // Rows committed while we read: read again (what we read may be missing them).
      if (this.epoch !== epoch) continue;
      const sopWaiting = this.sopsWaiting.get(sopKey(row));
      if (sopWaiting) {
        await sopWaiting.settled;
        continue;
      }
      const studyWaiting = this.studiesWaiting.get(studyKey(row));
      if (studyWaiting && studyWaiting.centerId !== row.centerId) {
        await studyWaiting.settled;
        continue;
      }
      const journal =
        (found === undefined || (found.centerId === row.centerId && found.sha256 === null)) &&
        row.reportStatusId == null;
      return { journal, release: this.hold(row) };
    }
  }

  private hold(row: IndexRow): () => void {
    const take = (map: Map<string, Waiter>, key: string) => {
      let waiter = map.get(key);
      if (!waiter) {
        let resolve!: () => void;
        const settled = new Promise<void>((r) => (resolve = r));
        map.set(key, (waiter = { centerId: row.centerId, count: 0, settled, resolve }));
      }
      waiter.count++;
      return () => {
        if (--waiter.count > 0) return;
        map.delete(key);
        waiter.resolve();
      };
    };
    const releaseStudy = take(this.studiesWaiting, studyKey(row));
    const releaseSop = take(this.sopsWaiting, sopKey(row));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.epoch++;
      releaseSop();
      releaseStudy();
    };
  }

  /**
   * Appends an admitted instance's record while its blob is made durable (`blobDurable`), and
   * resolves once both are: the instance may then be acknowledged, and goes to the indexer, which
   * releases the admission after the record's batch committed. Rejects when either fails (the
   * admission is then the caller's to release); a record synced beside a blob that never became
   * durable is not indexed: not here, and on replay only when its blob is whole.
   */
  async append(
    row: IndexRow,
    admission: Admission,
    blobDurable: Promise<unknown> = Promise.resolve(),
  ): Promise<void> {
    const { seq, synced } = this.journal.append(row);
    this.outstanding.add(seq);
    try {
      await Promise.all([synced, blobDurable]);
    } catch (error) {
      this.outstanding.delete(seq);
      throw error;
    }
    this.enqueue({ record: { seq, row }, release: admission.release });
  }

  /**
   * The position a batch may record: every record up to it is indexed or was never acknowledged.
   * Records still waiting for their blob or their turn keep it below them.
   */
  private positionAfter(batch: readonly Queued[]): number {
    const inBatch = new Set(batch.map((q) => q.record.seq));
    let lowest = Infinity;
    for (const seq of this.outstanding) if (!inBatch.has(seq) && seq < lowest) lowest = seq;
    const highest = Math.max(...inBatch);
    return Math.min(highest, lowest - 1);
  }

  private enqueue(item: Queued): void {
    this.queue.push(item);
    if (this.running) return;
    if (this.queue.length >= MAX_BATCH) {
      this.run();
      return;
    }
    this.timer ??= setTimeout(() => this.run(), MAX_DELAY_MS);
  }

  private run(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.running) return;
    this.running = (async () => {
      try {
        while (this.queue.length > 0) await this.writeBatch(this.queue.splice(0, MAX_BATCH));
      } finally {
        this.running = undefined;
        for (const done of this.idle.splice(0)) done();
      }
    })();
  }

  private async writeBatch(batch: Queued[]): Promise<void> {
    const journal = { id: this.journal.id, position: this.positionAfter(batch) };
    try {
      const committed = await this.index.createInstances(
        batch.map((q) => q.record.row),
        () => Promise.resolve(),
        { journal },
      );
      await this.index.makeDurable(committed);
      committed.outcomes.forEach((outcome, i) => this.settle(batch[i]!, outcome.disposition));
      for (const q of batch) this.outstanding.delete(q.record.seq);
      this.stats.batches++;
      this.stats.records += batch.length;
      this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
    } catch (error) {
      if (batch.length === 1) {
        // One record the index refuses with an error (not a decision): it stays in the journal's
        // segment until the position passes it; the blob stays for the orphan sweep.
        this.stats.failed++;
        this.log?.error(
          { err: error, seq: journal.position, sopInstanceUid: batch[0]!.record.row.sopInstanceUid },
          'ingest journal: an acknowledged instance could not be indexed',
        );
        batch[0]!.release();
        this.outstanding.delete(batch[0]!.record.seq);
        await this.index.createInstances([], () => Promise.resolve(), { journal }).catch(() => undefined);
        return;
      }
      // Nothing of it was committed: each record alone, in order.
      for (const item of batch) await this.writeBatch([item]);
      return;
    }
    await this.journal.release(journal.position).catch(() => undefined);
  }

  private settle(item: Queued, disposition: string): void {
    if (disposition !== 'STORED') {
      // A replayed record indexed before (SAME: its own row names its blob), or admitted as new
      // but decided otherwise (another process on the same database took the study meanwhile):
      // the index keeps what it had. The copy is not deleted here, as it may be the indexed one;
      // the orphan sweep deletes it when no row names it.
      this.stats.notStored++;
      if (disposition !== 'SAME')
        this.log?.warn(
          { seq: item.record.seq, sopInstanceUid: item.record.row.sopInstanceUid, disposition },
          'ingest journal: an acknowledged instance was not taken by the index',
        );
    }
    item.release();
  }

  /** Resolves once every record appended so far is indexed (tests, replay, stop). */
  drain(): Promise<void> {
    if (this.queue.length === 0 && !this.running) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.idle.push(resolve);
      this.run();
    });
  }

  /** Indexes records read from the journal (a replay), in batches, before ingests are taken. */
  async replay(records: readonly JournalRecord[]): Promise<void> {
    for (const record of records) {
      this.outstanding.add(record.seq);
      this.queue.push({ record, release: () => undefined });
    }
    await this.drain();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.drain();
    this.journal.close();
  }
}

const indexers = new WeakMap<Db, JournalIndexer>();

/** The journal of a database handle, when INGEST_ACK=journal started one (main.ts). */
export function journalIndexerOf(db: Db): JournalIndexer | undefined {
  return indexers.get(db);
}

/** The index's position of a journal (0: none indexed yet). */
export async function journalPosition(db: Db, journalId: string): Promise<number> {
  const [row] = await db
    .select({ position: ingestJournalPositions.position })
    .from(ingestJournalPositions)
    .where(eq(ingestJournalPositions.journalId, journalId));
  return row?.position ?? 0;
}

/**
 * Opens the journal under `dir`, indexes what it holds past the index's position (a replay) and
 * attaches it to the context's database: from now on C-STORE and STOW-RS instances are
 * acknowledged from it. Call before the DICOM and HTTP services take ingests.
 */
export async function startIngestJournal(
  ctx: Pick<AppContext, 'db' | 'blobs'>,
  opts: { dir: string; log?: JournalLog },
): Promise<{ indexer: JournalIndexer; replayed: number; skipped: number }> {
  const { journal, unindexed } = await IngestJournal.open(path.resolve(opts.dir), (id) =>
    journalPosition(ctx.db, id),
  );
  const indexer = new JournalIndexer(instanceIndexOf(ctx.db), journal, opts.log);
  // A record is synced beside its blob: one whose blob is not whole was never acknowledged.
  const whole: JournalRecord[] = [];
  for (const record of unindexed) if (await blobIsWhole(ctx.blobs, record.row)) whole.push(record);
  await indexer.replay(whole);
  indexers.set(ctx.db, indexer);
  return { indexer, replayed: whole.length, skipped: unindexed.length - whole.length };
}

/** The blob a record names is there, of its size and hash (read once per record, at replay only). */
async function blobIsWhole(blobs: BlobStore, row: IndexRow): Promise<boolean> {
  try {
    if ((await blobs.size(row.blobKey)) !== row.sizeBytes) return false;
    const bytes = await blobs.read(row.blobKey);
    return createHash('sha256').update(bytes).digest('hex') === row.sha256;
  } catch {
    return false;
  }
}

/** Detaches and stops the context's journal (server stop, tests). */
export async function stopIngestJournal(ctx: Pick<AppContext, 'db'>): Promise<void> {
  const indexer = indexers.get(ctx.db);
  if (!indexer) return;
  indexers.delete(ctx.db);
  await indexer.stop();
}
