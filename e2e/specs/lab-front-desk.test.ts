import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarDayIn } from '@radflow/core';
import { type TBrowserSession, useFullChromium } from '../support/browser.js';
import { pdfText } from '../support/documents.js';
import {
  addAllDaySlot,
  addPatientCategory,
  apiAs,
  choose,
  confirmWith,
  setGroupSwitches,
  uniqueLetters,
} from '../support/lab.js';
import { eventually } from '../support/pages.js';
import { downloadOf } from '../support/reporting.js';
import { openSignedIn } from '../support/worklist.js';

/** Issue 25 §8: the lab front desk in the browser, as the receptionist and as the supervisor. */

// The printed invoice opens in a tab, shown by the desktop browser's PDF viewer (the headless
// shell has none: it would download the PDF, and the tab stay blank).
useFullChromium();

const RECEPTIONIST = 'labs-receptionist@demo.local';
const SUPERVISOR = 'labs-supervisor@demo.local';
/**
 * A ceiling for a call's answer awaited together with the steps that cause it: longer than a
 * locator's 15 s, so a step that cannot be done is the failure reported, not the missing answer.
 */
const ANSWER_CEILING_MS = 30_000;
const uniqueMobile = () => `9${String(Date.now()).slice(-9)}`;

/** The group admin turns the front desk's categories and appointments on or off. */
async function switchLab(on: boolean): Promise<void> {
  const group = await apiAs('group@demo.local');
  try {
    await setGroupSwitches(group, { enableRISCategory: on, appointmentSupportRIS: on });
  } finally {
    await group.dispose();
  }
}

interface TSavedBill {
  id: number;
  invoiceNumber: string;
  status: string;
}

describe('the receptionist registers, bills, prints, books and cancels (issue 25 §8)', () => {
  const word = uniqueLetters();
  const patientName = `Kavya Rao ${word}`;
  const category = `STAFF${word}`;
  const slot = `USG ${word}`;
  let desk: TBrowserSession;

  beforeAll(async () => {
    // The group admin turns categories and appointments on; the center adds a 10% category and a
    // one-seat ultrasound slot of its own (read back and appended, so other entries stay).
    await switchLab(true);
    const center = await apiAs('center@demo.local');
    try {
      await addPatientCategory(center, category, 10);
      await addAllDaySlot(center, slot, 'US', 1);
    } finally {
      await center.dispose();
    }
    desk = await openSignedIn(RECEPTIONIST, { home: false });
  });
  // The switches go back off at the end, as the settings stories leave them (the files after this
  // one on the same server start from the demo group's defaults).
  afterAll(async () => {
    await desk?.close();
    await switchLab(false);
  });

  it('registers a patient, bills two tests with a category and a partial payment, prints, books until full, cancels and undoes', async () => {
    const { page } = desk;

    // ---- register the patient: each validation message once ----
    await page.goto('/lab/registration');
    await page.getByRole('button', { name: 'Register New Patient' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Patient' });
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByText('Name is required', { exact: true }).waitFor();
    expect(await dialog.getByText('Name is required', { exact: true }).count()).toBe(1);

    await choose(page, dialog, 'Designation', 'MRS');
    await dialog.getByRole('textbox', { name: /^Name/ }).fill(patientName);
    await choose(page, dialog, 'Gender', 'Female');
    await dialog.getByLabel('Age years').fill('34');
    await dialog.getByLabel('Mobile number').fill('12345');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    const mobileMessage = dialog.getByText('Mobile number should be 10 digit and start with 6,7,8 or 9', {
      exact: true,
    });
    await mobileMessage.waitFor();
    expect(await mobileMessage.count()).toBe(1);
    expect(await dialog.getByText('Name is required', { exact: true }).count()).toBe(0);

    await dialog.getByLabel('Mobile number').fill(uniqueMobile());
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Patient Created', { exact: true }).first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('group', { name: 'Selected patient' }).getByText(`MRS ${patientName}`).waitFor();

    // ---- bill two tests with the category's discount and a partial payment ----
    await page.getByRole('button', { name: 'Create Bill', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/lab/create-bill');
    const patientId = Number(new URL(page.url()).searchParams.get('patientId'));
    expect(patientId).toBeGreaterThan(0);
    // The bill screen starts with the registered patient in its 'Patient' picker.
    await eventually(() => page.getByRole('combobox', { name: /^Patient/ }).inputValue()).toContain(
      patientName,
    );

    const addTest = async (text: string, option: string) => {
      await page.getByRole('combobox', { name: 'Search Test' }).fill(text);
      await page.getByRole('option', { name: option, exact: true }).click();
    };
    const USG = 'US: US001 USG Abdomen (₹1200)';
    /** Submit, answer the due confirmation, and read the saved bill from the server's answer. */
    const submit = async (due: string): Promise<TSavedBill> => {
      // Awaited together, so a step that fails leaves no waiting promise behind.
      const [response] = await Promise.all([
        page.waitForResponse(
          (res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/api/lab/bill',
          { timeout: ANSWER_CEILING_MS },
        ),
        (async () => {
          await page.getByRole('button', { name: 'Submit', exact: true }).click();
          await confirmWith(page, `Due Amount: ${due} is pending. Do you want to proceed?`);
        })(),
      ]);
      expect([200, 201], await response.text()).toContain(response.status());
      await page.getByText('Bill Created', { exact: true }).first().waitFor();
      return (await response.json()) as TSavedBill;
    };
    // After a save the print chooser asks what to print (lab-wiring: PrintOptionDialog).
    const printDialog = page.getByRole('dialog', { name: 'Print' });

    await addTest('CT Brain', 'CT: CT001 CT Brain Plain (₹2500)');
    await addTest('USG Abdomen', USG);
    await choose(page, page.locator('body'), 'Category', `${category} (10%)`);
    await page.getByRole('spinbutton', { name: 'Advance Paid' }).fill('1000');
    // 2500 + 1200 = 3700, less 10% = 3330 to pay, 1000 paid now: 2330 due.
    const summary = async () =>
      (await page.getByRole('definition').allInnerTexts()).map((t) => t.trim()).join(' | ');
    await eventually(summary).toBe('₹3700 | ₹370 | ₹1000 | ₹3330 | ₹2330');
    const bill = await submit('2330');
    expect(bill.invoiceNumber).toMatch(/^INV-/);
    expect(bill.status).toBe('OPEN');

    // ---- print: the invoice's PDF read back ----
    const [pdf, tab] = await Promise.all([
      page.waitForResponse((res) => new URL(res.url()).pathname === `/api/lab/bill/print/${bill.id}`, {
        timeout: ANSWER_CEILING_MS,
      }),
      page.waitForEvent('popup'),
      printDialog.getByRole('button', { name: 'Invoice only', exact: true }).click(),
    ]);
    expect(pdf.status()).toBe(200);
    // The new tab is given the fetched PDF; the receptionist closes it and is back on the app's tab
    // (a tab left behind another draws one frame a second: every later click would wait on it).
    await eventually(() => tab.url()).toMatch(/^blob:/);
    await tab.close();
    // The screen moves on to registration once the chooser closes, and Chromium then drops the
    // fetched body: the same document is read again with the page's session.
    const printed = await page.request.get(`/api/lab/bill/print/${bill.id}`);
    expect(printed.headers()['content-type']).toContain('application/pdf');
    const text = await pdfText(await printed.body());
    for (const expected of [
      bill.invoiceNumber,
      patientName,
      'CT001',
      'CT Brain Plain',
      'US001',
      'USG Abdomen',
      'Total Amount ₹3,700.00',
      'Discount (10.00%) ₹370.00',
      'Advance Paid ₹1,000.00',
      'Net Payable ₹3,330.00',
      'Due ₹2,330.00',
    ])
      expect(text).toContain(expected);
    await page.waitForURL((url) => url.pathname === '/lab/registration');

    // ---- book the one-seat ultrasound slot (an appointment is for a bill of one test) ----
    const billPath = `/lab/create-bill?patientId=${patientId}`;
    const slotDialog = page.getByRole('dialog', { name: 'Appointment: USG Abdomen' });
    const openSlots = async () => {
      await page.goto(billPath);
      // The bill screen loads the patient of its query; a Submit before it has is refused with
      // another message than the due confirmation (a CI flake on a loaded machine).
      await eventually(() => page.getByRole('combobox', { name: /^Patient/ }).inputValue()).toContain(
        patientName,
      );
      await addTest('USG Abdomen', USG);
      await page.getByRole('button', { name: 'Appointment for US001' }).click();
      await slotDialog.getByRole('combobox', { name: /^Slot/ }).click();
      return page.getByRole('option').filter({ hasText: slot });
    };
    await (await openSlots()).filter({ hasText: 'Available 1 / 1' }).click();
    await slotDialog.getByRole('button', { name: 'Save Slot' }).click();
    await slotDialog.waitFor({ state: 'hidden' });
    await eventually(async () => (await summary()).endsWith('₹1200')).toBe(true);
    const booked = await submit('1200');
    expect(booked.status).toBe('SCHEDULED');
    await printDialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/lab/registration');

    // ---- the slot is full now: the next bill cannot book it ----
    const full = await openSlots();
    await eventually(() => full.innerText()).toContain('Available 0 / 1');
    expect(await full.getAttribute('aria-disabled')).toBe('true');

    // ---- cancel the booked bill with a reason, then undo ----
    await page.goto(`/lab/create-bill/${booked.id}`);
    const status = page.getByTestId('bill-status');
    await eventually(() => status.innerText()).toBe('SCHEDULED');
    await page.getByRole('button', { name: 'Cancel Bill', exact: true }).click();
    const cancelDialog = page.getByRole('dialog', { name: `Cancel bill ${booked.invoiceNumber}` });
    await cancelDialog.getByLabel('Cancellation Reason').fill('Patient left before the scan');
    await cancelDialog.getByRole('button', { name: 'Cancel Bill', exact: true }).click();
    await cancelDialog.waitFor({ state: 'hidden' });
    await eventually(() => status.innerText()).toBe('CANCELLED');
    await page.getByRole('button', { name: 'Undo Cancel', exact: true }).click();
    await confirmWith(page, 'Are you sure you want to undo the cancellation?');
    await eventually(() => status.innerText()).toBe('SCHEDULED');
  });
});

describe('the supervisor builds the catalogue and reads the summary (issue 25 §8)', () => {
  const word = uniqueLetters();
  let supervisor: TBrowserSession;
  beforeAll(async () => {
    supervisor = await openSignedIn(SUPERVISOR, { home: false });
  });
  afterAll(() => supervisor?.close());

  it('creates a test and a package, uploads a CSV with a bad row, downloads the summary CSV', async () => {
    const { page } = supervisor;
    const testCode = `T${word}`;
    const testName = `Test ${word}`;

    // ---- a normal test, then a package of it ----
    await page.goto('/lab/test');
    const createTest = async (fill: (dialog: Locator) => Promise<void>) => {
      await page.getByRole('button', { name: 'Create Test', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Create Test' });
      await fill(dialog);
      const [res] = await Promise.all([
        page.waitForResponse(
          (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/lab/test',
          { timeout: ANSWER_CEILING_MS },
        ),
        (async () => {
          await dialog.getByRole('button', { name: 'Save', exact: true }).click();
          await confirmWith(page, 'You are trying to create a new test. Do you wish to continue?');
        })(),
      ]);
      expect([200, 201], await res.text()).toContain(res.status());
      await dialog.waitFor({ state: 'hidden' });
      return ((await res.json()) as { id: number }).id;
    };
    const testId = await createTest(async (dialog) => {
      await choose(page, dialog, 'Test type', 'NORMAL');
      await choose(page, dialog, 'Modality', 'CT');
      await dialog.getByRole('textbox', { name: /^Test code/ }).fill(testCode);
      await dialog.getByRole('textbox', { name: /^Test name/ }).fill(testName);
      await dialog.getByRole('spinbutton', { name: 'Price (₹)' }).fill('900');
    });
    await createTest(async (dialog) => {
      await choose(page, dialog, 'Test type', 'PACKAGE');
      await choose(page, dialog, 'Modality', 'CT');
      await dialog.getByRole('textbox', { name: /^Test code/ }).fill(`P${word}`);
      await dialog.getByRole('textbox', { name: /^Test name/ }).fill(`Package ${word}`);
      await dialog.getByRole('spinbutton', { name: 'Price (₹)' }).fill('1500');
      await dialog.getByRole('combobox', { name: 'Tests in this package' }).fill(testCode);
      await page.getByRole('option', { name: `CT: ${testCode} ${testName}`, exact: true }).click();
    });
    const table = page.getByRole('table', { name: 'Lab tests' });
    await table.getByRole('cell', { name: testCode, exact: true }).waitFor();
    await table.getByRole('cell', { name: `P${word}`, exact: true }).waitFor();

    // ---- a CSV of one good row and one bad one ----
    await page.getByRole('button', { name: 'Upload Test CSV', exact: true }).click();
    const upload = page.getByRole('dialog', { name: 'Upload Test CSV' });
    const csv = `Test Code,Test Name,Price,Type,Modality\nC${word},Csv ${word},700,NORMAL,CT\nB${word},Bad ${word},lots,NORMAL,CT\n`;
    await upload
      .getByLabel('CSV file')
      .setInputFiles({ name: 'tests.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await upload.getByRole('button', { name: 'Upload', exact: true }).click();
    await upload.getByTestId('csv-row-2').getByText('Saved', { exact: true }).waitFor();
    const bad = upload.getByTestId('csv-row-3');
    await bad.getByText('Failed', { exact: true }).waitFor();
    expect((await bad.locator('td').last().innerText()).trim()).not.toBe('');
    await upload.getByRole('button', { name: 'Close', exact: true }).click();
    await upload.waitFor({ state: 'hidden' });

    // ---- a bill of the new test (through the API), then the summary and its CSV ----
    const patientName = `Meera Das ${word}`;
    const patient = await page.request.post('/api/lab/register-patient', {
      data: { designation: 'MRS', name: patientName, gender: 'F', mobileNumber: uniqueMobile() },
    });
    expect([200, 201], await patient.text()).toContain(patient.status());
    const billed = await page.request.post('/api/lab/bill', {
      data: {
        patientId: ((await patient.json()) as { id: number }).id,
        labBillTests: [{ labTestId: testId, quantity: 1 }],
      },
      headers: { 'Idempotency-Key': `e2e-${word}` },
    });
    expect([200, 201], await billed.text()).toContain(billed.status());
    const { invoiceNumber } = (await billed.json()) as TSavedBill;

    const today = calendarDayIn(new Date());
    await page.goto('/lab/summary');
    await page.getByLabel('Start date').fill(today);
    await page.getByLabel('End date').fill(today);
    await page.getByRole('table', { name: 'Lab summary' }).getByText(invoiceNumber).waitFor();
    const file = await downloadOf(page, () =>
      page.getByRole('button', { name: 'Download CSV', exact: true }).click(),
    );
    expect(file.name).toMatch(/\.csv$/);
    const lines = file.bytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/);
    expect(lines[0]).toMatch(/^Invoice No\.,Bill Date,Created At,Status,Patient,UHID,Receptionist,Tests,/);
    const row = lines.find((l) => l.startsWith(`${invoiceNumber},`));
    expect(row).toBeDefined();
    expect(row).toContain(patientName);
    expect(row).toContain(testName);
  });
});
