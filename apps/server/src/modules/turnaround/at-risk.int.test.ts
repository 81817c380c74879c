import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AT_RISK_ROWS_MAX, type TStudyDetail, type TTurnaroundAtRiskResponse } from '@radflow/core';
import { reports } from '../../db/schema.js';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestWorld,
  setGroupPreference,
  signInAt,
} from '../../../test/test-app.js';
import { createTestStudies, createTestStudy } from '../../../test/worklist-test-data.js';

/*
 * Turnaround at risk (issue 24 §4) through the HTTP API, on the app's clock: a study is listed AT_RISK
 * before its limit when its doctor's queue and pace will not make it, BREACHED after; another group's
 * studies never appear; the suggestion is the online doctor who would finish it first; reassigning
 * through the assign call moves it off the list.
 */

const MINUTE_S = 60;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type TPlace = Awaited<ReturnType<typeof createTestWorld>>;

const minutesAgo = (m: number) => new Date(t.clock.now.getTime() - m * 60_000);

async function placeWithLimit(limitMinutes: number) {
  const place = await createTestWorld(t.db);
  await setGroupPreference(t.db, place.group.id, 'ADMIN_PREFERENCES', { signOffTimeLimit: limitMinutes });
  return place;
}

/** Open studies assigned to `doctorId`, uploaded the given minutes ago (one each). */
async function assigned(
  place: TPlace,
  doctorId: number | null,
  uploadedAgo: number[],
  patientName = 'DOE^JANE',
) {
  const made = [];
  for (const ago of uploadedAgo) {
    made.push(
      await createTestStudy(t.db, {
        groupId: place.group.id,
        centerId: place.center.id,
        patientName,
        row: {
          status: 'HISTORY_CREATED',
          assignedToUserId: doctorId,
          createdAt: minutesAgo(ago + 1),
          firstUploadCompletedAt: minutesAgo(ago),
        },
      }),
    );
  }
  return made.map((m) => m.row.id);
}

/** Sign-offs by `doctorId` at the given minutes ago (their pace history). */
async function signedOffBy(place: TPlace, doctorId: number, minutesAgoList: number[]) {
  const rows = await createTestStudies(t.db, minutesAgoList.length, {
    groupId: place.group.id,
    centerId: place.center.id,
    row: { status: 'SIGNED_OFF', assignedToUserId: doctorId },
  });
  await t.db.insert(reports).values(
    rows.map(({ row }, i) => ({
      reportStatusId: row.id,
      name: 'Report',
      contentHtml: '<p>done</p>',
      doctorUserId: doctorId,
      typedByUserId: doctorId,
      signedOffByUserId: doctorId,
      signedOffAt: minutesAgo(minutesAgoList[i]!),
    })),
  );
}

async function beat(browser: TestClient, status: 'ONLINE' | 'OFFLINE') {
  const res = await browser.post('/api/chat-thread/beat', { status });
  expect(res.statusCode, res.body).toBe(200);
}

async function atRisk(browser: TestClient): Promise<TTurnaroundAtRiskResponse> {
  const res = await browser.get('/api/turnaround/at-risk');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TTurnaroundAtRiskResponse>();
}

describe('GET /turnaround/at-risk', () => {
  it('lists a study at risk before its limit, and breached after it', async () => {
    const place = await placeWithLimit(120);
    const { browser: assignor } = await signInAt(t, place, ['ROLE_ASSIGNOR']);
    const { user: doctor } = await signInAt(t, place, ['ROLE_DOCTOR']);
    // No history: 15 minutes a report, so the queue finishes in 15, 30, 45 and 60 minutes; the
    // deadlines are 116 to 119 minutes away.
    const ids = await assigned(place, doctor.id, [4, 3, 2, 1]);
    expect((await atRisk(assignor)).rows).toEqual([]);

    // 70 minutes on: the 4th (deadline in 49) would finish in 60; the 3rd (48) in 45 makes it.
    t.clock.advance(70 * MINUTE_S);
    const soon = await atRisk(assignor);
    expect(soon.signOffTimeLimit).toBe(120);
    expect(soon.rows).toHaveLength(1);
    const row = soon.rows[0]!;
    expect(row).toMatchObject({
      id: ids[3],
      state: 'AT_RISK',
      queuePosition: 4,
      assignedTo: { email: doctor.email, name: doctor.identifier },
      centerName: place.center.name,
      patientName: 'DOE^JANE',
      modality: 'CT',
    });
    expect(row.timeLeftMinutes).toBeGreaterThanOrEqual(48);
    expect(row.timeLeftMinutes).toBeLessThanOrEqual(49);
    expect(Date.parse(row.forecastFinish!)).toBeGreaterThan(Date.parse(row.deadline));

    // Past the limit: every one of them is breached, the least time left first.
    t.clock.advance(50 * MINUTE_S);
    const late = await atRisk(assignor);
    expect(late.rows.map((r) => [r.id, r.state])).toEqual(ids.map((id) => [id, 'BREACHED']));
    expect(late.rows.every((r) => r.timeLeftMinutes < 0)).toBe(true);
    expect(late.counts).toEqual({ atRisk: 0, breached: 4 });
  });

  it('lists at risk before breached, at most AT_RISK_ROWS_MAX rows, and counts them all', async () => {
    const place = await placeWithLimit(120);
    const { browser: assignor } = await signInAt(t, place, ['ROLE_ASSIGNOR']);
    const { user: doctor } = await signInAt(t, place, ['ROLE_DOCTOR']);
    const breached = await assigned(place, doctor.id, [130, 125, 121]);
    // One insert: queued after the breached three at 15 minutes each, from the 8th place on
    // (105 + 15 > 119 minutes left) each is forecast too late.
    const fresh = await createTestStudies(t.db, AT_RISK_ROWS_MAX + 5, {
      groupId: place.group.id,
      centerId: place.center.id,
      row: {
        status: 'HISTORY_CREATED',
        assignedToUserId: doctor.id,
        createdAt: minutesAgo(2),
        firstUploadCompletedAt: minutesAgo(1),
      },
    });
    const answer = await atRisk(assignor);
    expect(answer.counts).toEqual({ atRisk: AT_RISK_ROWS_MAX + 5 + 3 - 7, breached: 3 });
    expect(answer.rows).toHaveLength(AT_RISK_ROWS_MAX);
    expect(answer.rows.every((r) => r.state === 'AT_RISK')).toBe(true);
    // In reading order the fresh ones are by id: the first listed is the 8th in the queue.
    expect(answer.rows[0]!.id).toBe(fresh[4]!.row.id);
    expect(answer.rows.map((r) => r.id)).not.toContain(breached[0]);
  });

  it("never lists another group's studies, and is for assignors and admins only", async () => {
    const home = await placeWithLimit(30);
    const other = await placeWithLimit(30);
    const { user: homeDoctor } = await signInAt(t, home, ['ROLE_DOCTOR']);
    const { user: otherDoctor } = await signInAt(t, other, ['ROLE_DOCTOR']);
    const homeIds = await assigned(home, homeDoctor.id, [20, 19, 18]);
    const otherIds = await assigned(other, otherDoctor.id, [20, 19, 18]);
    const { browser: homeAssignor } = await signInAt(t, home, ['ROLE_ASSIGNOR']);
    const { browser: homeAdmin } = await signInAt(t, home, ['ROLE_ADMIN']);
    const { browser: otherAssignor } = await signInAt(t, other, ['ROLE_ASSIGNOR']);

    const seen = (r: TTurnaroundAtRiskResponse) => r.rows.map((x) => x.id).sort((a, b) => a - b);
    expect(seen(await atRisk(homeAssignor))).toEqual(homeIds);
    expect(seen(await atRisk(homeAdmin))).toEqual(homeIds);
    expect(seen(await atRisk(otherAssignor))).toEqual(otherIds);

    for (const roles of [['ROLE_DOCTOR'], ['ROLE_CENTER'], ['ROLE_VERIFIER']] as const) {
      const { browser } = await signInAt(t, home, [...roles]);
      const res = await browser.get('/api/turnaround/at-risk');
      expect(res.statusCode, roles[0]).toBe(403);
    }
  });

  it('lists nothing when the group has no sign-off limit', async () => {
    const place = await createTestWorld(t.db);
    const { user: doctor } = await signInAt(t, place, ['ROLE_DOCTOR']);
    await assigned(place, doctor.id, [5000]);
    const { browser: assignor } = await signInAt(t, place, ['ROLE_ASSIGNOR']);
    expect(await atRisk(assignor)).toMatchObject({
      signOffTimeLimit: null,
      counts: { atRisk: 0, breached: 0 },
      rows: [],
    });
  });

  it('suggests the online doctor who would finish it first, and the assign call moves it', async () => {
    const place = await placeWithLimit(60);
    const { browser: assignor } = await signInAt(t, place, ['ROLE_ASSIGNOR']);
    const a = await signInAt(t, place, ['ROLE_DOCTOR']);
    const b = await signInAt(t, place, ['ROLE_DOCTOR']);
    const c = await signInAt(t, place, ['ROLE_DOCTOR']);
    const d = await signInAt(t, place, ['ROLE_DOCTOR']);
    // A (no history, 15 min a report): its 4th study would finish in 60 minutes, due in 53.
    const aIds = await assigned(place, a.user.id, [10, 9, 8, 7]);
    // B (15 min): two older studies ahead of it there, so 45 minutes.
    await assigned(place, b.user.id, [30, 29]);
    // C signs off every 5 minutes: one older study ahead, so 10 minutes.
    await signedOffBy(place, c.user.id, [40, 35, 30, 25, 20]);
    await assigned(place, c.user.id, [20]);
    // D signs off every 2 minutes and has nothing to read (2 minutes), but is offline: never suggested.
    await signedOffBy(place, d.user.id, [10, 8, 6, 4, 2]);
    await beat(b.browser, 'ONLINE');
    await beat(c.browser, 'ONLINE');
    await beat(d.browser, 'OFFLINE');

    const before = await atRisk(assignor);
    expect(before.rows.map((r) => r.id)).toEqual([aIds[3]]);
    const row = before.rows[0]!;
    expect(row.suggested).toMatchObject({ email: c.user.email, name: c.user.identifier });
    const inMinutes = (Date.parse(row.suggested!.forecastFinish) - Date.parse(before.now)) / 60_000;
    expect(inMinutes).toBeCloseTo(10, 5);

    const assign = await assignor.post('/api/report-status/assign', {
      reportId: row.id,
      assignedTo: row.suggested!.email,
    });
    expect(assign.statusCode, assign.body).toBe(200);
    const detail = await assignor.get(`/api/report-status/id/${row.id}`);
    expect(detail.json<TStudyDetail>().assignedTo).toBe(c.user.email);
    // At C it is second of two, done in 10 minutes: off the list, and A's queue is short enough.
    expect((await atRisk(assignor)).rows).toEqual([]);
  });
  it("counts a website study's limit from the app's clock, as it counts the time left", async () => {
    // The app's clock is not the database's (a browser story's test clock, a skewed host): the row's
    // creation time must come from the clock the forecast reads, or a fresh study shows as breached.
    t.clock.advance(3 * 60 * MINUTE_S);
    const place = await placeWithLimit(60);
    const { browser: center } = await signInAt(t, place, ['ROLE_CENTER']);
    const { browser: assignor } = await signInAt(t, place, ['ROLE_ASSIGNOR']);
    const { user: doctor } = await signInAt(t, place, ['ROLE_DOCTOR']);
    const created = await center.post('/api/dicom-web/study/create-from-website', {
      patientName: 'DOE^JANE',
      labModality: 'CT',
      patientAge: '40Y',
      patientSex: 'F',
      center: place.center.id,
      studyName: 'CT CHEST',
    });
    expect(created.statusCode, created.body).toBe(200);
    const reportId = created.json<{ id: number }>().id;
    const assign = await assignor.post('/api/report-status/assign', { reportId, assignedTo: doctor.email });
    expect(assign.statusCode, assign.body).toBe(200);
    // 15 minutes to read it, 60 to do so: on track, so not listed.
    expect((await atRisk(assignor)).rows).toEqual([]);

    // 50 minutes on it is at risk; 61 on, breached.
    t.clock.advance(50 * MINUTE_S);
    expect((await atRisk(assignor)).rows.map((r) => [r.id, r.state])).toEqual([[reportId, 'AT_RISK']]);
    t.clock.advance(11 * MINUTE_S);
    expect((await atRisk(assignor)).rows.map((r) => [r.id, r.state])).toEqual([[reportId, 'BREACHED']]);
  });
});
