import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { pdfText } from '../support/documents.js';
import { eventually } from '../support/pages.js';
import { openSignedIn } from '../support/worklist.js';

/*
 * Issue 26 §7: a tele-radiology user sets a price, invoices the demo center for this month's signed-off
 * studies (the demo seed signs one X-Ray off), the PDF's totals read back equal the screen, and records
 * the payment.
 */

const TELE = 'tele-radiology@demo.local';

describe('the tele-radiology user prices, invoices, reads the PDF and records the payment (issue 26 §1)', () => {
  let tele: TBrowserSession;
  beforeAll(async () => {
    tele = await openSignedIn(TELE, { home: false });
  });
  afterAll(async () => {
    await tele?.close();
  });

  it('sets a CR price, issues the invoice, the PDF total equals the screen, the payment settles it', async () => {
    const { page } = tele;
    await page.goto('/manage-tele-pricing');
    await page.getByRole('button', { name: 'Add price' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add price' });
    await dialog.getByLabel('Modality').fill('CR');
    await dialog.getByLabel('Amount (₹)').fill('350.25');
    await dialog.getByLabel('Effective from').fill('2026-01-01');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await eventually(() => page.getByRole('table', { name: 'Prices' }).innerText()).toContain('₹350.25');

    await page.goto('/manage-tele-invoice');
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0))
      .toISOString()
      .slice(0, 10);
    await page.getByRole('combobox', { name: 'Center' }).first().click();
    await page.getByRole('option', { name: 'Demo Imaging Center' }).click();
    await page.getByRole('textbox', { name: 'From', exact: true }).fill(`${month}-01`);
    await page.getByRole('textbox', { name: 'To', exact: true }).fill(last);
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByTestId('invoice-preview');
    await eventually(() => preview.innerText()).toContain('Read');
    const previewTotal = await preview.getByTestId('invoice-total').innerText();
    expect(previewTotal).toMatch(/^₹[\d,]+\.\d\d$/);

    await page.getByRole('button', { name: 'Issue invoice' }).click();
    const invoice = page.getByRole('dialog', { name: /^Invoice TI-/ });
    await eventually(() => invoice.getByTestId('invoice-total').innerText()).toBe(previewTotal);
    const subtotal = await invoice.getByTestId('invoice-subtotal').innerText();

    const href = await invoice.getByRole('link', { name: 'Download PDF' }).getAttribute('href');
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    const text = await pdfText(await pdf.body());
    expect(text).toContain(`Total ${previewTotal}`);
    expect(text).toContain(`Subtotal ${subtotal}`);

    const outstanding = (await invoice.getByTestId('invoice-outstanding').innerText()).replace(/[₹,]/g, '');
    await invoice.getByLabel('Amount (₹)').fill(outstanding);
    await invoice.getByLabel('Reference').fill('UTR-E2E-1');
    await invoice.getByRole('button', { name: 'Record payment' }).click();
    await eventually(() => invoice.getByTestId('invoice-outstanding').innerText()).toBe('₹0.00');
    expect(await invoice.innerText()).toContain('Paid');
  });
});
