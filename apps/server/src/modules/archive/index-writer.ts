import type { AppContext } from '../../context.js';
import { type Db, instanceIndexOf } from '../../db/client.js';
import type { IndexOutcome, IndexRow, InstanceIndex } from '../../db/instance-index.js';
import { phaseClock } from './ingest-phases.js';
import { ingestsInFlight } from './ingests-in-flight.js';

export type { IndexDisposition, IndexOutcome, IndexRow } from '../../db/instance-index.js';

/**
 * The group commit of received instances into the index (ARCHIVE.md "group commit").
 *
 * Every instance is handed to the context's one writer together with a promise of its blob being
 * durable. The writer hands one batch at a time to the database's index (db/instance-index.ts);
 * whatever arrived while it ran becomes the next one. The index runs the batch's statements while
 * the blobs are still being synced, commits once every blob of the batch is durable, and the
 * writer then has the commit made durable. So a lone C-STORE association waits for
 * max(blob sync, statements) + one commit per instance, and four associations or a STOW request
 * whose parts are ingested side by side share a commit among the instances that arrived together.
 * Each caller's promise settles only after its batch is durable: nothing is acknowledged earlier,
 * and no committed row names a blob that is not on disk.
 *
 * When a batch fails (one bad row, a deadlock with another process) nothing of it was committed,
 * and each of its instances is written again in a transaction of its own: the good ones are
 * stored, the bad one gets its own error. A blob that could not be stored rolls its batch back and
 * the others are written again without it.
 */

/** Instances in one transaction at most: bounds a batch's message (each carries its JSON metadata). */
const MAX_BATCH = 64;

/** The instance's blob could not be made durable: its row was not committed. */
export class BlobNotDurable extends Error {
  constructor(readonly blobError: unknown) {
    super(blobError instanceof Error ? blobError.message : String(blobError));
  }
}

/** Thrown out of a batch whose statements ran but some blobs failed: those jobs, by index. */
class BlobsFailed extends Error {
  constructor(readonly failed: Map<number, unknown>) {
    super('some blobs of the batch could not be stored');
  }
}

interface Pending {
  row: IndexRow;
  /** Settles once the instance's blob is durable (or could not be made so). */
  durable: Promise<unknown>;
  resolve(outcome: IndexOutcome): void;
  reject(error: Error): void;
}

export class IndexWriter {
  private readonly index: InstanceIndex;
  private queue: Pending[] = [];
  private draining = false;
  /** Transactions committed and instances in them (tests and the bench read these). */
  readonly stats = { batches: 0, instances: 0, largestBatch: 0, retriedBatches: 0 };

  /** `target`: a database opened by db/client.ts (its engine's index), or an index itself. */
  constructor(target: Db | InstanceIndex) {
    this.index = 'createInstances' in target ? target : instanceIndexOf(target);
  }

  /**
   * Resolves once the instance's row is committed; rejects with the database's error, or with
   * {@link BlobNotDurable} when `durable` rejects. The statements may run while the blob is still
   * being synced; the commit waits for it, so a committed row always names a durable blob.
   */
  write(row: IndexRow, durable: Promise<unknown> = Promise.resolve()): Promise<IndexOutcome> {
    durable.catch(() => undefined);
    return new Promise<IndexOutcome>((resolve, reject) => {
      this.queue.push({ row, durable, resolve, reject });
      if (!this.draining) {
        this.draining = true;
        // Callers in the same tick (parts of one STOW request ready together) join the first batch.
        queueMicrotask(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        await this.writeBatch(batch);
      }
    } finally {
      this.draining = false;
    }
  }

  private async writeBatch(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await this.commit(batch);
      batch.forEach((p, i) => p.resolve(outcomes[i]!));
    } catch (error) {
      if (error instanceof BlobsFailed) {
        // Rolled back: the instances without a durable blob are refused, the others written again.
        for (const [i, blobError] of error.failed) batch[i]!.reject(new BlobNotDurable(blobError));
        const rest = batch.filter((_, i) => !error.failed.has(i));
        if (rest.length > 0) await this.writeBatch(rest);
        return;
      }
      if (batch.length === 1) {
        batch[0]!.reject(error as Error);
        return;
      }
      this.stats.retriedBatches++;
      // Nothing of the batch was committed: each instance again on its own.
      for (const pending of batch) {
        try {
          const [outcome] = await this.commit([pending]);
          pending.resolve(outcome!);
        } catch (alone) {
          pending.reject(
            alone instanceof BlobsFailed ? new BlobNotDurable(alone.failed.get(0)) : (alone as Error),
          );
        }
      }
    }
  }

  private async commit(batch: Pending[]): Promise<IndexOutcome[]> {
    const clock = phaseClock;
    const size = batch.length;
    let mark = clock ? performance.now() : 0;
    const lap = (phase: 'indexStatements' | 'blobDurableWait' | 'commit' | 'walSync') => {
      if (!clock) return;
      const now = performance.now();
      clock.add(phase, now - mark, size);
      mark = now;
    };
    clock?.add('batchSize', size);
    const committed = await this.index.createInstances(
      batch.map((p) => p.row),
      async () => {
        lap('indexStatements');
        const settled = await Promise.allSettled(batch.map((p) => p.durable));
        lap('blobDurableWait');
        const failed = new Map<number, unknown>();
        settled.forEach((s, i) => {
          if (s.status === 'rejected') failed.set(i, s.reason);
        });
        if (failed.size > 0) throw new BlobsFailed(failed);
      },
    );
    lap('commit');
    // A lone instance (one C-STORE association) waits for the sync with nothing else to do; with
    // other ingests under way this thread is theirs.
    await this.index.makeDurable(committed, { alone: size === 1 && ingestsInFlight.count <= 1 });
    lap('walSync');
    this.stats.batches++;
    this.stats.instances += size;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, size);
    return committed.outcomes;
  }
}

const writers = new WeakMap<Db, IndexWriter>();

/** The one writer of a database handle (one per app: every way in shares it). */
export function indexWriterOf(ctx: Pick<AppContext, 'db'>): IndexWriter {
  let writer = writers.get(ctx.db);
  if (!writer) writers.set(ctx.db, (writer = new IndexWriter(ctx.db)));
  return writer;
}
