import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';

/**
 * PGlite runs its WASM on our thread, so a query holds the event loop for its whole run, and its own
 * mutex hands the database to the next query in a microtask: queued queries ran back to back while
 * sockets and timers waited (200 connections on the study list: a health check of 130 ms at p50,
 * 1 s at worst, with calls finishing one after another). Here each top-level call (`query`, `exec`,
 * `transaction`; `sql` goes through `query`) takes its turn in arrival order, and a waiting call gets
 * its turn from `setImmediate`, after the event loop has read its sockets: one database call per
 * loop turn under load, none delayed when the database is free. A transaction holds its turn to its
 * end, as PGlite's mutex did. Only public methods are wrapped.
 */
export class DatabaseTurns {
  private readonly waiting: Array<{ since: number; start: () => void }> = [];
  /** Calls asked `ahead`: each starts before any of `waiting` (the health check's round-trip). */
  private readonly ahead: Array<() => void> = [];
  private running = false;

  /** How long the oldest call waiting for its turn has waited (0: none waits). */
  oldestWaitMs(now = performance.now()): number {
    const oldest = this.waiting[0];
    return oldest ? now - oldest.since : 0;
  }

  /** Calls waiting for their turn. */
  get waitingCount(): number {
    return this.waiting.length + this.ahead.length;
  }

  /**
   * Runs `call` in its turn. `ahead`: its turn is the next one, before the calls already waiting;
   * for a round-trip that must not wait behind the load it reports on (the health check's
   * `select 1`, which would otherwise wait for the whole line: seconds under load).
   */
  run<T>(call: () => Promise<T>, opts: { ahead?: boolean } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        Promise.resolve()
          .then(call)
          .then(resolve, reject)
          .finally(() => this.handOver());
      };
      if (!this.running) {
        this.running = true;
        start();
      } else if (opts.ahead) this.ahead.push(start);
      else this.waiting.push({ since: performance.now(), start });
    });
  }

  private handOver() {
    const next = this.ahead.shift() ?? this.waiting.shift()?.start;
    if (next) setImmediate(next);
    else this.running = false;
  }
}

const turnsOf = new WeakMap<PGlite, DatabaseTurns>();
/** The client's own `query`, before takeTurns wrapped it. */
const unwrappedQueryOf = new WeakMap<PGlite, PGlite['query']>();

/** Makes `client`'s calls take turns with the event loop (see DatabaseTurns); returns the turns. */
export function takeTurns(client: PGlite): DatabaseTurns {
  const existing = turnsOf.get(client);
  if (existing) return existing;
  const turns = new DatabaseTurns();
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((...args: Parameters<PGlite['query']>) =>
    turns.run(() => query(...args))) as PGlite['query'];
  client.exec = (...args: Parameters<PGlite['exec']>) => turns.run(() => exec(...args));
  client.transaction = ((...args: Parameters<PGlite['transaction']>) =>
    turns.run(() => transaction(...args))) as PGlite['transaction'];
  turnsOf.set(client, turns);
  unwrappedQueryOf.set(client, query);
  return turns;
}

/**
 * One `select 1` whose turn comes before the calls waiting for theirs: it still waits for the call
 * that runs (a statement cannot be cut short), never for the line behind it.
 */
export async function pingAhead(client: PGlite): Promise<void> {
  const turns = turnsOf.get(client);
  const query = unwrappedQueryOf.get(client);
  if (!turns || !query) await client.query('select 1');
  else await turns.run(() => query('select 1'), { ahead: true });
}

/** The turns of a client given to {@link takeTurns}, if any. */
export function databaseTurnsOf(client: unknown): DatabaseTurns | undefined {
  return client && typeof client === 'object' ? turnsOf.get(client as PGlite) : undefined;
}
