import type { Server } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';

/**
 * PGlite runs its WASM on our thread, so a query holds the event loop for its whole run, and its own
 * mutex hands the database to the next query in a microtask: queued queries ran back to back while
 * sockets and timers waited (200 connections on the study list: a health check of 130 ms at p50,
 * 1 s at worst, with calls finishing one after another). Here each top-level call (`query`, `exec`,
 * `transaction`; `sql` goes through `query`) takes its turn in arrival order. A transaction holds
 * its turn to its end, as PGlite's mutex did. Only public methods are wrapped.
 *
 * The calls of one event-loop turn may use the database for TURN_BUDGET_MS; after that, a call
 * waits for the next turn (`setImmediate`, after the loop has read its sockets and run its timers).
 * A call that arrives on a free database within the budget starts at once: a request's short
 * statements run back to back, and under load each turn does about one call. A budget per turn,
 * not only a queue: calls that arrived one after another in the same turn (the requests of 200
 * sockets read at once) found the database free each time and ran all in that turn.
 *
 * Node accepts one new connection per loop turn (libuv ≥ 1.45 accepts once and waits for the next
 * poll), so one turn per call also meant one new connection per call: a burst of 200 connections
 * took ~200 calls (~10 s) to be accepted, new health checks behind them. On the servers given to
 * {@link DatabaseTurns.watchAccepts}, a waiting call lets the loop turn again while turns accept
 * connections, before its own (up to MAX_ACCEPT_TURNS).
 */
export class DatabaseTurns {
  private readonly waiting: Array<{ since: number; start: () => void }> = [];
  /** Calls asked `ahead`: each starts before any of `waiting` (the health check's round-trip). */
  private readonly ahead: Array<() => void> = [];
  /** A call runs, or a turn is on its way to start the next one. */
  private busy = false;
  /** When this loop turn's first call started; undefined: none has in this turn. */
  private turnStartedAt: number | undefined;
  /** Connections accepted by the watched servers, ever, and as the last turn saw them. */
  private accepted = 0;
  private acceptedAtLastTurn = 0;

  /** Counts `server`'s accepted connections (see the class); returns the way to stop. */
  watchAccepts(server: Pick<Server, 'on' | 'off'>): () => void {
    const count = () => {
      this.accepted += 1;
    };
    server.on('connection', count);
    return () => void server.off('connection', count);
  }

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
        this.noteTurnStart();
        Promise.resolve()
          .then(call)
          .then(resolve, reject)
          .finally(() => this.handOver());
      };
      if (!this.busy && !this.budgetSpent()) {
        this.busy = true;
        start();
        return;
      }
      if (opts.ahead) this.ahead.push(start);
      else this.waiting.push({ since: performance.now(), start });
      if (!this.busy) {
        this.busy = true;
        this.nextTurn(MAX_ACCEPT_TURNS);
      }
    });
  }

  private noteTurnStart() {
    if (this.turnStartedAt !== undefined) return;
    this.turnStartedAt = performance.now();
    // Runs in this loop turn's check phase, before a turn asked for after it.
    setImmediate(() => {
      this.turnStartedAt = undefined;
    });
  }

  private budgetSpent(): boolean {
    return this.turnStartedAt !== undefined && performance.now() - this.turnStartedAt >= TURN_BUDGET_MS;
  }

  private handOver() {
    const next = this.budgetSpent() ? undefined : (this.ahead.shift() ?? this.waiting.shift()?.start);
    if (next) next();
    else if (this.waitingCount > 0) this.nextTurn(MAX_ACCEPT_TURNS);
    else this.busy = false;
  }

  /** The next call after one loop turn, or after more while turns accept connections. */
  private nextTurn(turnsLeft: number) {
    setImmediate(() => {
      // The check phase: this turn's poll (and its one accept, if any) is done.
      const acceptedMeanwhile = this.accepted !== this.acceptedAtLastTurn;
      this.acceptedAtLastTurn = this.accepted;
      if (acceptedMeanwhile && turnsLeft > 1) return this.nextTurn(turnsLeft - 1);
      // Chosen now, not before the turns: a call asked ahead meanwhile goes first.
      const next = this.ahead.shift() ?? this.waiting.shift()?.start;
      if (next) next();
      else this.busy = false;
    });
  }
}

/**
 * Database time the calls of one event-loop turn may take before the next call waits for the next
 * turn: the loop's I/O and timers wait at most about this plus one call. A short statement takes
 * ~0.1–0.5 ms, so a request's statements mostly run in one turn when the database is free.
 */
const TURN_BUDGET_MS = 2;

/**
 * Loop turns a waiting call gives to a burst of new connections at most (one accepted per turn):
 * each such turn is cheap (an accept and the new socket's first read), and a flood of connections
 * must still leave the database its turns.
 */
const MAX_ACCEPT_TURNS = 128;

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
