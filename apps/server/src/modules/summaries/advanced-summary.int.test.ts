import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_DISPLAY_TIME_ZONE,
  SUMMARY_MESSAGES,
  type TAdvancedSummaryPage,
  calendarDayIn,
} from '@radflow/core';
import {
  type TestApp,
  type TestClient,
  clockAtNoonIn,
  createTestApp,
  createTestCenter,
  createTestWorld,
} from '../../../test/test-app.js';
import { createTestStudy, signedInAt } from '../../../test/worklist-test-data.js';

/*
 * Issue 24 §1: POST /api/query/report-summary (the Advanced Search Report Summary) aggregates by
 * center and for the caller's rows over the custom range and the last 1, 7 and 30 days: total cases,
 * completed, signed off within 1440 minutes, unique patients; only what the caller may see.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // The rolling windows are days of the group's zone, counted by the server's clock.
  clockAtNoonIn(t, DEFAULT_DISPLAY_TIME_ZONE);
});
afterAll(() => t.close());

const HOUR = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR;
const RANGE = { startTime: '2026-01-06', endTime: '2026-01-06' };
const ON_THE_6TH = new Date('2026-01-06T05:00:00Z');

async function advanced(browser: TestClient, body: Record<string, unknown> = RANGE) {
  const res = await browser.post('/api/query/report-summary', { page: 0, size: 50, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TAdvancedSummaryPage>();
}

const windowOf = (page: TAdvancedSummaryPage, key: string) => {
  const found = page.aggregations.find((w) => w.key === key);
  if (!found) throw new Error(`no window ${key}`);
  return found;
};

describe('the Advanced Search Report Summary', () => {
  it('aggregates by center and for the caller over the range and the rolling windows', async () => {
    const home = await createTestWorld(t.db, { enableElasticReportSummary: true });
    const centerB = await createTestCenter(t.db, { groupId: home.group.id });
    const otherGroup = await createTestWorld(t.db, { enableElasticReportSummary: true });
    const a = { groupId: home.group.id, centerId: home.center.id };
    const doctor = await signedInAt(t, home, ['ROLE_DOCTOR']);
    // Center A on the 6th: three cases of two patients; one signed off in 2 hours, one after 2 days.
    await createTestStudy(t.db, {
      ...a,
      patientId: 'PAT-1',
      row: {
        createdAt: ON_THE_6TH,
        status: 'SIGNED_OFF',
        signedOffAt: new Date(ON_THE_6TH.getTime() + 2 * HOUR),
        firstSignedOffAt: new Date(ON_THE_6TH.getTime() + 2 * HOUR),
      },
    });
    await createTestStudy(t.db, {
      ...a,
      patientId: 'PAT-1',
      row: {
        createdAt: ON_THE_6TH,
        status: 'SIGNED_OFF',
        signedOffAt: new Date(ON_THE_6TH.getTime() + 2 * DAY_MS),
        firstSignedOffAt: new Date(ON_THE_6TH.getTime() + 2 * DAY_MS),
      },
    });
    await createTestStudy(t.db, { ...a, patientId: 'PAT-2', row: { createdAt: ON_THE_6TH } });
    // Center B on the 6th, assigned to the doctor; the other group on the 6th.
    await createTestStudy(t.db, {
      groupId: home.group.id,
      centerId: centerB.id,
      row: { createdAt: ON_THE_6TH, assignedToUserId: doctor.user.id },
    });
    await createTestStudy(t.db, {
      groupId: otherGroup.group.id,
      centerId: otherGroup.center.id,
      row: { createdAt: ON_THE_6TH },
    });
    // Center A recently: today, three days ago, twenty days ago.
    const now = t.app.ctx.now().getTime();
    for (const ago of [60_000, 3 * DAY_MS, 20 * DAY_MS]) {
      await createTestStudy(t.db, { ...a, row: { createdAt: new Date(now - ago) } });
    }

    const atA = await signedInAt(t, home, ['ROLE_CENTER']);
    const page = await advanced(atA.browser);
    expect(page.content.map((r) => r.centerId)).toEqual([home.center.id, home.center.id, home.center.id]);
    expect(page.totalElements).toBe(3);
    const custom = windowOf(page, 'CUSTOM');
    expect(custom).toMatchObject({ startTime: '2026-01-06', endTime: '2026-01-06' });
    const expected = { totalCases: 3, completedCases: 2, signedOffWithinLimit: 1, uniquePatients: 2 };
    expect(custom.group).toEqual(expected);
    expect(custom.centers).toHaveLength(1);
    expect(custom.centers[0]).toMatchObject({ ...expected, centerName: home.center.name });

    const today = calendarDayIn(new Date(now));
    expect(windowOf(page, 'LAST_1_DAYS')).toMatchObject({ startTime: today, endTime: today });
    expect(windowOf(page, 'LAST_1_DAYS').group.totalCases).toBe(1);
    expect(windowOf(page, 'LAST_7_DAYS').group.totalCases).toBe(2);
    expect(windowOf(page, 'LAST_30_DAYS').group.totalCases).toBe(3);
    expect(windowOf(page, 'LAST_30_DAYS').centers.map((c) => c.centerName)).toEqual([home.center.name]);

    // Center B sees only its own case; the doctor only their own work, by the center it came from.
    const atB = await signedInAt(t, { group: home.group, center: centerB }, ['ROLE_CENTER']);
    const ofB = windowOf(await advanced(atB.browser), 'CUSTOM');
    expect(ofB.group.totalCases).toBe(1);
    expect(ofB.centers.map((c) => c.centerName)).toEqual([centerB.name]);
    const ofDoctor = windowOf(await advanced(doctor.browser), 'CUSTOM');
    expect(ofDoctor.group).toEqual({
      totalCases: 1,
      completedCases: 0,
      signedOffWithinLimit: 0,
      uniquePatients: 1,
    });
    expect(windowOf(await advanced(doctor.browser), 'LAST_30_DAYS').group.totalCases).toBe(0);

    const elsewhere = await signedInAt(t, otherGroup, ['ROLE_CENTER']);
    expect(windowOf(await advanced(elsewhere.browser), 'CUSTOM').group.totalCases).toBe(1);
  });

  it("counts the rolling windows by the server's clock, not the machine's", async () => {
    const home = await createTestWorld(t.db, { enableElasticReportSummary: true });
    const before = t.clock.now;
    // The app's clock ten days ahead of the machine's (as a server whose clock is set apart would be).
    t.clock.advance(10 * 24 * 3600);
    try {
      const now = t.app.ctx.now();
      await createTestStudy(t.db, {
        groupId: home.group.id,
        centerId: home.center.id,
        row: { createdAt: new Date(now.getTime() - 60_000) },
      });
      const atCenter = await signedInAt(t, home, ['ROLE_CENTER']);
      const lastDay = windowOf(await advanced(atCenter.browser), 'LAST_1_DAYS');
      const today = calendarDayIn(now);
      expect(lastDay).toMatchObject({ startTime: today, endTime: today });
      expect(lastDay.group.totalCases).toBe(1);
    } finally {
      t.clock.now = before;
    }
  });

  it("is off ('You are not allowed to view this page') without enableElasticReportSummary", async () => {
    const home = await createTestWorld(t.db);
    const center = await signedInAt(t, home, ['ROLE_CENTER']);
    const res = await center.browser.post('/api/query/report-summary', RANGE);
    expect(res.statusCode).toBe(403);
    expect(res.json<{ errorDescription: string }>().errorDescription).toBe(SUMMARY_MESSAGES.notAllowed);
    // Not on the admin's menu (spec-core §2): no call either.
    const on = await createTestWorld(t.db, { enableElasticReportSummary: true });
    const admin = await signedInAt(t, on, ['ROLE_ADMIN']);
    expect((await admin.browser.post('/api/query/report-summary', RANGE)).statusCode).toBe(403);
  });

  it('answers bad input with a 400 naming the field', async () => {
    const home = await createTestWorld(t.db, { enableElasticReportSummary: true });
    const center = await signedInAt(t, home, ['ROLE_CENTER']);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ startTime: '2026-01-07', endTime: '2026-01-06' }, 'endTime'],
      [{ startTime: '2025-01-01', endTime: '2026-01-01' }, 'endTime'],
      [{ ...RANGE, summaryType: 'WHENEVER' }, 'summaryType'],
      [{ endTime: '2026-01-06' }, 'startTime'],
    ];
    for (const [body, field] of cases) {
      const res = await center.browser.post('/api/query/report-summary', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ additionalInfo: string }>().additionalInfo).toBe(field);
    }
  });
});
