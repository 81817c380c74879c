import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_DISPLAY_TIME_ZONE,
  ROLES,
  type TBillingDocumentDetail,
  type TInvoicePreview,
  calendarDayIn,
  canUseTeleBilling,
  formatRupees,
} from '@radflow/core';
import { billingAuditEvents, billingLines, messageOutbox, reportStatuses } from '../../db/schema.js';
import { pdfText } from '../../../test/pdf-text.js';
import { addPrice, saveBillingDetails, signedOffStudies } from '../../../test/tele-billing-data.js';
import {
  type TSignedIn,
  type TestApp,
  clockAtNoonIn,
  createTestApp,
  createTestCenter,
  createTestWorld,
  signInAt,
} from '../../../test/test-app.js';

/*
 * Manage Tele Pricing and Manage Tele Invoice through HTTP (issue 26 §1): prices with effective dates,
 * preview = issue, idempotent re-runs, credit notes, payments, the PDF read back, the e-mail, dunning,
 * and who may (403) and where (404 across groups).
 */

let t: TestApp;
let place: Awaited<ReturnType<typeof createTestWorld>>;
let centerB: Awaited<ReturnType<typeof createTestCenter>>;
let tele: TSignedIn;
let other: TSignedIn;
let otherPlace: Awaited<ReturnType<typeof createTestWorld>>;
const MARCH = { periodStart: '2026-03-01', periodEnd: '2026-03-31' };

beforeAll(async () => {
  t = await createTestApp();
  // A number's year is that of the issue day in the group's zone, which the server reads from its
  // clock once for the number and again for issuedAt: at noon, never on either side of New Year.
  clockAtNoonIn(t, DEFAULT_DISPLAY_TIME_ZONE);
  place = await createTestWorld(t.db);
  centerB = await createTestCenter(t.db, { groupId: place.group.id });
  tele = await signInAt(t, place, ['ROLE_TELE_RADIOLOGY']);
  await saveBillingDetails(t.db, tele.user.id, {
    accName: 'Radiant Tele Reads LLP',
    gstNumber: '29ABCDE1234F1Z5',
    pan: 'ABCDE1234F',
    bankName: 'State Bank',
    gstPercentage: 18,
  });
  otherPlace = await createTestWorld(t.db);
  other = await signInAt(t, otherPlace, ['ROLE_TELE_RADIOLOGY']);
});

afterAll(async () => {
  await t?.close();
});

describe('tele pricing', () => {
  it('adds prices with effective dates, marks those in force, refuses a duplicate and bad input', async () => {
    await addPrice(tele.browser, {
      centerId: null,
      modality: 'ct',
      amount: 500,
      effectiveFrom: '2026-01-01',
    });
    await addPrice(tele.browser, {
      centerId: null,
      modality: 'CT',
      amount: 550,
      effectiveFrom: '2099-01-01',
    });
    await addPrice(tele.browser, {
      centerId: null,
      modality: 'CT',
      studyPart: 'HEAD',
      amount: 800,
      effectiveFrom: '2026-01-01',
    });
    await addPrice(tele.browser, {
      centerId: null,
      modality: 'CT',
      charge: 'URGENT',
      amount: 200,
      effectiveFrom: '2026-01-01',
    });
    await addPrice(tele.browser, {
      centerId: place.center.id,
      modality: 'CT',
      amount: 450.5,
      effectiveFrom: '2026-03-15',
    });

    const list = await tele.browser.get('/api/tele-pricing/prices');
    expect(list.statusCode).toBe(200);
    const prices = (
      list.json() as {
        prices: Array<{
          modality: string;
          studyPart: string;
          amount: number;
          inForce: boolean;
          effectiveFrom: string;
        }>;
      }
    ).prices;
    expect(
      prices.filter((p) => p.studyPart === '' && p.modality === 'CT').map((p) => [p.amount, p.inForce]),
    ).toEqual(
      expect.arrayContaining([
        [550, false], // not yet
        [200, true],
        [500, true],
      ]),
    );
    const own = await tele.browser.get(`/api/tele-pricing/prices?centerId=${place.center.id}`);
    expect((own.json() as { prices: unknown[] }).prices).toHaveLength(1);

    const duplicate = await tele.browser.post('/api/tele-pricing/prices', {
      centerId: null,
      modality: 'CT',
      charge: 'READ',
      amount: 1,
      effectiveFrom: '2026-01-01',
    });
    expect(duplicate.statusCode).toBe(409);
    const bad = await tele.browser.post('/api/tele-pricing/prices', {
      centerId: null,
      modality: 'CT',
      charge: 'READ',
      amount: 1.234,
      effectiveFrom: '2026-02-30',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/two decimals|date/);
    const audit = await t.db
      .select()
      .from(billingAuditEvents)
      .where(eq(billingAuditEvents.groupId, place.group.id));
    expect(audit.filter((a) => a.action === 'PRICE_ADDED')).toHaveLength(5);
  });

  it("copies the default list to a center; another group's center is not found", async () => {
    const res = await tele.browser.post('/api/tele-pricing/prices/copy-default', {
      centerId: centerB.id,
      effectiveFrom: '2026-02-01',
    });
    expect(res.json()).toEqual({ copied: 3 }); // CT base 500, CT HEAD 800, CT URGENT 200 in force on 2026-02-01
    const again = await tele.browser.post('/api/tele-pricing/prices/copy-default', {
      centerId: centerB.id,
      effectiveFrom: '2026-02-01',
    });
    expect(again.json()).toEqual({ copied: 0 });
    const foreign = await other.browser.post('/api/tele-pricing/prices', {
      centerId: place.center.id,
      modality: 'CT',
      charge: 'READ',
      amount: 1,
      effectiveFrom: '2026-01-01',
    });
    expect(foreign.statusCode).toBe(404);
    const foreignList = await other.browser.get(`/api/tele-pricing/prices?centerId=${place.center.id}`);
    expect(foreignList.statusCode).toBe(404);
  });
});

describe('tele invoices', () => {
  let invoice: TBillingDocumentDetail;

  it('previews and issues the same figures, priced by parts and effective dates, then answers the same invoice', async () => {
    const g = { groupId: place.group.id, centerId: place.center.id };
    await signedOffStudies(t.db, g, [
      { at: '2026-03-10T06:00:00Z' }, // before the center's own price: default 500
      { at: '2026-03-20T06:00:00Z', parts: ['HEAD', 'CHEST'] }, // HEAD 800 (default part) + CHEST → center base 450.50
      { at: '2026-03-20T07:00:00Z', urgent: true }, // 450.50 + 200
      { at: '2026-03-20T08:00:00Z', status: 'DELETED' },
      { at: '2026-03-31T20:00:00Z' }, // 1 April 01:30 in Asia/Kolkata: April
      { at: '2026-02-28T18:29:00Z' }, // 28 Feb 23:59 in Asia/Kolkata: February
      { at: '2026-03-12T06:00:00Z', modality: 'MR' }, // no MR price: not billed
    ]);
    const body = {
      centerId: place.center.id,
      ...MARCH,
      adjustments: [{ amount: -100, reason: 'Loyalty discount' }],
    };
    const preview = (await tele.browser.post('/api/tele-invoices/preview', body)).json() as TInvoicePreview;
    // 500 + 800 + 450.50 + 450.50 + 200 = 2401; − 100 = 2301; GST 18% = 414.18; total 2715.18
    expect(preview).toMatchObject({
      studyCount: 3,
      unpricedCount: 1,
      subtotal: 2401,
      adjustment: -100,
      taxPercent: 18,
      tax: 414.18,
      total: 2715.18,
    });

    const issued = await tele.browser.post('/api/tele-invoices', body);
    expect(issued.statusCode, issued.body).toBe(200);
    invoice = issued.json() as TBillingDocumentDetail;
    expect(invoice).toMatchObject({
      // The year of the group's zone, not of UTC: they differ on 31 December after 18:30 UTC.
      number: `TI-${calendarDayIn(new Date(invoice.issuedAt), DEFAULT_DISPLAY_TIME_ZONE).slice(0, 4)}-0001`,
      status: 'ISSUED',
      subtotal: preview.subtotal,
      adjustment: preview.adjustment,
      tax: preview.tax,
      total: preview.total,
    });
    expect(invoice.lines).toEqual(preview.lines);
    const lines = await t.db.select().from(billingLines).where(eq(billingLines.documentId, invoice.id));
    expect(lines.reduce((s, l) => s + l.amountMinor, 0)).toBe(230_100);
    expect(lines.filter((l) => l.reportStatusId !== null)).toHaveLength(5);

    const again = await tele.browser.post('/api/tele-invoices', body);
    expect((again.json() as TBillingDocumentDetail).id).toBe(invoice.id);
    const nothing = await tele.browser.post('/api/tele-invoices/preview', body);
    expect((nothing.json() as TInvoicePreview).subtotal).toBe(0); // every study of the period is billed
  });

  it('invoices all centers for a month idempotently', async () => {
    await signedOffStudies(t.db, { groupId: place.group.id, centerId: centerB.id }, [
      { at: '2026-03-05T06:00:00Z', parts: ['HEAD'], count: 3 },
    ]);
    const first = await tele.browser.post('/api/tele-invoices/month', { month: '2026-03' });
    expect(first.statusCode, first.body).toBe(200);
    const docs = (
      first.json() as { documents: Array<{ id: number; centerId: number; subtotal: number; number: string }> }
    ).documents;
    expect(docs.map((d) => d.centerId).sort()).toEqual([place.center.id, centerB.id].sort());
    expect(docs.find((d) => d.centerId === centerB.id)).toMatchObject({
      subtotal: 2400,
      number: expect.stringMatching(/-0002$/),
    });
    const linesBefore = await t.db
      .select()
      .from(billingLines)
      .where(eq(billingLines.groupId, place.group.id));
    const rerun = await tele.browser.post('/api/tele-invoices/month', { month: '2026-03' });
    expect((rerun.json() as { documents: typeof docs }).documents).toEqual(docs);
    const linesAfter = await t.db.select().from(billingLines).where(eq(billingLines.groupId, place.group.id));
    expect(linesAfter).toHaveLength(linesBefore.length);
    const list = await tele.browser.get(`/api/tele-invoices?centerId=${centerB.id}&status=ISSUED`);
    expect((list.json() as { documents: unknown[] }).documents).toHaveLength(1);
  });

  it('a credit note never edits the invoice; a stale version is 409', async () => {
    const res = await tele.browser.post(`/api/tele-invoices/${invoice.id}/credit-notes`, {
      amount: 100,
      reason: 'Repeat read',
      version: invoice.version,
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json() as TBillingDocumentDetail;
    expect(after).toMatchObject({
      total: invoice.total,
      subtotal: invoice.subtotal,
      credited: 118,
      outstanding: 2597.18,
      version: invoice.version + 1,
    });
    expect(after.creditNotes).toEqual([
      expect.objectContaining({
        kind: 'CREDIT_NOTE',
        total: -118,
        tax: -18,
        number: expect.stringMatching(/^CN-\d{4}-0001$/),
      }),
    ]);
    const stale = await tele.browser.post(`/api/tele-invoices/${invoice.id}/credit-notes`, {
      amount: 1,
      reason: 'x',
      version: invoice.version,
    });
    expect(stale.statusCode).toBe(409);
    invoice = after;
  });

  it('records partial and full payments, once per Idempotency-Key; stale 409, over-payment 400', async () => {
    const pay = (body: Record<string, unknown>, key?: string) =>
      tele.browser.post(
        `/api/tele-invoices/${invoice.id}/payments`,
        { mode: 'BANK_TRANSFER', receivedOn: '2026-04-05', reference: 'UTR1', ...body },
        key ? { 'idempotency-key': key } : {},
      );
    const first = await pay({ amount: 1000, version: invoice.version }, 'pay-1');
    expect(first.statusCode, first.body).toBe(200);
    const partial = first.json() as TBillingDocumentDetail;
    expect(partial).toMatchObject({ status: 'PARTIALLY_PAID', paid: 1000, outstanding: 1597.18 });
    const repeat = await pay({ amount: 1000, version: invoice.version }, 'pay-1');
    expect(repeat.statusCode).toBe(200);
    expect((repeat.json() as TBillingDocumentDetail).payments).toHaveLength(1);
    expect((await pay({ amount: 1, version: invoice.version }, 'pay-2')).statusCode).toBe(409);
    expect((await pay({ amount: 1597.19, version: partial.version }, 'pay-3')).statusCode).toBe(400);
    const full = await pay({ amount: 1597.18, version: partial.version, mode: 'UPI' }, 'pay-4');
    invoice = full.json() as TBillingDocumentDetail;
    expect(invoice).toMatchObject({ status: 'PAID', paid: 2597.18, outstanding: 0 });
  });

  it("prints the ledger's amounts on the PDF and e-mails it to the center", async () => {
    const res = await tele.browser.get(`/api/tele-invoices/${invoice.id}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(res.rawPayload);
    for (const figure of [
      invoice.subtotal,
      invoice.adjustment,
      invoice.tax,
      invoice.total,
      invoice.paid,
      invoice.credited,
    ])
      expect(text).toContain(formatRupees(Math.round(figure * 100)));
    expect(text).toContain(invoice.number);
    expect(text).toContain('Radiant Tele Reads LLP');
    expect(text).toContain('29ABCDE1234F1Z5');

    const mail = await tele.browser.post(`/api/tele-invoices/${invoice.id}/email`);
    expect(mail.json()).toEqual({ sentTo: place.center.email });
    const [row] = await t.db
      .select()
      .from(messageOutbox)
      .where(and(eq(messageOutbox.recipient, place.center.email), eq(messageOutbox.channel, 'EMAIL')));
    expect(row).toMatchObject({
      subject: `Invoice ${invoice.number}`,
      attachments: [`${invoice.number}.pdf`],
    });
    expect(
      ((await tele.browser.get(`/api/tele-invoices/${invoice.id}`)).json() as TBillingDocumentDetail)
        .emailedTo,
    ).toEqual([place.center.email]);
  });

  it("lists only this invoice's e-mails, not another group's invoice of the same number", async () => {
    // Numbers run per group, so another group's invoice e-mail can carry this very subject.
    await t.db.insert(messageOutbox).values({
      channel: 'EMAIL',
      recipient: otherPlace.center.email,
      subject: `Invoice ${invoice.number}`,
      body: 'Dear center, please find attached your invoice.',
    });
    expect(
      ((await tele.browser.get(`/api/tele-invoices/${invoice.id}`)).json() as TBillingDocumentDetail)
        .emailedTo,
    ).toEqual([place.center.email]);
  });

  it("labels an overdue center's rows and removes the label when paid", async () => {
    const b = (await tele.browser.get(`/api/tele-invoices?centerId=${centerB.id}`)).json() as {
      documents: TBillingDocumentDetail[];
    };
    const doc = b.documents[0]!;
    const labelled = async () =>
      (await t.db.select().from(reportStatuses).where(eq(reportStatuses.centerId, centerB.id))).map(
        (r) => r.dunningLabels,
      );
    expect((await tele.browser.post('/api/tele-invoices/dunning/refresh')).json()).toEqual({
      added: 0,
      removed: 0,
    });
    t.clock.advance(16 * 86_400); // past the 15-day due date (sessions of 16 days ago have ended)
    tele = await signInAt(t, place, ['ROLE_TELE_RADIOLOGY']);
    other = await signInAt(t, otherPlace, ['ROLE_TELE_RADIOLOGY']);
    const refreshed = await tele.browser.post('/api/tele-invoices/dunning/refresh');
    expect(refreshed.json()).toEqual({ added: 3, removed: 0 });
    expect(await labelled()).toEqual([['INVOICE_OVERDUE'], ['INVOICE_OVERDUE'], ['INVOICE_OVERDUE']]);
    const listed = (await tele.browser.get(`/api/tele-invoices/${doc.id}`)).json() as TBillingDocumentDetail;
    expect(listed.overdue).toBe(true);
    // Center A's invoice is paid: its rows carry nothing.
    const a = await t.db.select().from(reportStatuses).where(eq(reportStatuses.centerId, place.center.id));
    expect(a.every((r) => r.dunningLabels.length === 0)).toBe(true);
    const paid = await tele.browser.post(`/api/tele-invoices/${doc.id}/payments`, {
      amount: doc.total,
      mode: 'CASH',
      receivedOn: '2026-04-20',
      version: doc.version,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await labelled()).toEqual([[], [], []]);
  });
});

describe('who and where', () => {
  // Every role but the two of the menus (core canUseTeleBilling) is refused before any lookup.
  it.each(ROLES.filter((r) => !canUseTeleBilling([r])).map((r) => [r]))('%s gets 403', async (role) => {
    const { browser } = await signInAt(t, place, [role]);
    for (const res of [
      await browser.get('/api/tele-pricing/prices'),
      await browser.get('/api/tele-invoices'),
      await browser.post('/api/tele-invoices/month', { month: '2026-03' }),
    ])
      expect(res.statusCode).toBe(403);
  });

  it('a biller may; another group sees none of the documents (404)', async () => {
    const biller = await signInAt(t, place, ['ROLE_BILLER']);
    const mine = (await biller.browser.get('/api/tele-invoices')).json() as {
      documents: Array<{ id: number }>;
    };
    expect(mine.documents.length).toBeGreaterThanOrEqual(3);
    const id = mine.documents[0]!.id;
    expect(
      ((await other.browser.get('/api/tele-invoices')).json() as { documents: unknown[] }).documents,
    ).toEqual([]);
    for (const res of [
      await other.browser.get(`/api/tele-invoices/${id}`),
      await other.browser.get(`/api/tele-invoices/${id}/pdf`),
      await other.browser.post(`/api/tele-invoices/${id}/email`),
      await other.browser.post(`/api/tele-invoices/${id}/payments`, {
        amount: 1,
        mode: 'CASH',
        receivedOn: '2026-04-01',
        version: 1,
      }),
      await other.browser.post(`/api/tele-invoices/${id}/credit-notes`, {
        amount: 1,
        reason: 'x',
        version: 1,
      }),
      await other.browser.post('/api/tele-invoices/preview', { centerId: place.center.id, ...MARCH }),
    ])
      expect(res.statusCode).toBe(404);
  });
});
