import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorkerBeside } from '../../worker-entry.js';
import type { Preparation } from './ingest-prepare.js';
import type { PrepareAnswer, PrepareRequest } from './ingest-worker.js';

/**
 * A small pool of ingest workers (ARCHIVE.md "ingest workers"): the per-instance CPU of an ingest
 * (parse, sha256, PS3.18 JSON, and for STOW and upload parts the file read) runs beside the main
 * thread, which keeps DIMSE, HTTP and the index writer. `INGEST_WORKERS` sets the size (default:
 * the cores but one, at least 1, at most 2; 0 runs everything on the main thread). Each worker
 * costs ~30–45 MB of RSS (its heap, its malloc arena, the parser and the tag dictionary).
 *
 * A worker takes requests only once it said it is loaded; until then, or when none is, `prepare`
 * answers null and the caller does the work itself. Workers are unref'd: they never keep the
 * process alive. One that dies takes its requests with it (rejected) and is replaced on the next
 * request.
 */

interface Pending {
  resolve(answer: { preparation: Preparation; bytes?: Uint8Array }): void;
  reject(error: Error): void;
}

interface PooledWorker {
  worker: Worker;
  ready: boolean;
  pending: Map<number, Pending>;
}

/** Consecutive workers that died before they were ready: past this the pool stops spawning. */
const MAX_FAILED_STARTS = 3;

function spawn(): Worker {
  // build.mjs puts ingest-worker.js beside main.js; from source it is TypeScript (worker-entry.ts).
  return startWorkerBeside(import.meta.url, 'ingest-worker');
}

class IngestPool {
  private readonly workers: PooledWorker[] = [];
  private nextId = 1;
  private failedStarts = 0;
  private readyWaiters: Array<(ready: boolean) => void> = [];
  /** Requests a worker answered (tests check the workers were used). */
  answered = 0;

  constructor(readonly size: number) {}

  /** Starts the workers now (they load in the background); `prepare` answers null until one is ready. */
  warm(): void {
    while (this.workers.length < this.size && this.failedStarts < MAX_FAILED_STARTS) this.start();
  }

  private start(): void {
    const entry: PooledWorker = { worker: spawn(), ready: false, pending: new Map() };
    const { worker } = entry;
    worker.unref();
    worker.on('message', (message: PrepareAnswer) => {
      if ('ready' in message) {
        entry.ready = true;
        this.failedStarts = 0;
        this.wake(true);
        return;
      }
      this.answered++;
      const pending = entry.pending.get(message.id);
      entry.pending.delete(message.id);
      pending?.resolve(message.bytes ? { preparation: message.preparation, bytes: message.bytes } : message);
    });
    const gone = (error: Error) => {
      const at = this.workers.indexOf(entry);
      if (at < 0) return;
      this.workers.splice(at, 1);
      if (!entry.ready && ++this.failedStarts >= MAX_FAILED_STARTS) this.wake(false);
      for (const pending of entry.pending.values()) pending.reject(error);
      entry.pending.clear();
      // Someone waits for a ready worker: try again now (else the next request does).
      if (this.readyWaiters.length > 0) this.warm();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`ingest worker exited with code ${code}`)));
    this.workers.push(entry);
  }

  private wake(ready: boolean): void {
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const wake of waiters) wake(ready);
  }

  /** Starts the workers and resolves true once one is ready, false when none can start (or size 0). */
  ready(): Promise<boolean> {
    this.warm();
    if (this.workers.some((w) => w.ready)) return Promise.resolve(true);
    if (this.workers.length === 0) return Promise.resolve(false);
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /**
   * The preparation of one instance in the least busy ready worker, or null when none is ready.
   * Bytes in shared memory are read in place; others are transferred (this thread cannot read
   * them until the answer brings them back).
   */
  prepare(
    request: Omit<PrepareRequest, 'id'>,
  ): Promise<{ preparation: Preparation; bytes?: Uint8Array }> | null {
    this.warm();
    let best: PooledWorker | undefined;
    for (const w of this.workers) if (w.ready && (!best || w.pending.size < best.pending.size)) best = w;
    if (!best) return null;
    const id = this.nextId++;
    const chosen = best;
    if (chosen.pending.size === 0) chosen.worker.ref();
    // Shared memory (shared-bytes.ts) is read in place; bytes that own their buffer are moved
    // there and back; others are copied first (Uint8Array's slice: Buffer's would not copy).
    let bytes = request.bytes;
    let transfer: ArrayBuffer[] = [];
    if (bytes && !(bytes.buffer instanceof SharedArrayBuffer)) {
      if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength)
        bytes = Uint8Array.prototype.slice.call(bytes);
      transfer = [bytes.buffer as ArrayBuffer];
    }
    return new Promise((resolve, reject) => {
      const settle = () => {
        if (chosen.pending.size === 0) chosen.worker.unref();
      };
      chosen.pending.set(id, {
        resolve: (answer) => {
          settle();
          resolve(answer);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      chosen.worker.postMessage(
        { ...request, id, ...(bytes ? { bytes } : {}) } satisfies PrepareRequest,
        transfer,
      );
    });
  }
}

/** `INGEST_WORKERS` when set to a whole number. */
function configuredSize(): number | undefined {
  const configured = process.env.INGEST_WORKERS;
  if (configured === undefined || configured === '') return undefined;
  const n = Number(configured);
  return Number.isInteger(n) && n >= 0 ? Math.min(n, 16) : undefined;
}

function poolSize(): number {
  const configured = configuredSize();
  if (configured !== undefined) return configured;
  // The main thread keeps a core (DIMSE, HTTP, the index writer, PGlite): one worker on 2 cores.
  return Math.max(1, Math.min(2, availableParallelism() - 1));
}

/** The process's one pool (the workers are stateless: every app context may share them). */
export const ingestPool = new IngestPool(poolSize());

/**
 * Whether ingests into this database use the workers: `INGEST_WORKERS` decides, else the engine's
 * index (`ingestWorkersByDefault`). On PGlite not unless `INGEST_WORKERS` asks:
 * there the main thread also runs the database, each transaction costs it CPU, and offloading
 * made the index writer's group commits smaller (more transactions, more WAL syncs) for no gain
 * in main-thread CPU, while the worker's ~40 MB took the 4-association peak past 400 MB
 * (ARCHIVE.md, figures of 2026-11-22 05:00).
 */
export function ingestWorkersFor(engineDefault: boolean): boolean {
  return configuredSize() !== undefined ? ingestPool.size > 0 : engineDefault && ingestPool.size > 0;
}
