import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { DbHandle } from '../../db/client.js';
import { createTestApp, createTestWorld, signInAs, signInAt } from '../../../test/test-app.js';
import { LiveClient, durableTestDatabase, listeningApp } from '../../../test/live-client.js';
import { createTestStudy } from '../../../test/worklist-test-data.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';

/*
 * The stream across restarts and processes (issue 23 §4, §7): a resume with Last-Event-ID after a
 * server restart loses nothing; two servers on one PostgreSQL; an id committed after a higher one.
 */

const onPostgres = Boolean(inject('postgresUrl'));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function durable() {
  const database = await durableTestDatabase();
  cleanups.push(() => database.drop());
  return database;
}

async function server(handle: DbHandle) {
  const running = await listeningApp(handle);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await running.close();
    await handle.close();
  };
  cleanups.push(close);
  return { ...running, db: handle.db, close };
}

const assign = (
  browser: { post: (url: string, body: unknown) => Promise<{ statusCode: number; body: string }> },
  reportId: number,
  assignedTo: string,
) =>
  browser.post('/api/report-status/assign', { reportId, assignedTo }).then((res) => {
    expect(res.statusCode, res.body).toBe(200);
  });

describe('GET /api/live across restarts and processes', () => {
  it('resumes with Last-Event-ID after a server restart and loses nothing made meanwhile', async () => {
    const database = await durable();
    const first = await server(await database.open());
    const place = await createTestWorld(first.db);
    const center = await signInAt(first, place, ['ROLE_CENTER']);
    const assignor = await signInAt(first, place, ['ROLE_ASSIGNOR']);
    const doctor = await signInAt(first, place, ['ROLE_DOCTOR']);
    const rows = await Promise.all(
      [1, 2].map(
        async () =>
          (await createTestStudy(first.db, { groupId: place.group.id, centerId: place.center.id })).row,
      ),
    );

    const stream = await LiveClient.connect(first.baseUrl, center.browser);
    const resumeFrom = stream.lastEventId;
    expect(resumeFrom).toMatch(/^\d+$/);
    stream.close();
    // Made while the tab is away: one before the server stops, one after it is back.
    await assign(assignor.browser, rows[0]!.id, doctor.user.email);
    // The server's shutdown ends the streams still open (else close() would wait on them).
    const stillOpen = await LiveClient.connect(first.baseUrl, doctor.browser);
    await first.close();
    await stillOpen.waitForEnd();

    const second = await server(await database.open());
    const assignorAgain = await signInAs(second, assignor.user);
    await assign(assignorAgain, rows[1]!.id, doctor.user.email);
    // The session was stored: the tab's cookie still holds; EventSource sends its Last-Event-ID.
    const resumed = await LiveClient.connect(second.baseUrl, center.browser, { lastEventId: resumeFrom! });
    expect(resumed.studyEvents.map((e) => [e.reportStatusId, e.type])).toEqual([
      [rows[0]!.id, 'ASSIGNED'],
      [rows[1]!.id, 'ASSIGNED'],
    ]);
    expect(Number(resumed.lastEventId)).toBeGreaterThanOrEqual(
      Math.max(...resumed.studyEvents.map((e) => e.id)),
    );
    resumed.close();

    // A page opened anew passes it as a query; a resume point too far back is one `reset`.
    const again = await LiveClient.connect(second.baseUrl, center.browser, {
      query: `?lastEventId=${resumeFrom}`,
    });
    expect(again.studyEvents).toHaveLength(2);
    again.close();
    const future = await LiveClient.connect(second.baseUrl, center.browser, {
      query: '?lastEventId=999999999',
    });
    expect(future.messages.map((m) => m.event)).toEqual(['reset', 'ready']);
    future.close();
  });

  // PGlite runs one transaction at a time in one process: neither case can happen there.
  it.runIf(onPostgres)(
    'two servers on one PostgreSQL: a change made through one reaches a stream on the other',
    async () => {
      const database = await durable();
      const one = await server(await database.open());
      const two = await server(await database.open());
      const place = await createTestWorld(one.db);
      const assignor = await signInAt(one, place, ['ROLE_ASSIGNOR']);
      const doctor = await signInAt(two, place, ['ROLE_DOCTOR']);
      const { row } = await createTestStudy(one.db, { groupId: place.group.id, centerId: place.center.id });

      const onTwo = await LiveClient.connect(two.baseUrl, doctor.browser);
      await assign(assignor.browser, row.id, doctor.user.email);
      await onTwo.waitForStudy(row.id, 'ASSIGNED');
      onTwo.close();
    },
  );

  it('ends a stream after maxStreamMs, so its reconnect is checked again: a signed-out session gets 401', async () => {
    const t = await createTestApp({ live: { maxStreamMs: 300 } });
    cleanups.push(() => t.close());
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const place = await createTestWorld(t.db);
    const admin = await signInAt(t, place, ['ROLE_ADMIN']);
    const cookie = admin.browser.cookie;
    const stream = await LiveClient.connect(baseUrl, admin.browser);
    await stream.waitForEnd();
    const again = await LiveClient.connect(baseUrl, admin.browser, {
      lastEventId: stream.lastEventId!,
    });
    await again.waitForEnd();
    const out = await admin.browser.post('/api/do-logout');
    expect(out.statusCode, out.body).toBeLessThan(300);
    admin.browser.cookie = cookie;
    expect((await LiveClient.open(baseUrl, admin.browser)).status).toBe(401);
  });

  it.runIf(onPostgres)(
    'a dropped LISTEN connection loses nothing: it is opened again and what was missed is read',
    async () => {
      const database = await durable();
      const app = await server(await database.open());
      const place = await createTestWorld(app.db);
      const center = await signInAt(app, place, ['ROLE_CENTER']);
      const assignor = await signInAt(app, place, ['ROLE_ASSIGNOR']);
      const doctor = await signInAt(app, place, ['ROLE_DOCTOR']);
      const rows = await Promise.all(
        [1, 2].map(
          async () =>
            (await createTestStudy(app.db, { groupId: place.group.id, centerId: place.center.id })).row,
        ),
      );
      const stream = await LiveClient.connect(app.baseUrl, center.browser);
      const dropped = await app.db.execute(
        sql`select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = 'radflow-live' and datname = current_database()`,
      );
      expect((dropped as unknown as { rows: unknown[] }).rows).toHaveLength(1);
      await assign(assignor.browser, rows[0]!.id, doctor.user.email);
      await stream.waitForStudy(rows[0]!.id, 'ASSIGNED', 10_000);
      await assign(assignor.browser, rows[1]!.id, doctor.user.email);
      await stream.waitForStudy(rows[1]!.id, 'ASSIGNED', 10_000);
      stream.close();
    },
  );

  // PGlite runs one transaction at a time in one process: neither case can happen there.
  it.runIf(onPostgres)(
    'an event committed after a higher id is delivered too (a transaction held open while a later one commits)',
    async () => {
      const database = await durable();
      const app = await server(await database.open());
      const place = await createTestWorld(app.db);
      const center = await signInAt(app, place, ['ROLE_CENTER']);
      const assignor = await signInAt(app, place, ['ROLE_ASSIGNOR']);
      const doctor = await signInAt(app, place, ['ROLE_DOCTOR']);
      const slow = (await createTestStudy(app.db, { groupId: place.group.id, centerId: place.center.id }))
        .row;
      const fast = (await createTestStudy(app.db, { groupId: place.group.id, centerId: place.center.id }))
        .row;
      const stream = await LiveClient.connect(app.baseUrl, center.browser);

      let commit!: () => void;
      const held = new Promise<void>((resolve) => (commit = resolve));
      let inserted!: () => void;
      const insertedSignal = new Promise<void>((resolve) => (inserted = resolve));
      const slowTx = app.db.transaction(async (tx) => {
        await recordStudyEvent(tx, {
          type: 'URGENT_MARKED',
          reportStatusId: slow.id,
          actor: { label: 'test' },
          payload: null,
        });
        inserted();
        await held;
      });
      await insertedSignal;
      await assign(assignor.browser, fast.id, doctor.user.email);
      const later = JSON.parse((await stream.waitForStudy(fast.id, 'ASSIGNED')).data) as { id: number };
      commit();
      await slowTx;
      const earlier = JSON.parse((await stream.waitForStudy(slow.id, 'URGENT_MARKED')).data) as {
        id: number;
      };
      expect(earlier.id).toBeLessThan(later.id);

      // A tab that dropped after the later event and before the earlier one resumes from a point
      // that still holds the earlier one.
      const resumeFromLater = stream.messages.find(
        (m) => m.event === 'study' && JSON.parse(m.data).id === later.id,
      )?.id;
      expect(Number(resumeFromLater)).toBeLessThan(earlier.id);
      stream.close();
    },
  );
});
