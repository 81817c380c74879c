import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { reportStatuses } from '../../db/schema.js';
import { LIVER, readFixture } from '../../../test/archive/fixtures.js';
import { createArchiveWorld, stowBody } from '../../../test/archive/helpers.js';
import { type TestApp, createTestApp, createTestCenter, signInAt } from '../../../test/test-app.js';
import { LiveClient } from '../../../test/live-client.js';
import { createTestStudy, createTwoWorlds, mapTestUser } from '../../../test/worklist-test-data.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { MESSAGE_TOO_MANY_STREAMS } from './live.routes.js';

/*
 * GET /api/live through HTTP on a real database (issue 23 §4, §7): who receives an event, 401,
 * the per-user cap. Restart, two servers and out-of-order commits: live-resume.int.test.ts.
 */

let t: TestApp;
let baseUrl: string;
let db: Db;
beforeAll(async () => {
  t = await createTestApp({ live: { maxStreamsPerUser: 2 } });
  db = t.db;
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

/** A change nobody but `place`'s own viewers may see: proves a stream has read past an earlier one. */
async function sentinel(place: { group: { id: number }; center: { id: number } }, row?: { id: number }) {
  const target =
    row ?? (await createTestStudy(db, { groupId: place.group.id, centerId: place.center.id })).row;
  await recordStudyEvent(db, {
    type: 'DETAILS_UPDATED',
    reportStatusId: target.id,
    actor: { label: 'test' },
    payload: { changed: ['test'] },
  });
  return target.id;
}

describe('GET /api/live', () => {
  it("an assignment reaches the doctor's and the center's streams, and nothing of it another center's, another doctor's or another group's", async () => {
    const w = await createTwoWorlds(
      t,
      { assignor: ['ROLE_ASSIGNOR'], centerUser: ['ROLE_CENTER'], otherDoctor: ['ROLE_DOCTOR'] },
      { stranger: ['ROLE_ADMIN'] },
    );
    const centerB = await createTestCenter(db, { groupId: w.group.id });
    const placeB = { group: w.group, center: centerB };
    const centerBUser = await signInAt(t, placeB, ['ROLE_CENTER']);
    const doctor = await signInAt(t, w, ['ROLE_DOCTOR']);
    const { row } = await createTestStudy(db, {
      groupId: w.group.id,
      centerId: w.center.id,
      // Not in the doctors' pool: before the assignment only the center's and the group's users saw it.
      row: { status: 'DRAFTED' },
    });

    const streams = {
      doctor: await LiveClient.connect(baseUrl, doctor.browser),
      center: await LiveClient.connect(baseUrl, w.centerUser.browser),
      otherDoctor: await LiveClient.connect(baseUrl, w.otherDoctor.browser),
      centerB: await LiveClient.connect(baseUrl, centerBUser.browser),
      stranger: await LiveClient.connect(baseUrl, w.stranger.browser),
    };
    try {
      const res = await w.assignor.browser.post('/api/report-status/assign', {
        reportId: row.id,
        assignedTo: doctor.user.email,
      });
      expect(res.statusCode, res.body).toBe(200);

      const toDoctor = await streams.doctor.waitForStudy(row.id, 'ASSIGNED');
      const toCenter = await streams.center.waitForStudy(row.id, 'ASSIGNED');
      // Which row and what happened: nothing of the patient.
      expect(Object.keys(JSON.parse(toDoctor.data)).sort()).toEqual(['id', 'reportStatusId', 'type']);
      expect(JSON.parse(toCenter.data)).toEqual(JSON.parse(toDoctor.data));

      // Each of the others sees a later change of its own; by then the assignment was dealt with.
      const inPool = await sentinel(w);
      await streams.otherDoctor.waitForStudy(inPool);
      await streams.centerB.waitForStudy(await sentinel(placeB));
      await streams.stranger.waitForStudy(await sentinel(w.other));
      for (const name of ['otherDoctor', 'centerB', 'stranger'] as const) {
        expect(
          streams[name].studyEvents.filter((e) => e.reportStatusId === row.id),
          name,
        ).toEqual([]);
      }
    } finally {
      for (const stream of Object.values(streams)) stream.close();
    }
  });

  it("tells the author's own streams that the event is theirs (byYou), and nobody else's", async () => {
    const w = await createTwoWorlds(t, { assignor: ['ROLE_ASSIGNOR'], centerUser: ['ROLE_CENTER'] }, {});
    const doctor = await signInAt(t, w, ['ROLE_DOCTOR']);
    const { row } = await createTestStudy(db, { groupId: w.group.id, centerId: w.center.id });
    const streams = {
      assignor: await LiveClient.connect(baseUrl, w.assignor.browser),
      center: await LiveClient.connect(baseUrl, w.centerUser.browser),
    };
    try {
      const res = await w.assignor.browser.post('/api/report-status/assign', {
        reportId: row.id,
        assignedTo: doctor.user.email,
      });
      expect(res.statusCode, res.body).toBe(200);
      const own = JSON.parse((await streams.assignor.waitForStudy(row.id, 'ASSIGNED')).data);
      const others = JSON.parse((await streams.center.waitForStudy(row.id, 'ASSIGNED')).data);
      expect(own).toEqual({ ...others, byYou: true });
      expect(Object.keys(others).sort()).toEqual(['id', 'reportStatusId', 'type']);
    } finally {
      for (const stream of Object.values(streams)) stream.close();
    }
  });

  it("a row leaving a view is told to those who saw it: the pool's doctors on its assignment, the former doctor's typist on its unassignment", async () => {
    const w = await createTwoWorlds(
      t,
      {
        assignor: ['ROLE_ASSIGNOR'],
        doctor: ['ROLE_DOCTOR'],
        poolDoctor: ['ROLE_DOCTOR'],
        typist: ['ROLE_TYPIST'],
      },
      {},
    );
    await mapTestUser(db, w.typist.user.id, 'ROLE_DOCTOR', w.doctor.user.id);
    const { row } = await createTestStudy(db, {
      groupId: w.group.id,
      centerId: w.center.id,
      row: { status: 'HISTORY_CREATED' },
    });
    const pool = await LiveClient.connect(baseUrl, w.poolDoctor.browser);
    const typist = await LiveClient.connect(baseUrl, w.typist.browser);
    try {
      const assign = (assignedTo: string) =>
        w.assignor.browser.post('/api/report-status/assign', { reportId: row.id, assignedTo }).then((res) => {
          expect(res.statusCode, res.body).toBe(200);
        });
      // Unassigned and sent: in every doctor's pool. Assigned: only the doctor's (and their typist's).
      await assign(w.doctor.user.email);
      await pool.waitForStudy(row.id, 'ASSIGNED');
      await typist.waitForStudy(row.id, 'ASSIGNED');
      await assign('');
      await typist.waitForStudy(row.id, 'UNASSIGNED');
      await pool.waitForStudy(row.id, 'UNASSIGNED');
    } finally {
      pool.close();
      typist.close();
    }
  });

  it("a study arriving through the archive's ingest statement (STOW) reaches its center's stream", async () => {
    const world = await createArchiveWorld(t);
    const stream = await LiveClient.connect(baseUrl, world.center.client);
    const { payload, contentType } = stowBody(LIVER.slice(0, 2).map(readFixture));
    const stored = await world.center.client.request({
      method: 'POST',
      url: '/api/dicomweb/studies',
      payload,
      headers: { 'content-type': contentType, accept: 'application/dicom+json' },
    });
    expect(stored.statusCode, stored.body).toBe(200);
    const created = await stream.waitFor(
      (m) => m.event === 'study' && JSON.parse(m.data).type === 'STUDY_CREATED',
    );
    const [row] = await db
      .select({ centerId: reportStatuses.centerId })
      .from(reportStatuses)
      .where(eq(reportStatuses.id, JSON.parse(created.data).reportStatusId));
    expect(row?.centerId).toBe(world.centerA.id);
    stream.close();
  });

  it('answers 401 without a session, and 400 for a lastEventId that is not a number', async () => {
    const unsigned = await LiveClient.open(baseUrl, null);
    expect(unsigned.status).toBe(401);
    expect(JSON.parse(unsigned.refusal)).toMatchObject({ errorStatusCode: 401 });

    const w = await createTwoWorlds(t, { admin: ['ROLE_ADMIN'] }, {});
    const bad = await LiveClient.open(baseUrl, w.admin.browser, { query: '?lastEventId=abc' });
    expect(bad.status).toBe(400);
    expect(bad.refusal).toContain('lastEventId must be a whole number');
  });

  it('holds at most maxStreamsPerUser streams per user (429 past it), and a closed one frees its place', async () => {
    const w = await createTwoWorlds(t, { admin: ['ROLE_ADMIN'], peer: ['ROLE_ADMIN'] }, {});
    const first = await LiveClient.connect(baseUrl, w.admin.browser);
    const second = await LiveClient.connect(baseUrl, w.admin.browser);
    const third = await LiveClient.open(baseUrl, w.admin.browser);
    expect(third.status).toBe(429);
    expect(JSON.parse(third.refusal)).toMatchObject({
      errorStatusCode: 429,
      errorDescription: MESSAGE_TOO_MANY_STREAMS(2),
    });
    // Another user of the group is not held back by it.
    const peer = await LiveClient.connect(baseUrl, w.peer.browser);

    first.close();
    // The server notices the close on its own time: ask until it has (bounded by the wait's timeout).
    const reopened = await retryUntil(async () => {
      const attempt = await LiveClient.open(baseUrl, w.admin.browser);
      if (attempt.status === 200) return attempt.client;
      expect(attempt.status).toBe(429);
      return null;
    });
    const changed = await sentinel(w);
    await reopened.waitForStudy(changed);
    await second.waitForStudy(changed);
    for (const stream of [second, reopened, peer]) stream.close();
  });
});

async function retryUntil<T>(attempt: () => Promise<T | null>, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error('gave up');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
