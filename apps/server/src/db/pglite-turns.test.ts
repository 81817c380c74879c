import { type AddressInfo, type Socket, connect, createServer } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DatabaseTurns, databaseTurnsOf, takeTurns } from './pglite-turns.js';
import { bareTestPglite } from '../../test/test-app.js';

/**
 * PGlite's queries run on our thread. Queued ones must leave the event loop a turn between them, so
 * a socket (a health check) or a timer is served after one query, not after the whole queue.
 */
describe('PGlite calls take turns with the event loop', () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await bareTestPglite();
  });
  afterAll(() => client.close());

  /** Queues `count` queries, then notes how many had finished when a timer set at once first ran. */
  async function finishedBeforeATimer(count: number) {
    let finished = 0;
    const queries = Array.from({ length: count }, () =>
      client.query('select count(*) from generate_series(1, 20000)').then(() => (finished += 1)),
    );
    const atTimer = await new Promise<number>((resolve) => setTimeout(() => resolve(finished), 0));
    await Promise.all(queries);
    return atTimer;
  }

  it('runs queued queries back to back without turns (the reason for them)', async () => {
    expect(await finishedBeforeATimer(12)).toBe(12);
  });

  it('lets a timer run after at most a couple of queued queries', async () => {
    const turns = takeTurns(client);
    expect(databaseTurnsOf(client)).toBe(turns);
    expect(takeTurns(client)).toBe(turns);
    expect(await finishedBeforeATimer(12)).toBeLessThanOrEqual(2);
  });

  it('keeps answers, errors and transactions as before', async () => {
    takeTurns(client);
    const [one, failed, inTransaction] = await Promise.allSettled([
      client.query<{ n: number }>('select 1 as n'),
      client.query('select * from no_such_table'),
      client.transaction(async (tx) => {
        await tx.exec('create temporary table turn_check (n int)');
        await tx.query('insert into turn_check values (7)');
        return (await tx.query<{ n: number }>('select n from turn_check')).rows[0]!.n;
      }),
    ]);
    expect(one).toMatchObject({ status: 'fulfilled', value: { rows: [{ n: 1 }] } });
    expect(failed).toMatchObject({
      status: 'rejected',
      reason: { message: expect.stringMatching(/no_such_table/) },
    });
    expect(inTransaction).toEqual({ status: 'fulfilled', value: 7 });
    expect((await client.sql<{ n: number }>`select ${2}::int as n`).rows).toEqual([{ n: 2 }]);
  });
});

describe('DatabaseTurns', () => {
  it('starts a call at once when none runs, else in arrival order, and says how long the oldest waited', async () => {
    const turns = new DatabaseTurns();
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = turns.run(async () => {
      order.push('first started');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      order.push('first done');
    });
    expect(order).toEqual([]); // started in a microtask
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual(['first started']);
    const second = turns.run(async () => void order.push('second'));
    const third = turns.run(async () => {
      throw new Error('third failed');
    });
    const fourth = turns.run(async () => 4);
    expect(turns.waitingCount).toBe(3);
    expect(turns.oldestWaitMs()).toBeGreaterThanOrEqual(0);
    expect(turns.oldestWaitMs(performance.now() + 1_000)).toBeGreaterThanOrEqual(1_000);

    releaseFirst();
    await first;
    await second;
    await expect(third).rejects.toThrow('third failed');
    expect(await fourth).toBe(4);
    expect(order).toEqual(['first started', 'first done', 'second']);
    expect(turns.waitingCount).toBe(0);
    expect(turns.oldestWaitMs()).toBe(0);
  });
});

describe('the database time of one loop turn', () => {
  /** A call that holds the thread as a PGlite statement does. */
  const statement = (ms: number) => async () => {
    const end = performance.now() + ms;
    while (performance.now() < end);
  };

  /** Runs `count` calls one after another (each asked when the last ended); how many ended before a timer set at once ran. */
  async function endedBeforeATimer(turns: DatabaseTurns, count: number, ms: number) {
    let ended = 0;
    const timer = new Promise<number>((resolve) => setTimeout(() => resolve(ended), 0));
    for (let i = 0; i < count; i += 1) {
      await turns.run(statement(ms));
      ended += 1;
    }
    return timer;
  }

  it('lets the loop turn between calls that follow one another once the turn has used its budget', async () => {
    // Each call finds the database free: without a budget all ten ran before the timer (the requests
    // of many sockets read in one turn did so too).
    expect(await endedBeforeATimer(new DatabaseTurns(), 10, 3)).toBeLessThanOrEqual(2);
  });

  it('runs short calls that follow one another without waiting for a turn each', async () => {
    const turns = new DatabaseTurns();
    let turnsTaken = 0;
    const counting = setInterval(() => (turnsTaken += 1), 0);
    try {
      for (let i = 0; i < 200; i += 1) await turns.run(async () => undefined);
      // 200 calls of nothing fit in a budget or a few: not one loop turn (a 1 ms timer) each.
      expect(turnsTaken).toBeLessThan(20);
    } finally {
      clearInterval(counting);
    }
  });
});

describe('a call asked ahead', () => {
  it('starts after the call that runs, before the calls already waiting', async () => {
    const turns = new DatabaseTurns();
    const order: string[] = [];
    let release!: () => void;
    const running = turns.run(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      order.push('running');
    });
    const waiting = [1, 2, 3].map((n) => turns.run(async () => void order.push(`waiting ${n}`)));
    const ahead = turns.run(async () => void order.push('ahead'), { ahead: true });
    expect(turns.waitingCount).toBe(4);
    await Promise.resolve();
    await Promise.resolve();
    release();
    await Promise.all([running, ahead, ...waiting]);
    expect(order).toEqual(['running', 'ahead', 'waiting 1', 'waiting 2', 'waiting 3']);
    expect(turns.waitingCount).toBe(0);
  });

  it('starts at once when nothing runs', async () => {
    const turns = new DatabaseTurns();
    expect(await turns.run(async () => 'now', { ahead: true })).toBe('now');
  });
});

describe('connections that arrive while calls wait', () => {
  /**
   * Node accepts one new connection per event-loop turn (libuv since 1.45), and each waiting call
   * takes one turn: a burst of connections was accepted one per call (200 connections on the study
   * list: new ones, a health check's included, waited ~10 s to be accepted though the loop kept
   * turning). The turns now let the loop accept the whole burst before the next call.
   */
  it('are accepted all before the next call, not one per call', async () => {
    const turns = new DatabaseTurns();
    let finished = 0;
    const acceptedAfter: number[] = [];
    const accepted: Socket[] = [];
    const server = createServer((socket) => {
      acceptedAfter.push(finished);
      accepted.push(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const unwatch = turns.watchAccepts(server);
    const { port } = server.address() as AddressInfo;
    // A call holds the thread as a PGlite statement does.
    const statement = () => {
      const end = performance.now() + 3;
      while (performance.now() < end);
      finished += 1;
    };
    const calls = Array.from({ length: 40 }, () => turns.run(async () => statement()));
    const clients = Array.from({ length: 20 }, () => connect(port, '127.0.0.1'));
    try {
      await vi.waitFor(() => expect(acceptedAfter).toHaveLength(20), { timeout: 5_000 });
      await Promise.all(calls);
      expect(finished).toBe(40);
      expect(Math.max(...acceptedAfter) - Math.min(...acceptedAfter)).toBeLessThanOrEqual(2);
    } finally {
      unwatch();
      for (const socket of [...clients, ...accepted]) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
