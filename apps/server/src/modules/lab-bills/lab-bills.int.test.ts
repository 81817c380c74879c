import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBill, TBillListPage } from '@radflow/core';
import { eq } from 'drizzle-orm';
import { labAuditEvents, labBillTests, labPrefixes } from '../../db/schema.js';
import {
  type TestApp,
  createTestApp,
  createTestCenter,
  createTestGroup,
  signIn,
} from '../../../test/test-app.js';
import {
  centerLab,
  insertDoctor,
  insertPatient,
  insertTest,
  labPlace,
  put,
  setCenterSection,
} from '../../../test/lab-bill-data.js';
import { createTestStudy } from '../../../test/worklist-test-data.js';

/**
 * POST/PUT/GET /api/lab/bill and POST /api/lab/bill/search (spec-lab §3 Bill, §5 Bill, §7): the
 * server recomputes every amount, numbers the bill from the lab's prefix, and keeps each lab's bills
 * to itself.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('creating a bill', () => {
  it('recomputes the amounts, numbers it from the lab prefix, records the advance and an audit row', async () => {
    const p = await labPlace(t);
    await t.db.insert(labPrefixes).values({
      scope: 'CENTER',
      ownerId: p.center.id,
      prefix: 'INV-',
      sequence: 41,
      uhidPrefix: 'U',
      uhidSequence: 1,
    });
    const res = await p.receptionist.post('/api/lab/bill', {
      patientId: p.patient.id,
      referringDoctorId: p.doctor.id,
      labBillTests: [
        { labTestId: p.ct.id, quantity: 1 },
        { labTestId: p.dx.id, quantity: 2 },
      ],
      discountPercentage: 10,
      advancePaid: 1000,
      paymentMethod: 'CASH',
      transactionId: 'R-1',
      finalAmount: 2249,
    });
    expect(res.statusCode, res.body).toBe(200);
    const bill = res.json<TBill>();
    // 1500 + 2 × 499.50 = 2499; 10% = 249.90; 2249.10 → 2249
    expect(bill).toMatchObject({
      status: 'OPEN',
      invoiceNumber: 'INV-41',
      totalPrice: 2499,
      discountPercentage: 10,
      discountAmount: 249.9,
      finalAmount: 2249,
      advancePaid: 1000,
      due: true,
      dueAmount: 1249,
      paymentMethod: 'CASH',
      patient: { id: p.patient.id, name: 'Asha Rao' },
      referringDoctor: { id: p.doctor.id, name: 'Dr Mehta' },
    });
    expect(
      bill.labBillTests.map((l) => [l.testCode, l.quantity, l.originalPrice, l.price, l.settlementStatus]),
    ).toEqual([
      ['CT01', 1, 1500, 1500, 'FULL_PRICE'],
      ['DX01', 2, 499.5, 999, 'FULL_PRICE'],
    ]);
    for (const line of bill.labBillTests) expect(line.accessionNumber).toMatch(/^RF\d{8,14}$/);
    expect(bill.labTransactions).toMatchObject([
      { paymentMethod: 'CASH', transactionId: 'R-1', amount: 1000 },
    ]);
    const [prefix] = await t.db.select().from(labPrefixes).where(eq(labPrefixes.ownerId, p.center.id));
    expect(prefix?.sequence).toBe(42);
    const audit = await t.db.select().from(labAuditEvents).where(eq(labAuditEvents.entityId, bill.id));
    expect(audit.filter((a) => a.entity === 'BILL').map((a) => a.action)).toEqual(['CREATED']);

    const again = await p.supervisor.get(`/api/lab/bill/get/${bill.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(bill);
  });

  it('makes the prefix row with the defaults when the lab never set one', async () => {
    const p = await labPlace(t);
    const res = await p.receptionist.post('/api/lab/bill', {
      patientId: p.patient.id,
      labBillTests: [{ labTestId: p.ct.id, quantity: 1 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TBill>()).toMatchObject({ invoiceNumber: '1', dueAmount: 1500, advancePaid: 0 });
  });

  it('discounts by amount, deriving the percent to 2 decimals', async () => {
    const p = await labPlace(t);
    const res = await p.receptionist.post('/api/lab/bill', {
      patientId: p.patient.id,
      labBillTests: [{ labTestId: p.ct.id, quantity: 2 }],
      discountAmount: 1000,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TBill>()).toMatchObject({
      totalPrice: 3000,
      discountAmount: 1000,
      discountPercentage: 33.33,
      finalAmount: 2000,
    });
  });

  it('a client total that disagrees is refused naming it; nothing is stored', async () => {
    const p = await labPlace(t);
    const res = await p.receptionist.post('/api/lab/bill', {
      patientId: p.patient.id,
      labBillTests: [{ labTestId: p.ct.id, quantity: 1 }],
      finalAmount: 100,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errorDescription: 'finalAmount: sent 100, the bill comes to 1500',
      additionalInfo: 'finalAmount',
    });
    const list = await p.receptionist.post('/api/lab/bill/search', {});
    expect(list.json<TBillListPage>().totalElements).toBe(0);
  });

  it("refuses an advance above the final amount with the spec's message", async () => {
    const p = await labPlace(t);
    const res = await p.receptionist.post('/api/lab/bill', {
      patientId: p.patient.id,
      labBillTests: [{ labTestId: p.dx.id, quantity: 1 }],
      advancePaid: 600,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorDescription: 'Advance Paid should be less than Final Amount' });
  });

  it('a patient category gives its discount; priorities give none; categories need enableRISCategory', async () => {
    const p = await labPlace(t, { enableRISCategory: true });
    await setCenterSection(t.db, p.center.id, 'LAB_CATEGORY_PRIORITY', {
      categoriesAndPriorities: [
        { name: 'STAFF', type: 'PATIENT_CATEGORY', discount: 20, disabled: false },
        { name: 'URGENT', type: 'PRIORITY', discount: 0, disabled: false },
      ],
    });
    const body = {
      patientId: p.patient.id,
      labBillTests: [{ labTestId: p.ct.id, quantity: 1 }],
      labBillCategories: [
        { name: 'staff', type: 'PATIENT_CATEGORY' },
        { name: 'URGENT', type: 'PRIORITY' },
      ],
    };
    const res = await p.receptionist.post('/api/lab/bill', body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TBill>()).toMatchObject({
      discountPercentage: 20,
      discountAmount: 300,
      finalAmount: 1200,
      labBillCategories: [
        { name: 'STAFF', type: 'PATIENT_CATEGORY', discount: 20 },
        { name: 'URGENT', type: 'PRIORITY', discount: 0 },
      ],
    });
    // The discount fields are the category's: another percent is refused.
    const other = await p.receptionist.post('/api/lab/bill', { ...body, discountPercentage: 5 });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ additionalInfo: 'discountPercentage' });

    const off = await labPlace(t);
    const refused = await off.receptionist.post('/api/lab/bill', {
      ...body,
      patientId: off.patient.id,
      labBillTests: [{ labTestId: off.ct.id, quantity: 1 }],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ additionalInfo: 'labBillCategories' });
  });

  it('refuses inactive tests and doctors, and the people and tests of another lab', async () => {
    const p = await labPlace(t);
    const oldTest = await insertTest(t.db, p.owner, { code: 'OLD', rupees: 10, active: false });
    const retired = await insertDoctor(t.db, p.owner, { active: false });
    const elsewhere = centerLab(p.group.id, (await createTestCenter(t.db, { groupId: p.group.id })).id);
    const strangerPatient = await insertPatient(t.db, elsewhere);
    const strangerTest = await insertTest(t.db, elsewhere, { code: 'X1', rupees: 10 });
    const line = [{ labTestId: p.ct.id, quantity: 1 }];
    const cases: [Record<string, unknown>, string][] = [
      [
        { patientId: p.patient.id, labBillTests: [{ labTestId: oldTest.id, quantity: 1 }] },
        'labBillTests[0].labTestId',
      ],
      [{ patientId: p.patient.id, referringDoctorId: retired.id, labBillTests: line }, 'referringDoctorId'],
      [{ patientId: strangerPatient.id, labBillTests: line }, 'patientId'],
      [
        { patientId: p.patient.id, labBillTests: [{ labTestId: strangerTest.id, quantity: 1 }] },
        'labBillTests[0].labTestId',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await p.receptionist.post('/api/lab/bill', body);
      expect(res.statusCode, field).toBe(400);
      expect(res.json()).toMatchObject({ additionalInfo: field });
    }
  });
});

describe('who sees a bill', () => {
  it('403 for roles without the lab menu; 404 for another center and another group', async () => {
    const p = await labPlace(t);
    const created = await p.receptionist.post('/api/lab/bill', {
      patientId: p.patient.id,
      labBillTests: [{ labTestId: p.ct.id, quantity: 1 }],
    });
    const bill = created.json<TBill>();

    const centerUser = await p.as(['ROLE_CENTER']);
    expect((await centerUser.get(`/api/lab/bill/get/${bill.id}`)).statusCode).toBe(403);
    expect((await centerUser.post('/api/lab/bill/search', {})).statusCode).toBe(403);
    expect(
      (
        await centerUser.post('/api/lab/bill', {
          patientId: p.patient.id,
          labBillTests: [{ labTestId: p.ct.id, quantity: 1 }],
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await put(centerUser, '/api/lab/cancel-status', { id: bill.id, cancellationRemark: 'x' })).statusCode,
    ).toBe(403);

    const otherCenter = await createTestCenter(t.db, { groupId: p.group.id });
    const neighbour = await p.as(['ROLE_LABS_SUPERVISOR'], otherCenter.id);
    const otherGroup = await createTestGroup(t.db);
    const stranger = (
      await signIn(t, {
        roles: ['ROLE_LABS_SUPERVISOR'],
        groupId: otherGroup.id,
        centerId: (await createTestCenter(t.db, { groupId: otherGroup.id })).id,
      })
    ).browser;
    for (const browser of [neighbour, stranger]) {
      expect((await browser.get(`/api/lab/bill/get/${bill.id}`)).statusCode).toBe(404);
      expect(
        (await put(browser, '/api/lab/cancel-status', { id: bill.id, cancellationRemark: 'x' })).statusCode,
      ).toBe(404);
      expect(
        (
          await put(browser, '/api/lab/bill/update-transaction', {
            id: bill.id,
            labTransactions: [{ amount: 1 }],
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (
          await put(browser, '/api/lab/bill', {
            id: bill.id,
            version: bill.version,
            patientId: p.patient.id,
            labBillTests: [{ id: bill.labBillTests[0]!.id, labTestId: p.ct.id, quantity: 1 }],
          })
        ).statusCode,
      ).toBe(404);
      expect((await browser.post('/api/lab/bill/search', {})).json<TBillListPage>().totalElements).toBe(0);
    }
    expect((await p.receptionist.get(`/api/lab/bill/get/${bill.id}`)).statusCode).toBe(200);
  });
});

describe('the billing list', () => {
  it('answers every column, by tab statuses and bill-date days, paged', async () => {
    const p = await labPlace(t, { enableRISCategory: true });
    await setCenterSection(t.db, p.center.id, 'LAB_CATEGORY_PRIORITY', {
      categoriesAndPriorities: [{ name: 'URGENT', type: 'PRIORITY', discount: 0, disabled: false }],
    });
    const create = (body: Record<string, unknown>) =>
      p.supervisor.post('/api/lab/bill', {
        patientId: p.patient.id,
        referringDoctorId: p.doctor.id,
        ...body,
      });
    const first = (
      await create({
        labBillTests: [
          { labTestId: p.ct.id, quantity: 1 },
          { labTestId: p.dx.id, quantity: 1 },
        ],
        labBillCategories: [{ name: 'URGENT', type: 'PRIORITY' }],
        billDate: '2026-11-20T10:00:00+05:30',
      })
    ).json<TBill>();
    const second = (
      await create({
        labBillTests: [{ labTestId: p.dx.id, quantity: 1 }],
        billDate: '2026-11-21T23:30:00+05:30',
      })
    ).json<TBill>();
    const third = (
      await create({
        labBillTests: [{ labTestId: p.dx.id, quantity: 1 }],
        billDate: '2026-11-22T09:00:00+05:30',
      })
    ).json<TBill>();
    expect(
      (
        await put(p.supervisor, '/api/lab/cancel-status', {
          id: third.id,
          cancellationRemark: 'patient left',
        })
      ).statusCode,
    ).toBe(200);

    const active = await p.receptionist.post('/api/lab/bill/search', {});
    expect(active.statusCode, active.body).toBe(200);
    const page = active.json<TBillListPage>();
    expect(page.totalElements).toBe(2);
    expect(page.content.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(page.content[1]).toEqual({
      id: first.id,
      version: 1,
      status: 'OPEN',
      invoiceNumber: first.invoiceNumber,
      uhidNumber: p.patient.uhidNumber,
      patientName: 'Asha Rao',
      mobileNumber: '9876543210',
      referringDoctorName: 'Dr Mehta',
      tests: ['CT: CT01 CT Head (1500)', 'DX: DX01 Chest PA (499.5)'],
      modalities: ['CT', 'DX'],
      reportStatuses: [
        { testCode: 'CT01', status: 'PENDING', studyInstanceUid: null, reportStatusId: null },
        { testCode: 'DX01', status: 'PENDING', studyInstanceUid: null, reportStatusId: null },
      ],
      categories: [],
      priorities: ['URGENT'],
      totalPrice: 1999.5,
      finalAmount: 2000,
      dueAmount: 2000,
      billDate: new Date('2026-11-20T10:00:00+05:30').toISOString(),
      createdAt: first.createdAt,
    });

    const all = (
      await p.receptionist.post('/api/lab/bill/search', {
        labBillingStatuses: ['SCHEDULED', 'OPEN', 'CANCELLED', 'COMPLETED'],
      })
    ).json<TBillListPage>();
    expect(all.totalElements).toBe(3);
    // Days in the group's zone: 23:30 on the 21st (+05:30) is the 21st.
    const day = (
      await p.receptionist.post('/api/lab/bill/search', { startTime: '2026-11-21', endTime: '2026-11-21' })
    ).json<TBillListPage>();
    expect(day.content.map((r) => r.id)).toEqual([second.id]);
    const paged = (
      await p.receptionist.post('/api/lab/bill/search', { size: 1, page: 1 })
    ).json<TBillListPage>();
    expect(paged).toMatchObject({ totalElements: 2, page: 1, size: 1, content: [{ id: first.id }] });
    const bad = await p.receptionist.post('/api/lab/bill/search', { startTime: '2026-11-31' });
    expect(bad.statusCode).toBe(400);
  });

  it('shows each test’s report status, and filters by a test’s modality and report status', async () => {
    const p = await labPlace(t);
    const bill = async (tests: { id: number }[]) => {
      const res = await p.receptionist.post('/api/lab/bill', {
        patientId: p.patient.id,
        labBillTests: tests.map((test) => ({ labTestId: test.id, quantity: 1 })),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TBill>();
    };
    // `both`: its CT test is signed off, its DX test has no study yet; `dxOnly`: nothing yet.
    const both = await bill([p.ct, p.dx]);
    const dxOnly = await bill([p.dx]);
    const done = await createTestStudy(t.db, {
      groupId: p.group.id,
      centerId: p.center.id,
      row: { status: 'SIGNED_OFF' },
    });
    await t.db
      .update(labBillTests)
      .set({ studyId: done.study.id })
      .where(eq(labBillTests.id, both.labBillTests[0]!.id));
    const search = async (body: Record<string, unknown>) => {
      const res = await p.receptionist.post('/api/lab/bill/search', body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TBillListPage>();
    };
    const ids = async (body: Record<string, unknown>) => (await search(body)).content.map((r) => r.id);

    const row = (await search({})).content.find((r) => r.id === both.id)!;
    expect(row.reportStatuses).toEqual([
      {
        testCode: 'CT01',
        status: 'SIGNED_OFF',
        studyInstanceUid: done.study.studyInstanceUid,
        reportStatusId: done.row.id,
      },
      { testCode: 'DX01', status: 'PENDING', studyInstanceUid: null, reportStatusId: null },
    ]);
    expect(await ids({ testModality: 'CT' })).toEqual([both.id]);
    expect(await ids({ testModality: 'DX' })).toEqual([dxOnly.id, both.id]);
    expect(await ids({ labReportStatuses: ['SIGNED_OFF'] })).toEqual([both.id]);
    expect(await ids({ labReportStatuses: ['PENDING'] })).toEqual([dxOnly.id, both.id]);
    // Both conditions hold for one test: the CT test is signed off, not pending.
    const none = await search({ testModality: 'CT', labReportStatuses: ['PENDING'] });
    expect(none).toMatchObject({ content: [], totalElements: 0 });
    const bad = await p.receptionist.post('/api/lab/bill/search', { testModality: 'XRAY' });
    expect(bad.statusCode).toBe(400);
  });
});
