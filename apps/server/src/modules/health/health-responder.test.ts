import { Worker } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeTurns } from '../../db/pglite-turns.js';
import {
  type HealthResponder,
  type HealthResponderAnswer,
  startHealthResponder,
} from './health-responder.js';
import { bareTestPglite } from '../../../test/test-app.js';

/** A beat older than this is a stall (the tests' limit; production's is HEALTH_MAX_STALL_MS). */
const STALL_MS = 300;

/**
 * The health check must answer whatever the main thread is doing, and never say 'ok' for a main
 * thread or a database that has stopped (security issue §4). PGlite as in production: its calls
 * take turns (db/pglite-turns.ts) on this thread.
 */
describe('health responder on its own thread', () => {
  let client: PGlite;
  let responder: HealthResponder;
  let url: string;
  beforeAll(async () => {
    client = await bareTestPglite();
    takeTurns(client);
    responder = await startHealthResponder({
      port: 0,
      host: '127.0.0.1',
      maxStallMs: STALL_MS,
      probeDatabase: () => client.query('select 1'),
      probeEveryMs: 50,
    });
    url = `http://127.0.0.1:${responder.port}/health`;
  });
  afterAll(async () => {
    await responder?.close();
    await client?.close();
  });

  const ask = async () => {
    const response = await fetch(url);
    return { code: response.status, body: (await response.json()) as HealthResponderAnswer };
  };

  it('answers ok with the ages of both beats while the server runs', async () => {
    await expect.poll(ask).toMatchObject({ code: 200, body: { status: 'ok' } });
    const { body } = await ask();
    expect(body.eventLoopMs).toBeLessThanOrEqual(STALL_MS);
    expect(body.databaseMs).not.toBeNull();
  });

  it('answers while the main thread is blocked, and says the event loop stalled', async () => {
    await expect.poll(ask).toMatchObject({ code: 200 });
    // A client on another thread asks until it gets a 503, then wakes this thread, which is blocked
    // (Atomics.wait: no timer, no socket, no database call runs here) until then.
    const woken = new Int32Array(new SharedArrayBuffer(4));
    const asker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
      const woken = new Int32Array(workerData.woken);
      (async () => {
        for (;;) {
          const answer = await fetch(workerData.url).then(
            async (r) => ({ code: r.status, body: await r.json() }),
            (error) => ({ code: 0, body: String(error) }),
          );
          if (answer.code === 503) {
            parentPort.postMessage(answer);
            Atomics.store(woken, 0, 1);
            Atomics.notify(woken, 0);
            return;
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      })();`,
      { eval: true, workerData: { url, woken: woken.buffer } },
    );
    const answered = new Promise<{ code: number; body: HealthResponderAnswer }>((resolve, reject) => {
      asker.once('message', resolve);
      asker.once('error', reject);
    });
    try {
      // 'timed-out' would mean no 503 came while this thread was blocked.
      expect(Atomics.wait(woken, 0, 0, 60_000)).toBe('ok');
      const { code, body } = await answered;
      expect(code).toBe(503);
      expect(body).toMatchObject({ status: 'stalled', reason: 'event loop' });
      expect(body.eventLoopMs).toBeGreaterThan(STALL_MS);
    } finally {
      await asker.terminate();
    }
    await expect.poll(ask).toMatchObject({ code: 200, body: { status: 'ok' } });
  });

  it('says the database stalled while a transaction holds it, the event loop running', async () => {
    await expect.poll(ask).toMatchObject({ code: 200 });
    await client.transaction(async () => {
      await expect.poll(ask).toMatchObject({ code: 503, body: { status: 'stalled', reason: 'database' } });
      const { body } = await ask();
      expect(body.eventLoopMs).toBeLessThanOrEqual(STALL_MS);
    });
    await expect.poll(ask).toMatchObject({ code: 200, body: { status: 'ok' } });
  });
});
