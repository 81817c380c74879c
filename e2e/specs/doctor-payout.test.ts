import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { pdfText } from '../support/documents.js';
import { eventually } from '../support/pages.js';
import { openSignedIn } from '../support/worklist.js';

/*
 * Issue 26 §7 "a doctor's payout statement matches their reads": the tele-radiology user sets a default
 * doctor rate for X-Ray reads and issues this month's statements (the demo seed's doctor signed one
 * X-Ray off); the doctor opens their payouts and sees the same statement, whose PDF total equals it.
 */

describe("a doctor's payout statement (issue 26 §2)", () => {
  let tele: TBrowserSession;
  let doctor: TBrowserSession;
  beforeAll(async () => {
    tele = await openSignedIn('tele-radiology@demo.local', { home: false });
    doctor = await openSignedIn('doctor@demo.local', { home: false });
  });
  afterAll(async () => {
    await tele?.close();
    await doctor?.close();
  });

  it('rates a read, issues the month, and the doctor reads the same total on screen and in the PDF', async () => {
    const { page } = tele;
    await page.goto('/manage-tele-payout');
    const form = page.getByRole('form', { name: 'Add a doctor rate' });
    await form.getByLabel('Modality').fill('CR');
    await form.getByLabel('Amount (₹)').fill('420.50');
    await form.getByLabel('Effective from').fill('2026-01-01');
    await form.getByRole('button', { name: 'Add rate' }).click();
    await eventually(() => page.getByRole('table', { name: 'Doctor rates' }).innerText()).toContain(
      '₹420.50',
    );

    await page.getByRole('tab', { name: 'Statements' }).click();
    await page.getByLabel('Month').fill(new Date().toISOString().slice(0, 7));
    await page.getByRole('button', { name: 'Issue statements' }).click();
    const statements = page.getByRole('table', { name: 'Payout statements' });
    await eventually(() => statements.innerText()).toMatch(/PO-\d{4}-\d{4}/);
    const row = statements
      .getByRole('row')
      .filter({ hasText: /PO-\d{4}-\d{4}/ })
      .first();
    const [number] = (await row.innerText()).match(/PO-\d{4}-\d{4}/) ?? [];
    expect(await row.innerText()).toContain('₹420.50');

    await doctor.page.goto('/manage-tele-payout');
    const mine = doctor.page.getByRole('table', { name: 'Payout statements' });
    await eventually(() => mine.innerText()).toContain(number!);
    const myRow = mine.getByRole('row').filter({ hasText: number! });
    const cells = await myRow.getByRole('cell').allInnerTexts();
    const total = cells[6]!;
    expect(total).toMatch(/^₹[\d,]+\.\d\d$/);
    expect(await row.getByRole('cell').nth(6).innerText()).toBe(total);
    expect(await doctor.page.getByRole('button', { name: 'Issue statements' }).count()).toBe(0);

    const href = await myRow.getByRole('link', { name: 'PDF' }).getAttribute('href');
    const pdf = await doctor.page.request.get(href!);
    expect(pdf.status()).toBe(200);
    const text = await pdfText(await pdf.body());
    expect(text).toContain(number!);
    expect(text).toContain(`Total ${total}`);
  });
});
