import { performance } from 'node:perf_hooks';
import { startWorkerBeside } from '../../worker-entry.js';

/** Index in the shared beats: when the main thread's event loop last ran a timer (epoch ms). */
export const BEAT_EVENT_LOOP = 0;
/** Index in the shared beats: when the database last answered `select 1` (epoch ms; 0 = never). */
export const BEAT_DATABASE = 1;

export interface HealthResponderData {
  beats: SharedArrayBuffer;
  host: string;
  port: number;
  maxStallMs: number;
}

export type HealthResponderMessage = { listening: number } | { error: string };

/** The responder's body: `eventLoopMs` and `databaseMs` are the ages of the last beats. */
export type HealthResponderAnswer =
  | { status: 'ok'; eventLoopMs: number; databaseMs: number | null }
  | {
      status: 'stalled';
      reason: 'event loop' | 'database';
      eventLoopMs: number;
      databaseMs: number | null;
    };

export interface HealthResponderOptions {
  /** 0: any free port (tests). */
  port: number;
  host: string;
  /** A beat older than this answers 503 (HEALTH_MAX_STALL_MS). */
  maxStallMs: number;
  /** One database round-trip (`select 1`); asked every `probeEveryMs`, one at a time. */
  probeDatabase: () => Promise<unknown>;
  probeEveryMs?: number;
  beatEveryMs?: number;
}

export interface HealthResponder {
  /** The port it listens on. */
  port: number;
  close(): Promise<void>;
}

/**
 * A health check that answers in milliseconds whatever the load, and tells the truth (security
 * issue §4; plugins/DECISIONS.md "Under load"). On PGlite the database runs on the main thread, so
 * while a statement runs nothing there (accepting a socket, answering /api/health) can; under 200
 * connections /api/health took seconds at worst. This listener lives on a worker thread of its own
 * (HEALTH_PORT) and answers from two beats the main thread writes to shared memory: its event loop
 * ran a timer, the database answered a `select 1` (asked on the main thread like any query, so it
 * waits in the same queue). Either older than `maxStallMs`: 503 naming which, never a 200 for a
 * server that has stopped.
 */
export async function startHealthResponder(opts: HealthResponderOptions): Promise<HealthResponder> {
  const beats = new BigInt64Array(new SharedArrayBuffer(2 * BigInt64Array.BYTES_PER_ELEMENT));
  const nowMs = () => BigInt(Math.round(performance.timeOrigin + performance.now()));
  Atomics.store(beats, BEAT_EVENT_LOOP, nowMs());
  const beat = setInterval(() => Atomics.store(beats, BEAT_EVENT_LOOP, nowMs()), opts.beatEveryMs ?? 50);
  beat.unref();

  let probing = false;
  const probe = () => {
    if (probing) return;
    probing = true;
    opts
      .probeDatabase()
      .then(
        () => Atomics.store(beats, BEAT_DATABASE, nowMs()),
        // A failed round-trip leaves the last good one to age: the responder says 'database'.
        () => undefined,
      )
      .finally(() => (probing = false));
  };
  probe();
  const prober = setInterval(probe, opts.probeEveryMs ?? 1_000);
  prober.unref();

  const data: HealthResponderData = {
    beats: beats.buffer as SharedArrayBuffer,
    host: opts.host,
    port: opts.port,
    maxStallMs: opts.maxStallMs,
  };
  const worker = startWorkerBeside(import.meta.url, 'health-responder-worker', { workerData: data });
  const stop = async () => {
    clearInterval(beat);
    clearInterval(prober);
    await worker.terminate();
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      worker.once('message', (message: HealthResponderMessage) =>
        'listening' in message ? resolve(message.listening) : reject(new Error(message.error)),
      );
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`health responder exited with code ${code}`)));
    });
    return { port, close: stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
