import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCenter, TDashboard, TDashboardStudyPage, TRole } from '@radflow/core';
import {
  type TSignedIn,
  type TestApp,
  createTestApp,
  createTestCenter,
  setGroupPreference,
} from '../../../test/test-app.js';
import { createTestStudy, createTestWorld, signedInAt } from '../../../test/worklist-test-data.js';
import type { TestClient } from '../../../test/test-app.js';

/*
 * Issue 24 §3 dashboards, told as a small group counted by hand: two centers (regions set by the
 * group admin through Manage centers), two doctors, rows around the edges of a three-day range in
 * the spec's +05:30, and a second group whose rows are never counted. Every number is asserted, and
 * every drill-down lists exactly the rows its number counts.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const RANGE = 'startTime=2026-03-01&endTime=2026-03-03';
/** An instant written at +05:30, the group's default display zone. */
const ist = (local: string) => new Date(`${local}+05:30`);

async function dashboard(browser: TestClient, query = RANGE) {
  const res = await browser.get(`/api/dashboard?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TDashboard>();
}

async function drill(browser: TestClient, metric: string, key?: string | number) {
  const keyPart = key === undefined ? '' : `&key=${encodeURIComponent(String(key))}`;
  const res = await browser.get(`/api/dashboard/studies?${RANGE}&metric=${metric}${keyPart}&size=100`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TDashboardStudyPage>();
}
const idsOf = (page: TDashboardStudyPage) => page.content.map((r) => r.id).sort((a, b) => a - b);

async function buildGroup() {
  const place = await createTestWorld(t.db, { enableDashboardViewer: true });
  await setGroupPreference(t.db, place.group.id, 'ADMIN_PREFERENCES', { signOffTimeLimit: 60 });
  const centerB = await createTestCenter(t.db, { groupId: place.group.id, name: 'B center' });
  const groupAdmin = await signedInAt(t, place, ['ROLE_GROUP']);
  // The regions are set where a group admin edits a center (Manage centers).
  const centerList = (await groupAdmin.browser.get('/api/admin/centers')).json<TCenter[]>();
  for (const [id, region] of [
    [place.center.id, 'Bihar'],
    [centerB.id, 'Tripura'],
  ] as const) {
    const c = centerList.find((x) => x.id === id)!;
    const res = await groupAdmin.browser.request({
      method: 'PUT',
      url: `/api/admin/centers/${id}`,
      payload: { name: c.name, email: c.email, aeTitles: [], region },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TCenter>().region).toBe(region);
  }
  const d1 = await signedInAt(t, place, ['ROLE_DOCTOR'], { identifier: 'Dr One' });
  const d2 = await signedInAt(t, place, ['ROLE_DOCTOR'], { identifier: 'Dr Two' });
  const row = async (
    centerId: number,
    modality: string,
    values: {
      createdAt: Date;
      firstSignedOffAt?: Date;
      status?: 'CREATED' | 'LOCKED' | 'SIGNED_OFF' | 'DELETED';
      assignedToUserId?: number;
      lockedByUserId?: number;
    },
  ) =>
    (
      await createTestStudy(t.db, {
        groupId: place.group.id,
        centerId,
        modalities: [modality],
        row: {
          status: values.firstSignedOffAt ? 'SIGNED_OFF' : 'CREATED',
          ...values,
          signedOffAt: values.firstSignedOffAt ?? null,
        },
      })
    ).row.id;
  const A = place.center.id;
  const B = centerB.id;
  const ids = {
    // 00:30 on the 1st at +05:30 is still the 28th in UTC: counted on the 1st. 30 min: within.
    A1: await row(A, 'CT', {
      createdAt: ist('2026-03-01T00:30:00'),
      firstSignedOffAt: ist('2026-03-01T01:00:00'),
      assignedToUserId: d1.user.id,
    }),
    // 1440 min: over the 60-minute limit.
    A2: await row(A, 'MR', {
      createdAt: ist('2026-03-01T10:00:00'),
      firstSignedOffAt: ist('2026-03-02T10:00:00'),
      assignedToUserId: d1.user.id,
    }),
    A3: await row(A, 'CT', { createdAt: ist('2026-03-02T12:00:00') }),
    // Deleted: never counted.
    A4: await row(A, 'CT', { createdAt: ist('2026-03-03T23:50:00'), status: 'DELETED' }),
    // Uploaded the day before the range, signed off in it (120 min): a sign-off, not an upload.
    A5: await row(A, 'CT', {
      createdAt: ist('2026-02-28T23:00:00'),
      firstSignedOffAt: ist('2026-03-01T01:00:00'),
      assignedToUserId: d1.user.id,
    }),
    // Uploaded the day after the range: nothing.
    A6: await row(A, 'CT', { createdAt: ist('2026-03-04T00:00:00') }),
    // 90 min, locked then signed by the second doctor.
    B1: await row(B, 'CT', {
      createdAt: ist('2026-03-02T08:00:00'),
      firstSignedOffAt: ist('2026-03-02T09:30:00'),
      lockedByUserId: d2.user.id,
    }),
    B2: await row(B, 'US', {
      createdAt: ist('2026-03-03T08:00:00'),
      status: 'LOCKED',
      lockedByUserId: d2.user.id,
    }),
  };
  const other = await createTestWorld(t.db, { enableDashboardViewer: true });
  await createTestStudy(t.db, {
    groupId: other.group.id,
    centerId: other.center.id,
    row: {
      createdAt: ist('2026-03-02T10:00:00'),
      firstSignedOffAt: ist('2026-03-02T10:10:00'),
      status: 'SIGNED_OFF',
    },
  });
  const as = (roles: TRole[], opts: { identifier?: string } = {}): Promise<TSignedIn> =>
    signedInAt(t, place, roles, opts);
  return { place, A, B, ids, d1, d2, groupAdmin, other, as };
}

let g: Awaited<ReturnType<typeof buildGroup>>;
beforeAll(async () => {
  g = await buildGroup();
});

describe('the group dashboard (dashboard viewer, group admin)', () => {
  it('counts the hand-counted rows of the range in +05:30, and nothing of the other group', async () => {
    const viewer = await g.as(['ROLE_DASHBOARD_VIEWER']);
    const d = await dashboard(viewer.browser);
    expect(d).toMatchObject({
      audience: 'group',
      startTime: '2026-03-01',
      endTime: '2026-03-03',
      timeZone: 'Asia/Kolkata',
      signOffLimitMinutes: 60,
      uploaded: 5,
      open: 2,
      // 30, 90, 120, 1440: median (90+120)/2, p90 120 + 0.7 × 1320.
      turnaround: { signedOff: 4, medianMinutes: 105, p90Minutes: 1044, withinLimit: 1 },
    });
    expect(d.byDay).toEqual([
      { day: '2026-03-01', uploaded: 2, signedOff: 2 },
      { day: '2026-03-02', uploaded: 2, signedOff: 2 },
      { day: '2026-03-03', uploaded: 1, signedOff: 0 },
    ]);
    expect(d.byModality).toEqual([
      { modality: 'CT', uploaded: 3 },
      { modality: 'MR', uploaded: 1 },
      { modality: 'US', uploaded: 1 },
    ]);
    expect(d.byCenter).toEqual([
      expect.objectContaining({ centerId: g.A, region: 'Bihar', uploaded: 3, open: 1, signedOff: 3 }),
      expect.objectContaining({ centerId: g.B, region: 'Tripura', uploaded: 2, open: 1, signedOff: 1 }),
    ]);
    expect(d.byCenter[0]).toMatchObject({ medianMinutes: 120, withinLimit: 1 });
    expect(d.byCenter[1]).toMatchObject({ medianMinutes: 90, withinLimit: 0 });
    expect(d.byRegion.map((r) => [r.region, r.uploaded, r.open, r.signedOff])).toEqual([
      ['Bihar', 3, 1, 3],
      ['Tripura', 2, 1, 1],
    ]);
    expect(d.byDoctor.map((r) => [r.doctorName, r.signedOff, r.perDay, r.withinLimit])).toEqual([
      ['Dr One', 3, 1, 1],
      ['Dr Two', 1, 0.33, 0],
    ]);
    // Uploaded in March, still open in the test's present: over three days old.
    expect(d.openByAge.find((b) => b.bucket === 'OVER_3D')?.open).toBe(2);
    expect(d.openByAge.reduce((s, b) => s + b.open, 0)).toBe(2);

    const admin = await dashboard(g.groupAdmin.browser);
    expect(admin).toEqual(d);
  });

  it('lists behind each number exactly the rows it counts', async () => {
    const { browser } = await g.as(['ROLE_DASHBOARD_VIEWER']);
    const { ids } = g;
    const d = await dashboard(browser);
    expect(idsOf(await drill(browser, 'UPLOADED'))).toEqual([ids.A1, ids.A2, ids.A3, ids.B1, ids.B2]);
    expect(idsOf(await drill(browser, 'UPLOADED_DAY', '2026-03-01'))).toEqual([ids.A1, ids.A2]);
    expect(idsOf(await drill(browser, 'SIGNED_OFF_DAY', '2026-03-01'))).toEqual([ids.A1, ids.A5]);
    expect(idsOf(await drill(browser, 'WITHIN_LIMIT'))).toEqual([ids.A1]);
    expect(idsOf(await drill(browser, 'OVER_LIMIT'))).toEqual([ids.A2, ids.A5, ids.B1]);
    expect(idsOf(await drill(browser, 'DOCTOR', g.d1.user.id))).toEqual([ids.A1, ids.A2, ids.A5]);
    expect(idsOf(await drill(browser, 'OPEN_AGE', 'OVER_3D'))).toEqual([ids.A3, ids.B2]);
    expect(idsOf(await drill(browser, 'REGION', 'Tripura'))).toEqual([ids.B1, ids.B2]);
    expect(idsOf(await drill(browser, 'MODALITY', 'CT'))).toEqual([ids.A1, ids.A3, ids.B1]);
    // Every bar of every chart: the list's total is the bar's number.
    const checks: Array<[string, string | number, number]> = [
      ...d.byDay.flatMap((r): Array<[string, string, number]> => [
        ['UPLOADED_DAY', r.day, r.uploaded],
        ['SIGNED_OFF_DAY', r.day, r.signedOff],
      ]),
      ...d.byModality.map((r): [string, string, number] => ['MODALITY', r.modality, r.uploaded]),
      ...d.byCenter.flatMap((r): Array<[string, number, number]> => [
        ['CENTER', r.centerId, r.uploaded],
        ['CENTER_SIGNED_OFF', r.centerId, r.signedOff],
      ]),
      ...d.byRegion.map((r): [string, string, number] => ['REGION_SIGNED_OFF', r.region, r.signedOff]),
      ...d.byDoctor.map((r): [string, string, number] => [
        'DOCTOR',
        String(r.doctorId ?? 'none'),
        r.signedOff,
      ]),
      ...d.openByAge.map((r): [string, string, number] => ['OPEN_AGE', r.bucket, r.open]),
    ];
    for (const [metric, key, expected] of checks) {
      expect((await drill(browser, metric, key)).totalElements, `${metric} ${key}`).toBe(expected);
    }
    expect((await drill(browser, 'OPEN')).totalElements).toBe(d.open);
    expect((await drill(browser, 'SIGNED_OFF')).totalElements).toBe(d.turnaround.signedOff);
  });

  it('names no patient to a dashboard viewer, and names them to a group admin', async () => {
    const viewer = await g.as(['ROLE_DASHBOARD_VIEWER']);
    const rows = (await drill(viewer.browser, 'UPLOADED')).content;
    expect(rows.map((r) => r.patientName)).toEqual(rows.map(() => null));
    const admin = (await drill(g.groupAdmin.browser, 'UPLOADED')).content;
    expect(admin.every((r) => r.patientName === 'DOE^JANE')).toBe(true);
    expect(admin.find((r) => r.id === g.ids.A1)).toMatchObject({
      centerName: expect.any(String),
      doctorName: 'Dr One',
      modality: 'CT',
      status: 'SIGNED_OFF',
      uploadedAt: ist('2026-03-01T00:30:00').toISOString(),
      signedOffAt: ist('2026-03-01T01:00:00').toISOString(),
      turnaroundMinutes: 30,
    });
  });

  it("the other group's viewer counts only its own group", async () => {
    const { browser } = await signedInAt(t, g.other, ['ROLE_DASHBOARD_VIEWER']);
    const d = await dashboard(browser);
    expect(d.uploaded).toBe(1);
    expect(d.turnaround.signedOff).toBe(1);
    expect(d.byCenter.map((c) => c.centerId)).toEqual([g.other.center.id]);
    expect((await drill(browser, 'CENTER', g.A)).totalElements).toBe(0);
  });
});

describe('a center, a lab supervisor and a doctor', () => {
  it('a center with the switch counts its own center only, never the other center', async () => {
    const center = await g.as(['ROLE_CENTER']);
    const d = await dashboard(center.browser);
    expect(d.audience).toBe('center');
    expect(d.uploaded).toBe(3);
    expect(d.turnaround).toMatchObject({ signedOff: 3, medianMinutes: 120, withinLimit: 1 });
    expect(d.byCenter.map((c) => c.centerId)).toEqual([g.A]);
    expect(d.byDoctor.map((r) => [r.doctorName, r.signedOff])).toEqual([['Dr One', 3]]);
    expect((await drill(center.browser, 'CENTER', g.B)).totalElements).toBe(0);
    expect((await drill(center.browser, 'REGION', 'Tripura')).totalElements).toBe(0);
    expect(idsOf(await drill(center.browser, 'UPLOADED'))).toEqual([g.ids.A1, g.ids.A2, g.ids.A3]);

    const supervisor = await g.as(['ROLE_LABS_SUPERVISOR']);
    expect((await dashboard(supervisor.browser)).uploaded).toBe(3);
  });

  it("a doctor counts their own work, not the other doctor's nor the pool", async () => {
    const d = await dashboard(g.d2.browser);
    expect(d.audience).toBe('doctor');
    expect(d.uploaded).toBe(2);
    expect(d.open).toBe(1);
    expect(d.turnaround).toMatchObject({ signedOff: 1, medianMinutes: 90, withinLimit: 0 });
    expect(idsOf(await drill(g.d2.browser, 'UPLOADED'))).toEqual([g.ids.B1, g.ids.B2]);
    expect((await drill(g.d2.browser, 'DOCTOR', g.d1.user.id)).totalElements).toBe(0);
  });
});

describe('who may not, and bad ranges', () => {
  it('answers 403 to roles without a dashboard and to a center without the switch', async () => {
    for (const roles of [
      ['ROLE_TYPIST'],
      ['ROLE_ASSIGNOR'],
      ['ROLE_REFERRING_DOCTOR'],
      ['ROLE_ADMIN_BILLER'],
    ]) {
      const { browser } = await g.as(roles as TRole[]);
      expect((await browser.get(`/api/dashboard?${RANGE}`)).statusCode, roles[0]).toBe(403);
      expect((await browser.get(`/api/dashboard/studies?${RANGE}&metric=UPLOADED`)).statusCode).toBe(403);
    }
    const off = await createTestWorld(t.db);
    const center = await signedInAt(t, off, ['ROLE_CENTER']);
    expect((await center.browser.get(`/api/dashboard?${RANGE}`)).statusCode).toBe(403);
    expect((await center.browser.get(`/api/dashboard/studies?${RANGE}&metric=UPLOADED`)).statusCode).toBe(
      403,
    );
  });

  it('answers 400 naming the field', async () => {
    const { browser } = await g.as(['ROLE_DASHBOARD_VIEWER']);
    const cases: Array<[string, string, string]> = [
      ['endTime=2026-03-03', 'startTime', 'Please select date'],
      ['startTime=2026-03-03', 'endTime', 'Please select date'],
      ['startTime=2026-03-03&endTime=2026-03-01', 'endTime', 'End date must not be before start date'],
      [
        'startTime=2026-01-01&endTime=2026-07-01',
        'endTime',
        'The date range must not be longer than 180 days',
      ],
      ['startTime=2026-02-30&endTime=2026-03-01', 'startTime', 'startTime must be a date (yyyy-MM-dd)'],
    ];
    for (const [query, field, message] of cases) {
      const res = await browser.get(`/api/dashboard?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ errorDescription: message, additionalInfo: field });
    }
    const badKey = await browser.get(`/api/dashboard/studies?${RANGE}&metric=CENTER&key=abc`);
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json()).toMatchObject({ additionalInfo: 'key' });
    const noKey = await browser.get(`/api/dashboard/studies?${RANGE}&metric=UPLOADED_DAY`);
    expect(noKey.json()).toMatchObject({ additionalInfo: 'key' });
    const badMetric = await browser.get(`/api/dashboard/studies?${RANGE}&metric=EVERYTHING`);
    expect(badMetric.statusCode).toBe(400);
  });
});

describe("a center's region", () => {
  it('is kept when an edit does not name it', async () => {
    const c = (await g.groupAdmin.browser.get('/api/admin/centers'))
      .json<TCenter[]>()
      .find((x) => x.id === g.B)!;
    const res = await g.groupAdmin.browser.request({
      method: 'PUT',
      url: `/api/admin/centers/${g.B}`,
      payload: { name: c.name, email: c.email, aeTitles: [], contactName: 'Someone' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TCenter>()).toMatchObject({ contactName: 'Someone', region: 'Tripura' });
  });
});
