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
  private running = false;

  /** How long the oldest call waiting for its turn has waited (0: none waits). */
  oldestWaitMs(now = performance.now()): number {
    const oldest = this.waiting[0];
    return oldest ? now - oldest.since : 0;
  }

  /** Calls waiting for their turn. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  run<T>(call: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        Promise.resolve()
          .then(call)
          .then(resolve, reject)
          .finally(() => this.handOver());
      };
      if (this.running) this.waiting.push({ since: performance.now(), start });
      else {
        this.running = true;
        start();
      }
    });
  }

  private handOver() {
    const next = this.waiting.shift();
    if (next) setImmediate(next.start);
    else this.running = false;
  }
}

const turnsOf = new WeakMap<PGlite, DatabaseTurns>();

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
  return turns;
}

/** The turns of a client given to {@link takeTurns}, if any. */
export function databaseTurnsOf(client: unknown): DatabaseTurns | undefined {
  return client && typeof client === 'object' ? turnsOf.get(client as PGlite) : undefined;
}
