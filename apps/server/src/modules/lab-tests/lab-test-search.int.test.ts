import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TLabTest, TLabTestPage, TRole } from '@radflow/core';
import { labBillTests, labBills, labPatients, labTests } from '../../db/schema.js';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
} from '../../../test/test-app.js';
import { signedIn } from '../../../test/worklist-test-data.js';

/**
 * POST /api/lab/all-test/get (the bill's test search, spec-lab §7) and POST /api/lab/test/search
 * (the test dashboard: tabs, added-date range, modality filter, paging; DECISIONS.md).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function lab() {
  const group = await createTestGroup(t.db);
  const center = await createTestCenter(t.db, { groupId: group.id });
  const at = async (roles: TRole[], centerId: number | null = center.id) =>
    (await signedIn(t, { roles, groupId: group.id, centerId })).browser;
  return { group, center, at, supervisor: await at(['ROLE_LABS_SUPERVISOR']) };
}

async function create(
  browser: TestClient,
  code: string,
  name: string,
  labModality = 'CT',
): Promise<TLabTest> {
  const res = await browser.post('/api/lab/test', {
    testCode: code,
    testName: name,
    testType: 'NORMAL',
    labModality,
    price: 100,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TLabTest>();
}

const put = (browser: TestClient, payload: unknown) =>
  browser.request({ method: 'PUT', url: '/api/lab/test', payload: payload as object });

async function page(browser: TestClient, url: string, body: unknown) {
  const res = await browser.post(url, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TLabTestPage>();
}
const codes = (p: TLabTestPage) => p.content.map((x) => x.testCode);

describe('POST /api/lab/all-test/get', () => {
  it('without text the first 5 active tests by code; fuzzy over code, name, modality; inactive never', async () => {
    const { supervisor, at } = await lab();
    const made: TLabTest[] = [];
    for (const [code, name, modality] of [
      ['G7', 'Knee MRI', 'MR'],
      ['A1', 'CT Head Plain', 'CT'],
      ['F6', 'USG Abdomen', 'US'],
      ['B2', 'CT Chest HRCT', 'CT'],
      ['E5', 'X-Ray Chest PA', 'DX'],
      ['C3', 'Mammogram', 'MG'],
      ['D4', 'Head MRI contrast', 'MR'],
    ] as const) {
      made.push(await create(supervisor, code, name, modality));
    }
    const c3 = made.find((x) => x.testCode === 'C3')!;
    expect((await put(supervisor, { ...c3, active: false })).statusCode).toBe(200);

    const receptionist = await at(['ROLE_LABS_RECEPTIONIST']);
    const first = await page(receptionist, '/api/lab/all-test/get', {});
    expect(codes(first)).toEqual(['A1', 'B2', 'D4', 'E5', 'F6']);
    expect(first.totalElements).toBe(6);

    expect(codes(await page(receptionist, '/api/lab/all-test/get', { text: 'head' }))).toEqual(['A1', 'D4']);
    expect(codes(await page(receptionist, '/api/lab/all-test/get', { text: 'chest ct' }))).toEqual(['B2']);
    expect(codes(await page(receptionist, '/api/lab/all-test/get', { text: 'mr' }))).toEqual(['D4', 'G7']);
    expect(codes(await page(receptionist, '/api/lab/all-test/get', { text: 'e5' }))).toEqual(['E5']);
    // The inactive mammogram cannot be billed.
    expect(codes(await page(receptionist, '/api/lab/all-test/get', { text: 'mammo' }))).toEqual([]);
    // A typed % is a character, not a wildcard.
    expect(codes(await page(receptionist, '/api/lab/all-test/get', { text: '%' }))).toEqual([]);
    expect(codes(await page(receptionist, '/api/lab/all-test/get', { labModality: 'CT' }))).toEqual([
      'A1',
      'B2',
    ]);
    expect(codes(await page(receptionist, '/api/lab/all-test/get', { page: 1, size: 4 }))).toEqual([
      'F6',
      'G7',
    ]);
  });

  it("another lab's tests are invisible (another center, another group)", async () => {
    const { supervisor, group, at } = await lab();
    await create(supervisor, 'MINE', 'Mine');
    const otherCenter = await createTestCenter(t.db, { groupId: group.id });
    for (const browser of [await at(['ROLE_LABS_RECEPTIONIST'], otherCenter.id), (await lab()).supervisor]) {
      expect((await page(browser, '/api/lab/all-test/get', {})).totalElements).toBe(0);
      expect((await page(browser, '/api/lab/test/search', { tab: 'All' })).totalElements).toBe(0);
    }
  });
});

describe('POST /api/lab/test/search (the test dashboard)', () => {
  it('Active: active tests; All: inactive too; Scheduled: tests on a SCHEDULED bill; newest first', async () => {
    const { supervisor, center, group } = await lab();
    const a = await create(supervisor, 'A', 'A');
    const b = await create(supervisor, 'B', 'B');
    const c = await create(supervisor, 'C', 'C');
    expect((await put(supervisor, { ...b, active: false })).statusCode).toBe(200);

    const owner = { groupId: group.id, labScope: 'CENTER' as const, labOwnerId: center.id };
    const [patient] = await t.db
      .insert(labPatients)
      .values({ ...owner, uhidNumber: `U${c.id}`, name: 'P', gender: 'M', designation: 'MR', createdBy: 'x' })
      .returning();
    const bill = async (
      status: 'SCHEDULED' | 'OPEN',
      testId: number,
      settlementStatus = 'FULL_PRICE' as const,
    ) => {
      const [row] = await t.db
        .insert(labBills)
        .values({
          ...owner,
          invoiceNumber: `I${status}${testId}${settlementStatus}`,
          status,
          billDate: new Date(),
          initialBillDate: new Date(),
          patientId: patient!.id,
          totalMinor: 100,
          finalMinor: 100,
          paymentMethod: 'UPI',
          createdBy: 'x',
        })
        .returning();
      await t.db.insert(labBillTests).values({
        billId: row!.id,
        position: 0,
        labTestId: testId,
        testCode: 'x',
        testName: 'x',
        labModality: 'CT',
        department: 'RADIOLOGY',
        originalPriceMinor: 100,
        priceMinor: 100,
        settlementStatus,
        accessionNumber: `ACC${row!.id}`,
      });
    };
    await bill('SCHEDULED', c.id);
    await bill('OPEN', a.id);

    expect(codes(await page(supervisor, '/api/lab/test/search', {}))).toEqual(['C', 'A']);
    expect(codes(await page(supervisor, '/api/lab/test/search', { tab: 'All' }))).toEqual(['C', 'B', 'A']);
    expect(codes(await page(supervisor, '/api/lab/test/search', { tab: 'Scheduled' }))).toEqual(['C']);
    const p = await page(supervisor, '/api/lab/test/search', { tab: 'All', size: 2, page: 1 });
    expect([codes(p), p.totalElements]).toEqual([['A'], 3]);
  });

  it('the added-date range and the modality filter', async () => {
    const { supervisor } = await lab();
    const old = await create(supervisor, 'OLD', 'Old', 'DX');
    await create(supervisor, 'NEW', 'New', 'CT');
    await create(supervisor, 'MRI', 'Mri', 'MR');
    await t.db
      .update(labTests)
      .set({ createdAt: new Date('2026-01-10T10:00:00Z') })
      .where(eq(labTests.id, old.id));

    const jan = { tab: 'All', startTime: '2026-01-10T00:00:00Z', endTime: '2026-01-11T00:00:00Z' };
    expect(codes(await page(supervisor, '/api/lab/test/search', jan))).toEqual(['OLD']);
    expect(
      codes(
        await page(supervisor, '/api/lab/test/search', { tab: 'All', startTime: '2026-02-01T00:00:00Z' }),
      ),
    ).toEqual(['MRI', 'NEW']);
    expect(
      codes(await page(supervisor, '/api/lab/test/search', { tab: 'All', labModalities: ['CT', 'DX'] })),
    ).toEqual(['NEW', 'OLD']);
    expect((await supervisor.post('/api/lab/test/search', { labModalities: ['PET'] })).statusCode).toBe(400);
  });
});
