import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { pgliteOf } from '../db/client.js';
import { databaseTurnsOf } from '../db/pglite-turns.js';
import { studyActionFixtures } from '../../test/study-actions.fixtures.js';
import { type TestApp, createTestApp } from '../../test/test-app.js';

/**
 * Security issue §4: under more load than the server can serve, API calls beyond a bound of calls in
 * progress are answered at once with 503 and Retry-After (the client retries later) instead of
 * queueing until clients time out, and /api/health still answers. The bound is set low here; the
 * calls in progress are held by a database lock the test takes and releases (no timing).
 */

const MAX_IN_FLIGHT = 2;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ maxInFlight: MAX_IN_FLIGHT });
});
afterAll(() => t.close());

const { createWorld, createStudy, signIn } = studyActionFixtures(() => t);

/** Holds the study table locked (PGlite: the whole database) until `release` is called. */
function holdStudyTable() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const done = t.db.transaction(async (tx) => {
    await tx.execute(sql`lock table report_statuses in access exclusive mode`);
    locked();
    await released;
  });
  return { isLocked, release: async () => (release(), await done) };
}

describe('a bound on API calls in progress', () => {
  it('answers 503 with Retry-After beyond it, keeps /api/health answering, and serves again after', async () => {
    const world = await createWorld();
    await createStudy(world);
    const { browser } = await signIn(world, ['ROLE_CENTER']);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    const lock = holdStudyTable();
    await lock.isLocked;
    // Bound-many list calls wait on the lock: they are in progress.
    const held = Array.from({ length: MAX_IN_FLIGHT }, () => browser.post('/api/report-status/', {}));
    await vi.waitFor(() => expect(t.app.apiLoad.inFlight()).toBe(MAX_IN_FLIGHT), { timeout: 10_000 });

    const refused = await browser.post('/api/report-status/', {});
    expect(refused.statusCode, refused.body).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.json()).toMatchObject({ errorStatusCode: 503, errorDescription: expect.any(String) });
    // Other calls too, sign-in included: the bound is the server's, not the route's.
    expect((await browser.get('/api/user/')).statusCode).toBe(503);

    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode, health.body).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });

    await lock.release();
    for (const res of await Promise.all(held)) expect(res.statusCode, res.body).toBe(200);
    expect(t.app.apiLoad.inFlight()).toBe(0);
    const after = await browser.post('/api/report-status/', {});
    expect(after.statusCode, after.body).toBe(200);
  });

  it('does not read a refused connection again until its Retry-After has passed', async () => {
    const world = await createWorld();
    const { browser } = await signIn(world, ['ROLE_CENTER']);
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // One keep-alive connection, as a client that asks again at once on the same socket.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ask = (path: string) =>
      new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
        const req = httpRequest(`${baseUrl}${path}`, { agent }, (res) => {
          res.resume();
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              retryAfter: res.headers['retry-after'] as string | undefined,
            }),
          );
        });
        req.on('error', reject);
        req.end();
      });
    const lock = holdStudyTable();
    try {
      await lock.isLocked;
      const held = Array.from({ length: MAX_IN_FLIGHT }, () => browser.post('/api/report-status/', {}));
      await vi.waitFor(() => expect(t.app.apiLoad.inFlight()).toBe(MAX_IN_FLIGHT), { timeout: 10_000 });

      const refused = await ask('/api/user/');
      expect(refused).toEqual({ status: 503, retryAfter: '1' });
      let againAnswered = false;
      const again = ask('/api/user/').then((res) => ((againAnswered = true), res));
      // Two round-trips on other connections: the server has read every socket that was readable.
      for (let i = 0; i < 2; i += 1) expect((await fetch(`${baseUrl}/api/health`)).status).toBe(200);
      expect(againAnswered).toBe(false);

      await lock.release();
      for (const res of await Promise.all(held)) expect(res.statusCode, res.body).toBe(200);
      // Read once its second has passed: signed out, so 401.
      expect((await again).status).toBe(401);
    } finally {
      agent.destroy();
      await lock.release();
    }
  });

  it('frees the slot of a call that failed', async () => {
    const world = await createWorld();
    const { browser } = await signIn(world, ['ROLE_CENTER']);
    for (let i = 0; i < MAX_IN_FLIGHT + 2; i += 1) {
      expect((await browser.post('/api/report-status/urgent/2147483000')).statusCode).toBe(404);
    }
    expect(t.app.apiLoad.inFlight()).toBe(0);
    expect((await browser.post('/api/report-status/', {})).statusCode).toBe(200);
  });

  it('sheds a call that waited behind a long busy stretch of a loaded event loop, not on a quiet one', async () => {
    // The database in our thread (PGlite) keeps the count near 1: the queue is the unread sockets.
    const busy = await createTestApp({ maxInFlight: 0, maxBusyMs: 50 });
    try {
      // A whole call (a refused sign-in: body, rate limit and account look-up, 401) on the busy app.
      const call = () =>
        busy.app.inject({
          method: 'POST',
          url: '/api/do-login',
          headers: { 'x-device-id': 'busy-test', 'x-device-name': 'Test browser' },
          payload: { email: 'nobody@test.local', password: 'wrong' },
        });
      // Holds the thread like a long query would; the call is read after it (inject dispatches later).
      const spin = (ms: number) => {
        const end = performance.now() + ms;
        while (performance.now() < end);
      };

      // The first measured second covers the app's own start, which on a loaded machine kept the
      // loop busy past half of it: the quiet check then got 503. It starts once a second measured
      // after the start (utilization above 0) shows a quiet loop.
      await vi.waitFor(
        () => {
          expect(busy.app.apiLoad.utilization()).toBeGreaterThan(0);
          expect(busy.app.apiLoad.utilization()).toBeLessThan(0.5);
        },
        { timeout: 10_000, interval: 20 },
      );
      // Quiet loop: one long stretch sheds nothing.
      const quiet = call();
      spin(120);
      expect((await quiet).statusCode).toBe(401);

      // A loop busy for most of the last second: the call read after a stretch is shed.
      await vi.waitFor(
        async () => {
          spin(200);
          await new Promise((resolve) => setImmediate(resolve));
          expect(busy.app.apiLoad.utilization()).toBeGreaterThan(0.5);
        },
        { timeout: 20_000, interval: 0 },
      );
      const loaded = call();
      spin(120);
      const res = await loaded;
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      // The health check is never shed.
      const health = busy.app.inject({ method: 'GET', url: '/api/health' });
      spin(120);
      expect((await health).statusCode).toBe(200);
    } finally {
      await busy.close();
    }
  });

  // PostgreSQL serves calls on several connections at once: there is no line to jump there.
  it.skipIf(Boolean(inject('postgresUrl')))(
    'checks the database ahead of the calls waiting for it, not behind them (PGlite)',
    async () => {
      // A fresh server: its health check has never reached the database, so the first one must.
      const fresh = await createTestApp();
      try {
        const turns = databaseTurnsOf(pgliteOf(fresh.db));
        if (!turns) throw new Error('a PGlite test app takes turns');
        let release!: () => void;
        const held = fresh.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          await new Promise<void>((resolve) => (release = resolve));
        });
        await vi.waitFor(() => expect(release).toBeTypeOf('function'));
        // Each waiting call notes, as its turn starts, what still waits: the health check's
        // round-trip must have had its turn already (the order of the answers would not say, since
        // calls that fit one loop turn's budget run back to back).
        const stillWaiting: number[] = [];
        const waiting = [1, 2, 3].map((n) =>
          fresh.db.transaction(async (tx) => {
            stillWaiting.push(turns.waitingCount);
            await tx.execute(sql`select ${n}::int`);
          }),
        );
        const health = fresh.app.inject({ method: 'GET', url: '/api/health' });
        await vi.waitFor(() => expect(turns.waitingCount).toBe(4));
        release();
        await held;
        expect((await health).statusCode).toBe(200);
        await Promise.all(waiting);
        expect(stillWaiting).toEqual([2, 1, 0]);
      } finally {
        await fresh.close();
      }
    },
  );
});
