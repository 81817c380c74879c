import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TRisPage, TRole } from '@radflow/core';
import { labBillTests } from '../../db/schema.js';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
  signIn,
} from '../../../test/test-app.js';
import { createTestStudy } from '../../../test/worklist-test-data.js';
import {
  type TTestLab,
  centerLab,
  insertLabBill,
  insertLabDoctor,
  insertLabPatient,
  insertLabTest,
} from '../../../test/lab-worklist-data.js';

/**
 * POST /api/lab/lab-bill-test/search (spec-lab §2 test-level dashboard, §3 RIS row, §7 filter):
 * the lab's bill lines with their report status, by tab, bill date, report status and modality;
 * 403 without the lab menu; another lab's lines (other center, other group) never appear.
 */

let t: TestApp;
let groupId: number;
let centerA: number;
let centerB: number;
let otherGroupCenter: number;
let otherGroupId: number;
const acc: Record<string, number> = {};
let signedOff: { studyInstanceUid: string; reportStatusId: number };

const at = (iso: string) => new Date(iso);

async function seedLab(lab: TTestLab, prefix: string) {
  const patient = await insertLabPatient(t.db, lab, { name: `${prefix} Patient` });
  const doctor = await insertLabDoctor(t.db, lab, { name: `${prefix} Doctor`, mobileNumber: '9123456780' });
  const ct = await insertLabTest(t.db, lab, { testName: 'CT Brain', labModality: 'CT' });
  const mr = await insertLabTest(t.db, lab, { testName: 'MRI Spine', labModality: 'MR' });
  const open = await insertLabBill(t.db, lab, {
    patientId: patient.id,
    referringDoctorId: doctor.id,
    billDate: at('2026-03-10T05:00:00Z'),
    dueMinor: 25_050,
    categories: [{ name: 'SENIOR', type: 'PATIENT_CATEGORY', discount: 10 }],
    lines: [{ test: ct }, { test: mr }, { test: mr, settlementStatus: 'CANCEL' }],
  });
  const scheduled = await insertLabBill(t.db, lab, {
    patientId: patient.id,
    status: 'SCHEDULED',
    billDate: at('2026-03-12T05:00:00Z'),
    lines: [{ test: ct }],
  });
  const cancelled = await insertLabBill(t.db, lab, {
    patientId: patient.id,
    status: 'CANCELLED',
    billDate: at('2026-03-11T05:00:00Z'),
    lines: [{ test: ct }],
  });
  return { open, scheduled, cancelled };
}

beforeAll(async () => {
  t = await createTestApp();
  groupId = (await createTestGroup(t.db)).id;
  centerA = (await createTestCenter(t.db, { groupId })).id;
  centerB = (await createTestCenter(t.db, { groupId })).id;
  otherGroupId = (await createTestGroup(t.db)).id;
  otherGroupCenter = (await createTestCenter(t.db, { groupId: otherGroupId })).id;

  const a = await seedLab(centerLab(groupId, centerA), 'A');
  acc.ct = a.open.lines[0]!.id;
  acc.mr = a.open.lines[1]!.id;
  acc.cancelledLine = a.open.lines[2]!.id;
  acc.scheduled = a.scheduled.lines[0]!.id;
  acc.cancelledBill = a.cancelled.lines[0]!.id;
  await seedLab(centerLab(groupId, centerB), 'B');
  await seedLab(centerLab(otherGroupId, otherGroupCenter), 'C');
  // The group's own lab (lab users without a center): not center A's.
  await seedLab({ groupId, labScope: 'GROUP', labOwnerId: groupId }, 'G');

  // The CT line's study is signed off; the scheduled line's study is locked by a doctor.
  const done = await createTestStudy(t.db, { groupId, centerId: centerA, row: { status: 'SIGNED_OFF' } });
  await t.db.update(labBillTests).set({ studyId: done.study.id }).where(eq(labBillTests.id, acc.ct));
  signedOff = { studyInstanceUid: done.study.studyInstanceUid, reportStatusId: done.row.id };
  const locked = await createTestStudy(t.db, { groupId, centerId: centerA, row: { status: 'LOCKED' } });
  await t.db.update(labBillTests).set({ studyId: locked.study.id }).where(eq(labBillTests.id, acc.scheduled));
});
afterAll(() => t.close());

const as = async (roles: TRole[], centerId: number | null, group = groupId) =>
  (await signIn(t, { roles, groupId: group, centerId })).browser;

async function search(browser: TestClient, body: Record<string, unknown> = {}): Promise<TRisPage> {
  const res = await browser.post('/api/lab/lab-bill-test/search', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TRisPage>();
}
const lineIds = (page: TRisPage) => page.content.map((r) => r.id).sort((x, y) => x - y);
const sorted = (...names: string[]) => names.map((n) => acc[n]!).sort((x, y) => x - y);

describe('test-level dashboard search', () => {
  it('answers RIS rows with the report status of the linked study (PENDING without one)', async () => {
    const receptionist = await as(['ROLE_LABS_RECEPTIONIST'], centerA);
    const page = await search(receptionist);
    expect(lineIds(page)).toEqual(sorted('ct', 'mr', 'scheduled'));
    expect(page.totalElements).toBe(3);
    const ct = page.content.find((r) => r.id === acc.ct)!;
    expect(ct).toMatchObject({
      labBillingStatus: 'OPEN',
      statusOfReport: 'SIGNED_OFF',
      reportStatusId: signedOff.reportStatusId,
      studyInstanceId: signedOff.studyInstanceUid,
      labModality: 'CT',
      testName: 'CT Brain',
      patient: { name: 'A Patient' },
      referringDoctor: { name: 'A Doctor', mobileNumber: '9123456780' },
      labBillCategories: [{ name: 'SENIOR', type: 'PATIENT_CATEGORY', discount: 10 }],
      dueAmount: 250.5,
    });
    expect(ct.invoiceNumber).toMatch(/^INV/);
    expect(page.content.find((r) => r.id === acc.mr)).toMatchObject({
      statusOfReport: 'PENDING',
      reportStatusId: null,
      studyInstanceId: null,
      referringDoctor: { name: 'A Doctor' },
    });
    // A row a doctor locked is not reported yet: CREATED in the lab's words.
    expect(page.content.find((r) => r.id === acc.scheduled)).toMatchObject({
      labBillingStatus: 'SCHEDULED',
      statusOfReport: 'CREATED',
    });
    // Newest bill first.
    expect(page.content[0]!.id).toBe(acc.scheduled);
  });

  it('filters by tab (scheduled / cancelled flags), report status, modality and bill date, and pages', async () => {
    const supervisor = await as(['ROLE_LABS_SUPERVISOR'], centerA);
    expect(lineIds(await search(supervisor, { scheduled: true }))).toEqual(sorted('scheduled'));
    expect(lineIds(await search(supervisor, { cancelled: true }))).toEqual(
      sorted('ct', 'mr', 'cancelledLine', 'scheduled', 'cancelledBill'),
    );
    expect(lineIds(await search(supervisor, { statuses: ['SIGNED_OFF'] }))).toEqual(sorted('ct'));
    expect(lineIds(await search(supervisor, { statuses: ['PENDING', 'CREATED'] }))).toEqual(
      sorted('mr', 'scheduled'),
    );
    expect(lineIds(await search(supervisor, { modality: 'MR' }))).toEqual(sorted('mr'));
    // Days of the group's display time zone (+05:30), both ends inclusive.
    expect(lineIds(await search(supervisor, { startTime: '2026-03-10', endTime: '2026-03-11' }))).toEqual(
      sorted('ct', 'mr'),
    );
    expect(lineIds(await search(supervisor, { startTime: '2026-03-12' }))).toEqual(sorted('scheduled'));
    const first = await search(supervisor, { size: 2, page: 0 });
    const second = await search(supervisor, { size: 2, page: 1 });
    expect(first).toMatchObject({ totalElements: 3, totalPages: 2, numberOfElements: 2 });
    expect([...lineIds(first), ...lineIds(second)].sort((x, y) => x - y)).toEqual(
      sorted('ct', 'mr', 'scheduled'),
    );
  });

  it("never shows another lab's lines: another center, the group's own lab, another group", async () => {
    const b = await search(await as(['ROLE_LABS_RECEPTIONIST'], centerB), { cancelled: true });
    expect(b.totalElements).toBe(5);
    expect(b.content.every((r) => r.patient.name === 'B Patient')).toBe(true);
    const groupLab = await search(await as(['ROLE_LABS_SUPERVISOR'], null), { cancelled: true });
    expect(groupLab.content.every((r) => r.patient.name === 'G Patient')).toBe(true);
    expect(groupLab.totalElements).toBe(5);
    const other = await search(await as(['ROLE_LABS_SUPERVISOR'], otherGroupCenter, otherGroupId), {
      cancelled: true,
    });
    expect(other.content.every((r) => r.patient.name === 'C Patient')).toBe(true);
  });

  it('403 for roles without the lab menu; 400 naming a bad filter', async () => {
    for (const roles of [['ROLE_CENTER'], ['ROLE_DOCTOR'], ['ROLE_ADMIN']] as TRole[][]) {
      const res = await (
        await as(roles, roles[0] === 'ROLE_CENTER' ? centerA : null)
      ).post('/api/lab/lab-bill-test/search', {});
      expect(res.statusCode, `${roles[0]}: ${res.body}`).toBe(403);
    }
    const receptionist = await as(['ROLE_LABS_RECEPTIONIST'], centerA);
    const badStatus = await receptionist.post('/api/lab/lab-bill-test/search', { statuses: ['DONE'] });
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.body).toContain('Unknown report status');
    const badDate = await receptionist.post('/api/lab/lab-bill-test/search', { startTime: '10/03/2026' });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.body).toContain('yyyy-MM-dd');
    const tooBig = await receptionist.post('/api/lab/lab-bill-test/search', { size: 1000 });
    expect(tooBig.statusCode).toBe(400);
  });
});
