import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_MESSAGES, type TStudyListPage, type TSummaryTotals } from '@radflow/core';
import { eq } from 'drizzle-orm';
import { reportStatuses } from '../../db/schema.js';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestCenter,
  createTestWorld,
} from '../../../test/test-app.js';
import { createTestStudies, createTestStudy, signedInAt } from '../../../test/worklist-test-data.js';

/*
 * Issue 24 §1 and §6: POST /api/report-summary/ and /api/total-summary/ count only the rows the
 * caller may see (the one access rule: a center never another center's, nobody another group's),
 * over whole days of the group's display zone (+05:30), and answer bad input with a 400 naming it.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = { startTime: '2026-01-06', endTime: '2026-01-06' };
/** 05:00 UTC on the 6th: the 6th at +05:30. */
const ON_THE_6TH = new Date('2026-01-06T05:00:00Z');

async function summary(browser: TestClient, body: Record<string, unknown>) {
  const page = await browser.post('/api/report-summary/', { page: 0, size: 200, ...body });
  expect(page.statusCode, page.body).toBe(200);
  const totals = await browser.post('/api/total-summary/', body);
  expect(totals.statusCode, totals.body).toBe(200);
  return {
    ids: page
      .json<TStudyListPage>()
      .content.map((r) => r.id)
      .sort((a, b) => a - b),
    page: page.json<TStudyListPage>(),
    totals: totals.json<TSummaryTotals>(),
  };
}

const sorted = (rows: ReadonlyArray<{ row: { id: number } }>) =>
  rows.map((r) => r.row.id).sort((a, b) => a - b);

describe('the report summary counts only what the caller may see', () => {
  it('a center its own, an admin its group, a doctor their own work, never another group', async () => {
    const home = await createTestWorld(t.db);
    const otherCenter = await createTestCenter(t.db, { groupId: home.group.id });
    const otherGroup = await createTestWorld(t.db);
    const row = { createdAt: ON_THE_6TH };
    const mine = await createTestStudies(t.db, 2, { groupId: home.group.id, centerId: home.center.id, row });
    const theirs = await createTestStudies(t.db, 1, {
      groupId: home.group.id,
      centerId: otherCenter.id,
      row: { ...row, status: 'SIGNED_OFF', signedOffAt: ON_THE_6TH },
    });
    const elsewhere = await createTestStudies(t.db, 3, {
      groupId: otherGroup.group.id,
      centerId: otherGroup.center.id,
      row,
    });

    const center = await signedInAt(t, home, ['ROLE_CENTER']);
    const admin = await signedInAt(t, home, ['ROLE_ADMIN']);
    const doctor = await signedInAt(t, home, ['ROLE_DOCTOR']);
    const otherAdmin = await signedInAt(t, otherGroup, ['ROLE_ADMIN']);
    const firstMine = mine[0]!.row.id;
    await t.db
      .update(reportStatuses)
      .set({ assignedToUserId: doctor.user.id, status: 'SIGNED_OFF', signedOffAt: ON_THE_6TH })
      .where(eq(reportStatuses.id, firstMine));

    const atCenter = await summary(center.browser, DAY);
    expect(atCenter.ids).toEqual(sorted(mine));
    expect(atCenter.totals).toEqual({ total: 2, signedOff: 1, pending: 1, deleted: 0 });
    expect(atCenter.page.totalElements).toBe(2);

    const ofGroup = await summary(admin.browser, DAY);
    expect(ofGroup.ids).toEqual(sorted([...mine, ...theirs]));
    expect(ofGroup.totals).toEqual({ total: 3, signedOff: 2, pending: 1, deleted: 0 });

    // The pool of unassigned studies the doctor may open is not their summary.
    const ofDoctor = await summary(doctor.browser, DAY);
    expect(ofDoctor.ids).toEqual([firstMine]);
    expect(ofDoctor.totals.total).toBe(1);

    const ofOtherGroup = await summary(otherAdmin.browser, DAY);
    expect(ofOtherGroup.ids).toEqual(sorted(elsewhere));
    expect(ofOtherGroup.totals.total).toBe(3);
  });

  it('is refused to roles with no summary screen', async () => {
    const home = await createTestWorld(t.db);
    const typist = await signedInAt(t, home, ['ROLE_TYPIST']);
    const res = await typist.browser.post('/api/report-summary/', DAY);
    expect(res.statusCode).toBe(403);
  });
});

describe('the days of a summary are days of the display zone (+05:30)', () => {
  it('upload, signed-off and study time each put a row on its own day', async () => {
    const home = await createTestWorld(t.db);
    const admin = await signedInAt(t, home, ['ROLE_ADMIN']);
    const at = { groupId: home.group.id, centerId: home.center.id };
    // 18:29:59 UTC is 23:59:59 on the 5th at +05:30; 18:30:00 UTC is midnight of the 6th.
    const lastOf5th = await createTestStudy(t.db, {
      ...at,
      studyDate: '20260105',
      row: { createdAt: new Date('2026-01-05T18:29:59Z') },
    });
    const firstOf6th = await createTestStudy(t.db, {
      ...at,
      studyDate: '20260106',
      row: {
        createdAt: new Date('2026-01-05T18:30:00Z'),
        status: 'SIGNED_OFF',
        signedOffAt: new Date('2026-01-06T18:29:59Z'),
      },
    });
    const signedOn7th = await createTestStudy(t.db, {
      ...at,
      studyDate: '20260107',
      row: {
        createdAt: new Date('2026-01-06T18:30:00Z'),
        status: 'SIGNED_OFF',
        signedOffAt: new Date('2026-01-06T18:30:00Z'),
      },
    });
    const on = (day: string, summaryType?: string) =>
      summary(admin.browser, { startTime: day, endTime: day, ...(summaryType ? { summaryType } : {}) });

    expect((await on('2026-01-05')).ids).toEqual([lastOf5th.row.id]);
    expect((await on('2026-01-06', 'UPLOAD_TIME')).ids).toEqual([firstOf6th.row.id]);
    expect((await on('2026-01-06', 'SIGNED_OFF_TIME')).ids).toEqual([firstOf6th.row.id]);
    expect((await on('2026-01-07', 'SIGNED_OFF_TIME')).ids).toEqual([signedOn7th.row.id]);
    expect((await on('2026-01-07', 'STUDY_TIME')).ids).toEqual([signedOn7th.row.id]);
    const range = await summary(admin.browser, {
      startTime: '2026-01-05',
      endTime: '2026-01-06',
      summaryType: 'STUDY_TIME',
    });
    expect(range.ids).toEqual([lastOf5th.row.id, firstOf6th.row.id].sort((a, b) => a - b));
  });
});

describe('bad input is a 400 naming the field', () => {
  const cases: Array<[string, Record<string, unknown>, string, string | RegExp]> = [
    [
      'end before start',
      { startTime: '2026-01-07', endTime: '2026-01-06' },
      'endTime',
      SUMMARY_MESSAGES.endBeforeStart,
    ],
    [
      'a window over 180 days',
      { startTime: '2026-01-01', endTime: '2026-06-30' },
      'endTime',
      SUMMARY_MESSAGES.windowTooLong,
    ],
    ['no start date', { endTime: '2026-01-06' }, 'startTime', SUMMARY_MESSAGES.selectDate],
    ['a start that is no day', { startTime: '2026-02-30', endTime: '2026-03-01' }, 'startTime', /yyyy-MM-dd/],
    ['an unknown date type', { ...DAY, summaryType: 'PRINT_TIME' }, 'summaryType', /UPLOAD_TIME/],
    ['an unknown sort', { ...DAY, orderingCriteria: 'password' }, 'orderingCriteria', /orderingCriteria/],
  ];

  it.each(cases)('%s', async (_name, body, field, message) => {
    const home = await createTestWorld(t.db);
    const admin = await signedInAt(t, home, ['ROLE_ADMIN']);
    for (const path of ['/api/report-summary/', '/api/total-summary/', '/api/report-summary/xlsx']) {
      const res = await admin.browser.post(path, body);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(400);
      const error = res.json<{ errorDescription: string; additionalInfo: string }>();
      expect(error.additionalInfo).toBe(field);
      expect(error.errorDescription).toMatch(message);
    }
  });
});

describe('the group switches of the summary', () => {
  it("hideSummaryPage: 'You are not allowed to view this page' for everyone", async () => {
    const home = await createTestWorld(t.db, { hideSummaryPage: true });
    for (const roles of [['ROLE_ADMIN'], ['ROLE_CENTER'], ['ROLE_DOCTOR']] as const) {
      const user = await signedInAt(t, home, [...roles]);
      for (const path of ['/api/report-summary/', '/api/total-summary/', '/api/report-summary/csv']) {
        const res = await user.browser.post(path, DAY);
        expect(res.statusCode, `${roles[0]} ${path}`).toBe(403);
        expect(res.json<{ errorDescription: string }>().errorDescription).toBe(SUMMARY_MESSAGES.notAllowed);
      }
    }
  });

  it('teleMedSpecificCustomization: refused to a center and an assignor, not to a doctor', async () => {
    const home = await createTestWorld(t.db, { teleMedSpecificCustomization: true });
    const center = await signedInAt(t, home, ['ROLE_CENTER']);
    const assignor = await signedInAt(t, home, ['ROLE_ADMIN', 'ROLE_ASSIGNOR']);
    const doctor = await signedInAt(t, home, ['ROLE_DOCTOR']);
    expect((await center.browser.post('/api/report-summary/', DAY)).statusCode).toBe(403);
    expect((await assignor.browser.post('/api/report-summary/', DAY)).statusCode).toBe(403);
    expect((await doctor.browser.post('/api/report-summary/', DAY)).statusCode).toBe(200);
  });

  it('the assigned doctor is sent only where the column is shown (spec-lab §6)', async () => {
    const assignedOf = async (
      flags: Parameters<typeof createTestWorld>[1],
      roles: ['ROLE_ADMIN'] | ['ROLE_CENTER'],
    ) => {
      const home = await createTestWorld(t.db, flags);
      const doctor = await signedInAt(t, home, ['ROLE_DOCTOR']);
      await createTestStudy(t.db, {
        groupId: home.group.id,
        centerId: home.center.id,
        row: { createdAt: ON_THE_6TH, assignedToUserId: doctor.user.id },
      });
      const user = await signedInAt(t, home, roles);
      const { page } = await summary(user.browser, DAY);
      return { assignedTo: page.content[0]?.assignedTo, doctor: doctor.user.email };
    };
    // Off by default on the summary ("optional assigned-to").
    expect((await assignedOf({}, ['ROLE_ADMIN'])).assignedTo).toBeNull();
    const shown = await assignedOf({ showAssignedToInSummaryPage: true }, ['ROLE_ADMIN']);
    expect(shown.assignedTo).toBe(shown.doctor);
    const forCenter = { showAssignedToInSummaryPage: true, hideAssignedToForCenter: true };
    expect((await assignedOf(forCenter, ['ROLE_CENTER'])).assignedTo).toBeNull();
    const adminThere = await assignedOf(forCenter, ['ROLE_ADMIN']);
    expect(adminThere.assignedTo).toBe(adminThere.doctor);
  });
});
