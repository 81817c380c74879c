import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRole } from '@radflow/core';
import { savePreferenceSection } from '../preferences/preferences.js';
import { type TLabPlace, insertBill } from '../../../test/lab-docs-data.js';
import { pdfText } from '../../../test/pdf-text.js';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestCenter,
  createTestUser,
  createTestWorld,
  signIn,
} from '../../../test/test-app.js';

/*
 * GET /api/lab/bill/print/{id} and GET /api/lab/appointment-slip/print/{id} (issue 25 §5, spec-lab
 * §7): each PDF is read back with pdfjs; the lab's billing details and GST, the lines, the stored
 * totals, the ledger, CANCELLED; names in other scripts; 403 without the lab menu, 404 for another
 * lab's bill (another center, another group).
 */

let t: TestApp;
let world: Awaited<ReturnType<typeof createTestWorld>>;
let lab: TLabPlace;
let receptionist: { browser: TestClient; email: string };

beforeAll(async () => {
  t = await createTestApp();
  world = await createTestWorld(t.db);
  lab = { groupId: world.group.id, centerId: world.center.id };
  receptionist = await as(['ROLE_LABS_RECEPTIONIST'], world.center.id);
});
afterAll(() => t.close());

async function as(roles: TRole[], centerId: number | null, groupId = world.group.id) {
  const { user, browser } = await signIn(t, { roles, groupId, centerId });
  return { browser, email: user.email };
}

async function pdfOf(browser: TestClient, url: string): Promise<string> {
  const res = await browser.get(url);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.headers['content-disposition']).toMatch(/^inline; filename="[\w.-]+\.pdf"$/);
  return pdfText(res.rawPayload);
}

/** Sets a per-user settings section for a new user at `centerId` (null: a group account). */
async function settingBy(
  centerId: number | null,
  section: 'BILLING_DETAILS' | 'USER_INFORMATION',
  value: object,
) {
  const roles: TRole[] = centerId === null ? ['ROLE_GROUP'] : ['ROLE_CENTER'];
  const user = await createTestUser(t.db, { roles, groupId: world.group.id, centerId });
  await savePreferenceSection(t.db, { ownerId: user.id, section, value, updatedBy: user.email });
}

describe('the bill PDF', () => {
  it('prints the invoice number, patient, doctor, lines, stored totals, ledger, and the GST inside the price', async () => {
    await settingBy(null, 'BILLING_DETAILS', {
      accName: 'Sunrise Diagnostics LLP',
      bankName: 'State Bank of India',
      bankAccount: '123456789012',
      bankIFSC: 'SBIN0001234',
      bankBranch: 'Park Street',
      pan: 'ABCDE1234F',
      gstNumber: '19ABCDE1234F1Z5',
      gstPercentage: 18,
    });
    await settingBy(world.center.id, 'USER_INFORMATION', {
      address: '12 Park Street, Kolkata',
      mobileNumber: '9830012345',
      email: 'desk@sunrise.example',
    });
    const bill = await insertBill(t.db, {
      lab,
      createdBy: receptionist.email,
      patient: { name: 'Asha Rao', ageString: '34 Y', gender: 'F', mobileNumber: '9876501234' },
      doctor: 'Dr Meera Iyer',
      categories: [
        { name: 'SENIOR', type: 'PATIENT_CATEGORY', discount: 10 },
        { name: 'URGENT', type: 'PRIORITY', discount: 0 },
      ],
      discountBasisPoints: 1000,
      lines: [
        { testCode: 'CT01', testName: 'CT Head Plain', labModality: 'CT', priceMinor: 2500_00 },
        {
          testCode: 'DX07',
          testName: 'Chest PA View',
          labModality: 'DX',
          quantity: 2,
          priceMinor: 400_00,
          refundMinor: 100_00,
          settlementStatus: 'PARTIAL_REFUND',
        },
      ],
      payments: [
        { method: 'UPI', amountMinor: 2000_00, transactionId: 'UPI-77812' },
        { method: 'CASH', amountMinor: 500_00 },
      ],
    });
    // total 2500 + 800 − 100 = 3200; discount 10% = 320; final 2880; paid 2500; due 380.
    expect([bill.totalMinor, bill.discountMinor, bill.finalMinor, bill.dueMinor]).toEqual([
      3200_00, 320_00, 2880_00, 380_00,
    ]);

    const text = await pdfOf(receptionist.browser, `/api/lab/bill/print/${bill.id}`);
    for (const expected of [
      'TAX INVOICE',
      'Sunrise Diagnostics LLP',
      '12 Park Street, Kolkata',
      'GSTIN: 19ABCDE1234F1Z5',
      'PAN: ABCDE1234F',
      bill.invoiceNumber,
      'Asha Rao',
      bill.uhidNumber,
      '34 Y / F',
      '9876501234',
      'Dr Meera Iyer',
      'SENIOR',
      'URGENT',
      'CT01',
      'CT Head Plain',
      'DX07',
      'Chest PA View',
      'Partial refund',
      '₹700.00', // the DX line: 2 × 400 − 100
      'Total Amount ₹3,200.00',
      'Discount (10.00%) ₹320.00',
      'Advance Paid ₹2,500.00',
      'Net Payable ₹2,880.00',
      'Due ₹380.00',
      // GST 18% inside 2880: taxable 2440.68, GST 439.32 = CGST 219.66 + SGST 219.66.
      'Taxable Value ₹2,440.68',
      'CGST @ 9% ₹219.66',
      'SGST @ 9% ₹219.66',
      'UPI-77812',
      'CASH',
      'State Bank of India',
      'SBIN0001234',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('CANCELLED');
  });

  it("the center's own billing details win over the group's; without GST it is a plain INVOICE", async () => {
    const center = await createTestCenter(t.db, { groupId: world.group.id });
    await settingBy(center.id, 'BILLING_DETAILS', { accName: 'Center Own Billing', gstPercentage: 0 });
    const desk = await as(['ROLE_LABS_SUPERVISOR'], center.id);
    const bill = await insertBill(t.db, {
      lab: { groupId: world.group.id, centerId: center.id },
      createdBy: desk.email,
      lines: [{ priceMinor: 1000_00 }],
    });
    const text = await pdfOf(desk.browser, `/api/lab/bill/print/${bill.id}`);
    expect(text).toContain('Center Own Billing');
    expect(text).not.toContain('Sunrise Diagnostics LLP');
    expect(text).not.toContain('TAX INVOICE');
    expect(text).toContain('INVOICE');
    expect(text).toContain('No Transactions Yet');
  });

  it('a cancelled bill says CANCELLED and why', async () => {
    const bill = await insertBill(t.db, {
      lab,
      createdBy: receptionist.email,
      status: 'CANCELLED',
      cancellationRemark: 'Patient left before the scan',
      lines: [{ priceMinor: 900_00 }],
    });
    const text = await pdfOf(receptionist.browser, `/api/lab/bill/print/${bill.id}`);
    expect(text).toContain('CANCELLED');
    expect(text).toContain('Reason: Patient left before the scan');
    expect(text).toContain(bill.invoiceNumber);
  });

  it.each([
    ['Devanagari', 'प्रिया शर्मा'],
    ['Japanese', '山田 花子'],
  ])('a %s patient name reads back', async (_script, name) => {
    const bill = await insertBill(t.db, {
      lab,
      createdBy: receptionist.email,
      patient: { name },
      lines: [{ priceMinor: 100_00 }],
    });
    const text = await pdfOf(receptionist.browser, `/api/lab/bill/print/${bill.id}`);
    expect(text.normalize('NFC').replace(/\s+/g, '')).toContain(name.normalize('NFC').replace(/\s+/g, ''));
  });
});

describe('the appointment slip', () => {
  it('prints the patient, test, appointment name, date and time window, invoice number', async () => {
    const start = new Date('2026-12-03T04:30:00Z'); // 10:00 IST
    const end = new Date('2026-12-03T05:00:00Z');
    const bill = await insertBill(t.db, {
      lab,
      createdBy: receptionist.email,
      status: 'SCHEDULED',
      patient: { name: 'Ravi Kumar' },
      lines: [
        {
          testCode: 'MR11',
          testName: 'MRI Brain',
          labModality: 'MR',
          priceMinor: 6000_00,
          appointment: { name: 'MRI Morning', start, end },
        },
      ],
    });
    const text = await pdfOf(receptionist.browser, `/api/lab/appointment-slip/print/${bill.id}`);
    for (const expected of [
      'APPOINTMENT SLIP',
      bill.invoiceNumber,
      'Ravi Kumar',
      bill.uhidNumber,
      'MR11 MRI Brain',
      'MRI Morning',
      '2026-12-03',
      '10:00 – 10:30',
    ])
      expect(text).toContain(expected);
  });

  it('a bill without an appointment: 409 with the reason', async () => {
    const bill = await insertBill(t.db, {
      lab,
      createdBy: receptionist.email,
      lines: [{ priceMinor: 100_00 }],
    });
    const res = await receptionist.browser.get(`/api/lab/appointment-slip/print/${bill.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().errorDescription).toBe('This bill has no appointment');
  });
});

describe('who may print which bill', () => {
  it('roles without the lab menu get 403; another center, another group or no such bill: 404', async () => {
    const bill = await insertBill(t.db, {
      lab,
      createdBy: receptionist.email,
      lines: [{ priceMinor: 100_00 }],
    });
    for (const roles of [['ROLE_DOCTOR'], ['ROLE_CENTER'], ['ROLE_ADMIN']] as TRole[][]) {
      const other = await as(roles, roles[0] === 'ROLE_CENTER' ? world.center.id : null);
      for (const url of [`/api/lab/bill/print/${bill.id}`, `/api/lab/appointment-slip/print/${bill.id}`])
        expect((await other.browser.get(url)).statusCode, `${roles[0]} ${url}`).toBe(403);
    }
    const otherCenter = await createTestCenter(t.db, { groupId: world.group.id });
    const otherGroup = await createTestWorld(t.db);
    const strangers = [
      await as(['ROLE_LABS_SUPERVISOR'], otherCenter.id),
      await as(['ROLE_LABS_RECEPTIONIST'], otherGroup.center.id, otherGroup.group.id),
      await as(['ROLE_LABS_SUPERVISOR'], null), // the group's own lab is not the center's
    ];
    for (const stranger of strangers) {
      for (const url of [`/api/lab/bill/print/${bill.id}`, `/api/lab/appointment-slip/print/${bill.id}`]) {
        const res = await stranger.browser.get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.body).not.toContain(bill.invoiceNumber);
      }
    }
    expect((await receptionist.browser.get('/api/lab/bill/print/2147483647')).statusCode).toBe(404);
    expect((await receptionist.browser.get('/api/lab/bill/print/abc')).statusCode).toBe(400);
  });
});
