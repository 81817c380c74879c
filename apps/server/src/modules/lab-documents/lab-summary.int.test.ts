import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_DISPLAY_TIME_ZONE,
  calendarDayIn,
  type TBill,
  type TLabSummaryPage,
  type TLabUser,
  type TRole,
} from '@radflow/core';
import { centerLab, insertPatient, insertTest, put } from '../../../test/lab-bill-data.js';
import { insertBill } from '../../../test/lab-docs-data.js';
import { pdfText } from '../../../test/pdf-text.js';
import {
  type TestApp,
  type TestClient,
  clockAtNoonIn,
  createTestApp,
  createTestCenter,
  createTestWorld,
  signIn,
} from '../../../test/test-app.js';
import { readXlsxRows } from '../../../test/xlsx-read.js';

/*
 * The lab summary (spec-lab §2 /lab/summary, §5 'Please select date', §6 supervisor, §7 calls):
 * POST /api/lab/summary/search, GET /api/lab/get-lab-users, the CSV, the tests Excel, the summary
 * PDF (enableSummaryPdfRIS) and the AMU day-end PDF (amuSpecialCustomization). Each test builds its
 * own lab (a center) so the rows it counts are its own.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // A bill made through the API is dated by the app's clock: at noon, today is the day it was made.
  clockAtNoonIn(t, DEFAULT_DISPLAY_TIME_ZONE);
});
afterAll(() => t.close());

interface TActor {
  browser: TestClient;
  email: string;
  name: string;
}

async function newLab(flags: Record<string, boolean> = {}) {
  const world = await createTestWorld(t.db, flags);
  const as = async (roles: TRole[], centerId: number | null = world.center.id): Promise<TActor> => {
    const { user, browser } = await signIn(t, { roles, groupId: world.group.id, centerId });
    return { browser, email: user.email, name: user.identifier };
  };
  return {
    world,
    lab: { groupId: world.group.id, centerId: world.center.id },
    as,
    supervisor: await as(['ROLE_LABS_SUPERVISOR']),
    asha: await as(['ROLE_LABS_RECEPTIONIST']),
    bala: await as(['ROLE_LABS_RECEPTIONIST']),
  };
}

// 2026-10-05 in IST (+05:30): from 2026-10-04T18:30Z to 2026-10-05T18:30Z.
const DAY = '2026-10-05';
const at = (hhmm: string) => new Date(`${DAY}T${hhmm}:00+05:30`);
const RANGE = { startTime: DAY, endTime: DAY };

async function search(browser: TestClient, body: object): Promise<TLabSummaryPage> {
  const res = await browser.post('/api/lab/summary/search', { ...RANGE, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TLabSummaryPage>();
}

describe('POST /api/lab/summary/search', () => {
  it('a supervisor sees the lab’s bills of the range with their payments; totals leave cancelled bills out', async () => {
    const L = await newLab();
    const first = await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.asha.email,
      billDate: at('09:00'),
      createdAt: at('09:00'),
      lines: [{ testCode: 'CT01', testName: 'CT Head', labModality: 'CT', priceMinor: 2000_00 }],
      payments: [{ method: 'UPI', amountMinor: 1500_00, transactionId: 'U-1', by: L.asha.email }],
    });
    const second = await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.bala.email,
      billDate: at('10:00'),
      createdAt: at('10:00'),
      lines: [{ priceMinor: 500_00 }],
      payments: [{ method: 'CASH', amountMinor: 500_00, by: L.supervisor.email }],
    });
    await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.bala.email,
      status: 'CANCELLED',
      billDate: at('11:00'),
      createdAt: at('11:00'),
      lines: [{ priceMinor: 700_00 }],
    });
    // The evening before in IST (the 5th already in UTC+14, the 4th in UTC), a scheduled bill (not
    // asked for), another center of the group, another group: none of them.
    await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.asha.email,
      billDate: new Date('2026-10-04T23:50:00+05:30'),
      lines: [{ priceMinor: 1 }],
    });
    await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.asha.email,
      status: 'SCHEDULED',
      billDate: at('12:00'),
      lines: [{ priceMinor: 300_00 }],
    });
    const otherCenter = await createTestCenter(t.db, { groupId: L.world.group.id });
    await insertBill(t.db, {
      lab: { groupId: L.world.group.id, centerId: otherCenter.id },
      createdBy: L.asha.email,
      billDate: at('09:30'),
      lines: [{ priceMinor: 1 }],
    });
    const otherGroup = await createTestWorld(t.db);
    await insertBill(t.db, {
      lab: { groupId: otherGroup.group.id, centerId: otherGroup.center.id },
      createdBy: L.asha.email,
      billDate: at('09:30'),
      lines: [{ priceMinor: 1 }],
    });

    const page = await search(L.supervisor.browser, {});
    expect(page.totalElements).toBe(3);
    expect(page.content.map((r) => r.status)).toEqual(['CANCELLED', 'OPEN', 'OPEN']); // newest first
    const row = page.content.find((r) => r.id === first.id)!;
    expect(row).toMatchObject({
      invoiceNumber: first.invoiceNumber,
      patientName: first.patientName,
      uhidNumber: first.uhidNumber,
      receptionistEmail: L.asha.email,
      receptionistName: L.asha.name,
      tests: ['CT: CT01 CT Head (2000)'],
      totalAmount: 2000,
      finalAmount: 2000,
      advancePaid: 1500,
      dueAmount: 500,
    });
    expect(row.labTransactions).toEqual([
      expect.objectContaining({
        paymentMethod: 'UPI',
        transactionId: 'U-1',
        amount: 1500,
        recordedByName: L.asha.name,
      }),
    ]);
    expect(page.content.find((r) => r.id === second.id)!.labTransactions[0]!.recordedByName).toBe(
      L.supervisor.name,
    );
    expect(page.totals).toEqual({
      bills: 2,
      totalAmount: 2500,
      discountAmount: 0,
      finalAmount: 2500,
      advancePaid: 2000,
      dueAmount: 500,
    });

    const scheduled = await search(L.supervisor.browser, { scheduled: true });
    expect(scheduled.content.map((r) => r.status)).toEqual(['SCHEDULED']);

    const paged = await search(L.supervisor.browser, { size: 2, page: 1 });
    expect(paged.content).toHaveLength(1);
    expect(paged.totalElements).toBe(3);
  });

  it('sorts by created at, receptionist name and the first payment’s recorder; filters by receptionist', async () => {
    const L = await newLab();
    const a = await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.asha.email,
      billDate: at('09:00'),
      createdAt: at('09:00'),
      lines: [{ priceMinor: 100_00 }],
      payments: [{ method: 'CASH', amountMinor: 100_00, by: L.bala.email }],
    });
    const b = await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.bala.email,
      billDate: at('10:00'),
      createdAt: at('10:00'),
      lines: [{ priceMinor: 100_00 }],
      payments: [{ method: 'CASH', amountMinor: 100_00, by: L.asha.email }],
    });
    const c = await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.asha.email,
      billDate: at('11:00'),
      createdAt: at('11:00'),
      lines: [{ priceMinor: 100_00 }],
    });
    const ids = async (body: object) => (await search(L.supervisor.browser, body)).content.map((r) => r.id);

    expect(await ids({ sortType: 'DATE_CREATED_AT', sortOrder: 'ASC' })).toEqual([a.id, b.id, c.id]);
    expect(await ids({ sortType: 'DATE_CREATED_AT' })).toEqual([c.id, b.id, a.id]);
    const [first, second] = [L.asha, L.bala].sort((x, y) => (x.name < y.name ? -1 : 1));
    const byCreator = await ids({ sortType: 'RECEPTIONIST_NAME', sortOrder: 'ASC' });
    expect(byCreator).toEqual(first === L.asha ? [a.id, c.id, b.id] : [b.id, a.id, c.id]);
    const byRecorder = await ids({ sortType: 'PAYMENT_RECORDED_BY', sortOrder: 'ASC' });
    // a's payment by Bala, b's by Asha; c has none and comes last.
    expect(byRecorder).toEqual(second === L.bala ? [b.id, a.id, c.id] : [a.id, b.id, c.id]);

    expect(await ids({ receptionistName: L.bala.email })).toEqual([b.id]);
    expect(await ids({ receptionistName: L.asha.name.toUpperCase() })).toEqual([c.id, a.id]);
    expect(await ids({ receptionistName: '' })).toHaveLength(3);
  });

  it('sorts by the recorder of the first payment the bill calls took, on the page and in the CSV', async () => {
    const L = await newLab();
    const owner = centerLab(L.lab.groupId, L.lab.centerId);
    const [patient, test] = await Promise.all([
      insertPatient(t.db, owner),
      insertTest(t.db, owner, { code: 'CT01', name: 'CT Head', modality: 'CT', rupees: 1000 }),
    ]);
    const bill = async (by: TActor, advancePaid?: number) => {
      const res = await by.browser.post('/api/lab/bill', {
        patientId: patient.id,
        labBillTests: [{ labTestId: test.id, quantity: 1 }],
        ...(advancePaid ? { advancePaid } : {}),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TBill>();
    };
    const pay = async (by: TActor, id: number, amount: number) => {
      const res = await put(by.browser, '/api/lab/bill/update-transaction', {
        id,
        labTransactions: [{ amount, paymentMethod: 'CASH' }],
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    // x: Asha took the advance; Bala's later payment is not the first.
    const x = await bill(L.asha, 200);
    await pay(L.bala, x.id, 100);
    // y: billed by Asha without an advance; Bala took the first payment.
    const y = await bill(L.asha);
    await pay(L.bala, y.id, 300);
    await pay(L.asha, y.id, 100);
    // z: never paid: last whatever the order.
    const z = await bill(L.bala);

    const today = calendarDayIn(t.app.ctx.now(), DEFAULT_DISPLAY_TIME_ZONE);
    const range = { startTime: today, endTime: today, sortType: 'PAYMENT_RECORDED_BY' };
    const ids = async (sortOrder: string) =>
      (await search(L.supervisor.browser, { ...range, sortOrder })).content.map((r) => r.id);
    const ashaFirst = L.asha.name < L.bala.name;
    expect(await ids('ASC')).toEqual(ashaFirst ? [x.id, y.id, z.id] : [y.id, x.id, z.id]);
    expect(await ids('DESC')).toEqual(ashaFirst ? [y.id, x.id, z.id] : [x.id, y.id, z.id]);

    const csv = await L.supervisor.browser.post('/api/lab/summary/csv', { ...range, sortOrder: 'ASC' });
    expect(csv.statusCode, csv.body).toBe(200);
    const invoices = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
      .slice(1, 4)
      .map((line) => line.split(',')[0]);
    const asc = ashaFirst ? [x, y, z] : [y, x, z];
    expect(invoices).toEqual(asc.map((b) => b.invoiceNumber));
  });

  it('a receptionist sees only the bills they created, whatever name they send', async () => {
    const L = await newLab();
    const own = await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.asha.email,
      billDate: at('09:00'),
      lines: [{ priceMinor: 100_00 }],
    });
    await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.bala.email,
      billDate: at('09:30'),
      lines: [{ priceMinor: 200_00 }],
    });
    for (const body of [{}, { receptionistName: L.bala.email }, { receptionistName: L.bala.name }]) {
      const page = await search(L.asha.browser, body);
      expect(page.content.map((r) => r.id)).toEqual([own.id]);
      expect(page.totals.totalAmount).toBe(100);
    }
  });

  it("both dates are needed: 400 'Please select date' naming the missing one, for the search and every download", async () => {
    const L = await newLab({ enableSummaryPdfRIS: true, amuSpecialCustomization: true });
    for (const url of [
      '/api/lab/summary/search',
      '/api/lab/summary/csv',
      '/api/lab/summary/tests/csv',
      '/api/lab/summary/pdf',
      '/api/lab/summary/amu-summary-pdf',
    ]) {
      for (const [body, field] of [
        [{}, 'startTime'],
        [{ startTime: DAY }, 'endTime'],
        [{ startTime: DAY, endTime: null }, 'endTime'],
      ] as const) {
        const res = await L.supervisor.browser.post(url, body);
        expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
        expect(res.json()).toMatchObject({ errorDescription: 'Please select date', additionalInfo: field });
      }
    }
    const bad = await L.supervisor.browser.post('/api/lab/summary/search', { ...RANGE, sortType: 'PATIENT' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('GET /api/lab/get-lab-users', () => {
  it("a supervisor gets the lab's receptionists and supervisors; a receptionist gets 403", async () => {
    const L = await newLab();
    const other = await createTestCenter(t.db, { groupId: L.world.group.id });
    await L.as(['ROLE_LABS_RECEPTIONIST'], other.id);
    await L.as(['ROLE_CENTER']);
    const res = await L.supervisor.browser.get('/api/lab/get-lab-users');
    expect(res.statusCode, res.body).toBe(200);
    const users = res.json<TLabUser[]>();
    expect(users.map((u) => u.email).sort()).toEqual([L.supervisor.email, L.asha.email, L.bala.email].sort());
    expect(users.map((u) => u.name)).toEqual([...users.map((u) => u.name)].sort());
    expect((await L.asha.browser.get('/api/lab/get-lab-users')).statusCode).toBe(403);
  });
});

describe('the downloads', () => {
  it('the CSV: every bill, its payments, the totals; formula-like text is made safe', async () => {
    const L = await newLab();
    const bill = await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.asha.email,
      billDate: at('09:00'),
      patient: { name: '=HYPERLINK("http://x")' },
      lines: [{ testCode: 'US02', testName: 'USG Abdomen', labModality: 'US', priceMinor: 1200_00 }],
      payments: [{ method: 'CARD', amountMinor: 1200_00, transactionId: 'C-9' }],
    });
    const res = await L.supervisor.browser.post('/api/lab/summary/csv', RANGE);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="lab-summary-${DAY}-to-${DAY}.csv"`,
    );
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Invoice No.,Bill Date,Created At,Status,Patient,UHID,Receptionist,Tests,Total,Discount,Net Payable,Advance Paid,Due,Payments',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`${bill.invoiceNumber},2026-10-05 09:00:00 UTC+05:30,`);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(lines[1]).toContain('US: US02 USG Abdomen (1200),1200,0,1200,1200,0,CARD 1200.00 (C-9) by');
    expect(lines[2]).toMatch(/^Total of 1 bills \(cancelled excluded\),+1200,0,1200,1200,0,$/);
  });

  it('the tests Excel: a real .xlsx, one row per test line; supervisors only', async () => {
    const L = await newLab();
    const bill = await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.asha.email,
      billDate: at('09:00'),
      lines: [
        { testCode: 'CT01', testName: 'CT Head', labModality: 'CT', priceMinor: 2000_00 },
        {
          testCode: 'DX07',
          testName: 'Chest PA',
          labModality: 'DX',
          quantity: 2,
          priceMinor: 400_00,
          refundMinor: 150_00,
          settlementStatus: 'PARTIAL_REFUND',
        },
      ],
    });
    const res = await L.supervisor.browser.post('/api/lab/summary/tests/csv', RANGE);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const rows = await readXlsxRows(res.rawPayload);
    expect(rows[0]).toEqual([
      'Invoice No.',
      'Bill Date',
      'Status',
      'Patient',
      'UHID',
      'Receptionist',
      'Test Code',
      'Test Name',
      'Modality',
      'Department',
      'Quantity',
      'Price',
      'Refund',
      'Amount',
      'Settlement',
      'Appointment',
    ]);
    expect(rows.slice(1).map((r) => [r[0], r[6], r[8], r[10], r[11], r[12], r[13], r[14]])).toEqual([
      [bill.invoiceNumber, 'CT01', 'CT', '1', '2000', '0', '2000', 'FULL_PRICE'],
      [bill.invoiceNumber, 'DX07', 'DX', '2', '400', '150', '650', 'PARTIAL_REFUND'],
    ]);
    const refused = await L.asha.browser.post('/api/lab/summary/tests/csv', RANGE);
    expect(refused.statusCode).toBe(403);
  });

  it('the summary PDF only under enableSummaryPdfRIS: the bills and totals', async () => {
    const off = await newLab();
    expect((await off.supervisor.browser.post('/api/lab/summary/pdf', RANGE)).statusCode).toBe(403);

    const L = await newLab({ enableSummaryPdfRIS: true });
    const bill = await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.asha.email,
      billDate: at('09:00'),
      patient: { name: 'Kiran Das' },
      lines: [{ priceMinor: 1500_00 }],
      payments: [{ method: 'UPI', amountMinor: 1000_00 }],
    });
    const res = await L.supervisor.browser.post('/api/lab/summary/pdf', {
      ...RANGE,
      sortType: 'RECEPTIONIST_NAME',
      receptionistName: '',
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(res.rawPayload);
    for (const expected of [
      'LAB SUMMARY',
      'All Receptionists',
      bill.invoiceNumber,
      'Kiran Das',
      'Net Payable ₹1,500.00',
      'Advance Paid ₹1,000.00',
      'Due ₹500.00',
    ])
      expect(text).toContain(expected);
  });

  it('the AMU PDF: supervisors under amuSpecialCustomization; collection by modality and by payment method', async () => {
    const off = await newLab();
    expect((await off.supervisor.browser.post('/api/lab/summary/amu-summary-pdf', RANGE)).statusCode).toBe(
      403,
    );

    const L = await newLab({ amuSpecialCustomization: true });
    expect((await L.asha.browser.post('/api/lab/summary/amu-summary-pdf', RANGE)).statusCode).toBe(403);
    await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.asha.email,
      billDate: at('09:00'),
      lines: [
        { labModality: 'CT', priceMinor: 2000_00 },
        {
          labModality: 'DX',
          priceMinor: 300_00,
          quantity: 2,
          refundMinor: 100_00,
          settlementStatus: 'PARTIAL_REFUND',
        },
        { labModality: 'DX', priceMinor: 999_00, settlementStatus: 'CANCEL', refundMinor: 999_00 },
      ],
      payments: [
        { method: 'UPI', amountMinor: 1000_00 },
        { method: 'CASH', amountMinor: 500_00 },
      ],
    });
    await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.bala.email,
      billDate: at('15:00'),
      lines: [{ labModality: 'CT', priceMinor: 1000_00 }],
      payments: [{ method: 'CASH', amountMinor: 1000_00 }],
    });
    await insertBill(t.db, {
      lab: L.lab,
      createdBy: L.bala.email,
      status: 'CANCELLED',
      billDate: at('16:00'),
      lines: [{ labModality: 'MR', priceMinor: 5000_00 }],
      payments: [{ method: 'CARD', amountMinor: 5000_00 }],
    });
    const res = await L.supervisor.browser.post('/api/lab/summary/amu-summary-pdf', RANGE);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const text = await pdfText(res.rawPayload);
    for (const expected of [
      'DAY END COLLECTION SUMMARY',
      // CT: two tests, gross 3000; DX: one live line, 2 × 300 − 100 = 500; the cancelled line and bill left out.
      'CT 2 2 ₹3,000.00 ₹0.00 ₹3,000.00',
      'DX 1 2 ₹600.00 ₹100.00 ₹500.00',
      'Total 3 4 ₹3,600.00 ₹100.00 ₹3,500.00',
      'CASH 2 ₹1,500.00',
      'UPI 1 ₹1,000.00',
      'Collected 3 ₹2,500.00',
      'Bills (cancelled excluded) 2',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('MR');
    expect(text).not.toContain('CARD');
  });
});

describe('who may use the summary', () => {
  it('roles without the lab menu get 403 on every call', async () => {
    const L = await newLab({ enableSummaryPdfRIS: true, amuSpecialCustomization: true });
    for (const roles of [['ROLE_DOCTOR'], ['ROLE_CENTER'], ['ROLE_ADMIN']] as TRole[][]) {
      const other = await L.as(roles, roles[0] === 'ROLE_CENTER' ? L.world.center.id : null);
      for (const url of [
        '/api/lab/summary/search',
        '/api/lab/summary/csv',
        '/api/lab/summary/tests/csv',
        '/api/lab/summary/pdf',
        '/api/lab/summary/amu-summary-pdf',
      ])
        expect((await other.browser.post(url, RANGE)).statusCode, `${roles[0]} ${url}`).toBe(403);
      expect((await other.browser.get('/api/lab/get-lab-users')).statusCode).toBe(403);
    }
  });
});
