import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PLATFORM_TIME_ZONE,
  ROLES,
  type TBillingDocumentDetail,
  type TInvoicePayConfirm,
  type TInvoicePayLink,
  type TPlatformInvoice,
  type TPlatformOverview,
  type TRole,
  calendarDayIn,
  canPayPlatformInvoice,
  canPayTeleInvoice,
} from '@radflow/core';
import { billingPayments, groups, platformPayments, reportStatuses } from '../../db/schema.js';
import { type TFakeLink, type TFakeRazorpay, startFakeRazorpay } from '../../../test/fake-razorpay.js';
import { addPrice, saveBillingDetails, signedOffStudies } from '../../../test/tele-billing-data.js';
import {
  type TSignedIn,
  type TestApp,
  type TestClient,
  createTestCenter,
  createTestApp,
  createTestGroup,
  createTestUser,
  createTestWorld,
  signInAs,
  signInAt,
} from '../../../test/test-app.js';
import { createTestStudies } from '../../../test/worklist-test-data.js';

/*
 * Online payment of invoices (issue 26 §1 and §3 through the payables seam): a center pays its
 * tele-radiology invoice and a group its platform invoice through (a local fake of) Razorpay; the
 * signed webhook or the payer's signed return records the payment with the invoice's own recorder,
 * once, and only for the amount the invoice owes. 403 for roles that may not pay, 404 across
 * centers and groups.
 */

const keys = { keyId: 'rzp_test_key', keySecret: 'key-secret-for-tests', webhookSecret: 'webhook-secret' };
let t: TestApp;
let razorpay: TFakeRazorpay;

beforeAll(async () => {
  razorpay = await startFakeRazorpay(keys);
  t = await createTestApp({
    publicUrl: 'https://radflow.example',
    razorpay: { ...keys, apiUrl: razorpay.url },
  });
});
afterAll(async () => {
  await t?.close();
  await razorpay?.close();
});

const sendWebhook = (webhook: { body: string; headers: Record<string, string> }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payments/webhook/razorpay',
    headers: webhook.headers,
    payload: webhook.body,
  });

async function ok<T>(res: { statusCode: number; body: string; json(): unknown }): Promise<T> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

const linkOf = (reference: string): TFakeLink => {
  const link = razorpay.links.find((l) => l.reference_id === reference);
  if (!link) throw new Error('no link at Razorpay');
  return link;
};

const confirm = (browser: TestClient, returnUrl: string) =>
  browser.post(
    '/api/invoice-payments/confirm',
    Object.fromEntries(new URL(returnUrl).searchParams.entries()),
  );

/** A group with a tele user, a center with its user, and one issued March invoice of that center. */
async function teleInvoice() {
  const place = await createTestWorld(t.db);
  const tele = await signInAt(t, place, ['ROLE_TELE_RADIOLOGY']);
  await saveBillingDetails(t.db, tele.user.id, { accName: 'Tele Reads', gstPercentage: 18 });
  await addPrice(tele.browser, { centerId: null, modality: 'CT', amount: 500, effectiveFrom: '2026-01-01' });
  await signedOffStudies(t.db, { groupId: place.group.id, centerId: place.center.id }, [
    { at: '2026-03-10T06:00:00Z', count: 2 },
  ]);
  const invoice = await ok<TBillingDocumentDetail>(
    await tele.browser.post('/api/tele-invoices', {
      centerId: place.center.id,
      periodStart: '2026-03-01',
      periodEnd: '2026-03-31',
    }),
  );
  const center = await signInAt(t, place, ['ROLE_CENTER']);
  return { place, tele, center, invoice };
}

const teleDetail = async (tele: TSignedIn, id: number) =>
  ok<TBillingDocumentDetail>(await tele.browser.get(`/api/tele-invoices/${id}`));

describe('a center pays its tele-radiology invoice online', () => {
  it('sees its invoice; the link asks the outstanding due; the webhook records it once, ONLINE', async () => {
    const { tele, center, invoice } = await teleInvoice();
    // 2 × 500 + 18 % GST
    expect(invoice).toMatchObject({ total: 1180, outstanding: 1180, status: 'ISSUED' });
    const mine = await ok<{ documents: Array<{ id: number }> }>(
      await center.browser.get('/api/center-billing/invoices'),
    );
    expect(mine.documents.map((d) => d.id)).toEqual([invoice.id]);
    await ok(await center.browser.get(`/api/center-billing/invoices/${invoice.id}`));

    const pay = await ok<TInvoicePayLink>(
      await center.browser.post(`/api/center-billing/invoices/${invoice.id}/pay`),
    );
    const link = linkOf(pay.reference);
    expect(pay).toMatchObject({ url: link.short_url, amount: 1180 });
    expect(link).toMatchObject({
      amount: 118_000,
      currency: 'INR',
      callback_url: `https://radflow.example/center-invoices?payment-id=${pay.reference}`,
      notes: { payable: 'TELE_INVOICE', payment_id: String(invoice.id) },
    });

    const webhook = razorpay.webhookOf(link);
    expect((await ok<{ outcome: string }>(await sendWebhook(webhook))).outcome).toBe('RECORDED');
    expect((await ok<{ outcome: string }>(await sendWebhook(webhook))).outcome).toBe('REPLAYED');
    const again = razorpay.webhookOf(link, { eventId: 'evt_second_delivery' });
    expect((await ok<{ outcome: string }>(await sendWebhook(again))).outcome).toBe('ALREADY_PAID');

    const after = await teleDetail(tele, invoice.id);
    expect(after).toMatchObject({ status: 'PAID', paid: 1180, outstanding: 0 });
    expect(after.payments).toEqual([
      expect.objectContaining({ amount: 1180, mode: 'ONLINE', reference: pay.reference }),
    ]);
    const rows = await t.db.select().from(billingPayments).where(eq(billingPayments.documentId, invoice.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ provider: 'razorpay', recordedByUserId: null });
    // Nothing left to pay: no second link.
    expect((await center.browser.post(`/api/center-billing/invoices/${invoice.id}/pay`)).statusCode).toBe(
      409,
    );
  });

  it("the payer's signed return records it too (a forged one does not); the webhook after it changes nothing", async () => {
    const { tele, center, invoice } = await teleInvoice();
    const pay = await ok<TInvoicePayLink>(
      await center.browser.post(`/api/center-billing/invoices/${invoice.id}/pay`),
    );
    const link = linkOf(pay.reference);
    const returned = razorpay.pay(link);
    const forged = new URL(returned);
    forged.searchParams.set('razorpay_payment_link_status', 'partially_paid');
    expect(await ok<TInvoicePayConfirm>(await confirm(center.browser, forged.toString()))).toMatchObject({
      paymentStatus: 'PENDING',
    });
    expect((await teleDetail(tele, invoice.id)).status).toBe('ISSUED');

    expect(await ok<TInvoicePayConfirm>(await confirm(center.browser, returned))).toEqual({
      paymentStatus: 'PAID',
      payable: 'TELE_INVOICE',
      invoiceId: invoice.id,
    });
    expect(await ok<TInvoicePayConfirm>(await confirm(center.browser, returned))).toMatchObject({
      paymentStatus: 'PAID',
    });
    expect((await ok<{ outcome: string }>(await sendWebhook(razorpay.webhookOf(link)))).outcome).toBe(
      'ALREADY_PAID',
    );
    const after = await teleDetail(tele, invoice.id);
    expect(after).toMatchObject({ status: 'PAID', outstanding: 0 });
    expect(after.payments).toHaveLength(1);
  });

  it('records nothing when the amount is not the due: another amount, or a part paid at the desk meanwhile', async () => {
    const { tele, center, invoice } = await teleInvoice();
    const pay = await ok<TInvoicePayLink>(
      await center.browser.post(`/api/center-billing/invoices/${invoice.id}/pay`),
    );
    const wrong = razorpay.webhookOf(linkOf(pay.reference), { amountPaid: 100_00 });
    expect((await ok<{ outcome: string }>(await sendWebhook(wrong))).outcome).toBe('AMOUNT_MISMATCH');
    expect((await teleDetail(tele, invoice.id)).status).toBe('ISSUED');

    // A partial payment at the desk (the invoice's rule allows it): the old link is now more than owed.
    const partial = await ok<TBillingDocumentDetail>(
      await tele.browser.post(`/api/tele-invoices/${invoice.id}/payments`, {
        amount: 180,
        mode: 'CASH',
        receivedOn: '2026-04-02',
        version: invoice.version,
      }),
    );
    expect(partial).toMatchObject({ status: 'PARTIALLY_PAID', outstanding: 1000 });
    const stale = razorpay.webhookOf(linkOf(pay.reference), { eventId: 'evt_stale_link' });
    expect((await ok<{ outcome: string }>(await sendWebhook(stale))).outcome).toBe('AMOUNT_MISMATCH');

    // A new link asks the rest, and paying it settles the invoice.
    const rest = await ok<TInvoicePayLink>(
      await center.browser.post(`/api/center-billing/invoices/${invoice.id}/pay`),
    );
    expect(rest.amount).toBe(1000);
    expect(
      (await ok<{ outcome: string }>(await sendWebhook(razorpay.webhookOf(linkOf(rest.reference))))).outcome,
    ).toBe('RECORDED');
    expect(await teleDetail(tele, invoice.id)).toMatchObject({ status: 'PAID', paid: 1180, outstanding: 0 });
  });

  it("an overdue invoice's dunning labels go when it is paid online", async () => {
    const { place, invoice } = await teleInvoice();
    t.clock.advance(16 * 86_400);
    const fresh = await signInAt(t, place, ['ROLE_CENTER']);
    const teleNow = await signInAt(t, place, ['ROLE_TELE_RADIOLOGY']);
    await ok(await teleNow.browser.post('/api/tele-invoices/dunning/refresh'));
    const labels = async () =>
      (await t.db.select().from(reportStatuses).where(eq(reportStatuses.centerId, place.center.id))).map(
        (r) => r.dunningLabels,
      );
    expect(await labels()).toEqual([['INVOICE_OVERDUE'], ['INVOICE_OVERDUE']]);
    const pay = await ok<TInvoicePayLink>(
      await fresh.browser.post(`/api/center-billing/invoices/${invoice.id}/pay`),
    );
    expect(
      (await ok<{ outcome: string }>(await sendWebhook(razorpay.webhookOf(linkOf(pay.reference))))).outcome,
    ).toBe('RECORDED');
    expect(await labels()).toEqual([[], []]);
  });

  it('403 for every role that may not pay; 404 for another center of the group and another group', async () => {
    const { place, invoice } = await teleInvoice();
    for (const role of ROLES.filter((r) => !canPayTeleInvoice([r]))) {
      const { browser } = await signInAt(t, place, [role]);
      for (const res of [
        await browser.get('/api/center-billing/invoices'),
        await browser.post(`/api/center-billing/invoices/${invoice.id}/pay`),
      ])
        expect(res.statusCode, role).toBe(403);
    }
    const otherCenter = await createTestCenter(t.db, { groupId: place.group.id });
    const neighbour = await signInAt(t, { group: place.group, center: otherCenter }, ['ROLE_CENTER']);
    const elsewhere = await signInAt(t, await createTestWorld(t.db), ['ROLE_CENTER']);
    for (const browser of [neighbour.browser, elsewhere.browser]) {
      expect(
        (await ok<{ documents: unknown[] }>(await browser.get('/api/center-billing/invoices'))).documents,
      ).toEqual([]);
      for (const res of [
        await browser.get(`/api/center-billing/invoices/${invoice.id}`),
        await browser.get(`/api/center-billing/invoices/${invoice.id}/pdf`),
        await browser.post(`/api/center-billing/invoices/${invoice.id}/pay`),
      ])
        expect(res.statusCode).toBe(404);
    }
  });
});

/** The month before now in the platform's zone, and an instant in its middle. */
function lastMonth(now: Date) {
  const [y, m] = calendarDayIn(now, PLATFORM_TIME_ZONE).split('-').map(Number) as [number, number];
  const period = `${m === 1 ? y - 1 : y}-${String(m === 1 ? 12 : m - 1).padStart(2, '0')}`;
  return { period, middle: new Date(`${period}-15T06:00:00Z`) };
}

async function operatorBiller() {
  const group = await createTestGroup(t.db, { name: 'Radflow Platform' });
  await t.db.update(groups).set({ platformOperator: true }).where(eq(groups.id, group.id));
  return signInAs(t, await createTestUser(t.db, { roles: ['ROLE_ADMIN_BILLER'], groupId: group.id }));
}

/** A group on PER_STUDY with 4 studies signed off last month, invoiced, and its admin signed in. */
async function platformInvoice() {
  const biller = await operatorBiller();
  const { period, middle } = lastMonth(t.app.ctx.now());
  const group = await createTestGroup(t.db);
  const center = await createTestCenter(t.db, { groupId: group.id });
  await createTestStudies(t.db, 4, {
    groupId: group.id,
    centerId: center.id,
    row: { status: 'SIGNED_OFF', signedOffAt: middle, firstSignedOffAt: middle },
  });
  await ok(
    await biller.post(`/api/platform-billing/groups/${group.id}/plan`, {
      planCode: 'PER_STUDY',
      version: null,
    }),
  );
  await t.db.execute(
    sql`UPDATE group_subscriptions SET started_at = ${middle.toISOString()}::timestamptz WHERE group_id = ${group.id}`,
  );
  await ok(await biller.post('/api/platform-billing/invoices/issue', { period }));
  const admin = await signInAs(t, await createTestUser(t.db, { roles: ['ROLE_ADMIN'], groupId: group.id }));
  const list = await ok<{ invoices: TPlatformInvoice[] }>(
    await admin.get('/api/group-billing/platform-invoices'),
  );
  expect(list.invoices).toHaveLength(1);
  return { biller, group, center, admin, invoice: list.invoices[0]! };
}

const subscriptionOf = async (biller: TestClient, groupId: number) =>
  (await ok<TPlatformOverview>(await biller.get('/api/platform-billing/overview'))).groups.find(
    (g) => g.groupId === groupId,
  )?.subscription;

describe('a group pays its platform invoice online', () => {
  it('the link asks the due; the webhook records the payment once, the invoice PAID, the subscription extended', async () => {
    const { biller, group, admin, invoice } = await platformInvoice();
    // 4 × ₹15 + 18 % GST
    expect(invoice).toMatchObject({ total: 70.8, status: 'ISSUED' });
    const before = await subscriptionOf(biller, group.id);
    const pay = await ok<TInvoicePayLink>(
      await admin.post(`/api/group-billing/platform-invoices/${invoice.id}/pay`),
    );
    const link = linkOf(pay.reference);
    expect(link).toMatchObject({
      amount: 7080,
      callback_url: `https://radflow.example/platform-invoices?payment-id=${pay.reference}`,
      notes: { payable: 'PLATFORM_INVOICE', payment_id: String(invoice.id) },
    });
    const webhook = razorpay.webhookOf(link);
    expect((await ok<{ outcome: string }>(await sendWebhook(webhook))).outcome).toBe('RECORDED');
    expect((await ok<{ outcome: string }>(await sendWebhook(webhook))).outcome).toBe('REPLAYED');
    expect(
      (await ok<{ outcome: string }>(await sendWebhook(razorpay.webhookOf(link, { eventId: 'evt_again_p' }))))
        .outcome,
    ).toBe('ALREADY_PAID');

    const list = await ok<{ invoices: TPlatformInvoice[] }>(
      await admin.get('/api/group-billing/platform-invoices'),
    );
    expect(list.invoices[0]).toMatchObject({ status: 'PAID' });
    const payments = await t.db.select().from(platformPayments).where(eq(platformPayments.groupId, group.id));
    expect(payments).toEqual([
      expect.objectContaining({
        amountMinor: 7080,
        mode: 'ONLINE',
        provider: 'razorpay',
        reference: pay.reference,
      }),
    ]);
    const after = await subscriptionOf(biller, group.id);
    expect(new Date(after!.expiresAt!).getTime()).toBeGreaterThan(new Date(before!.expiresAt!).getTime());
    expect((await admin.post(`/api/group-billing/platform-invoices/${invoice.id}/pay`)).statusCode).toBe(409);
  });

  it("the admin's signed return records it; another amount does not", async () => {
    const { admin, invoice } = await platformInvoice();
    const first = await ok<TInvoicePayLink>(
      await admin.post(`/api/group-billing/platform-invoices/${invoice.id}/pay`),
    );
    const wrong = razorpay.webhookOf(linkOf(first.reference), { amountPaid: 1000 });
    expect((await ok<{ outcome: string }>(await sendWebhook(wrong))).outcome).toBe('AMOUNT_MISMATCH');
    const pay = await ok<TInvoicePayLink>(
      await admin.post(`/api/group-billing/platform-invoices/${invoice.id}/pay`),
    );
    expect(await ok<TInvoicePayConfirm>(await confirm(admin, razorpay.pay(linkOf(pay.reference))))).toEqual({
      paymentStatus: 'PAID',
      payable: 'PLATFORM_INVOICE',
      invoiceId: invoice.id,
    });
    const list = await ok<{ invoices: TPlatformInvoice[] }>(
      await admin.get('/api/group-billing/platform-invoices'),
    );
    expect(list.invoices[0]).toMatchObject({ status: 'PAID' });
  });

  it('403 for roles that may not pay; 404 for another group (invoice, PDF, link, return)', async () => {
    const { group, admin, invoice } = await platformInvoice();
    for (const role of ROLES.filter((r) => !canPayPlatformInvoice([r])) as TRole[]) {
      const browser = await signInAs(t, await createTestUser(t.db, { roles: [role], groupId: group.id }));
      for (const res of [
        await browser.get('/api/group-billing/platform-invoices'),
        await browser.post(`/api/group-billing/platform-invoices/${invoice.id}/pay`),
      ])
        expect(res.statusCode, role).toBe(403);
    }
    const pay = await ok<TInvoicePayLink>(
      await admin.post(`/api/group-billing/platform-invoices/${invoice.id}/pay`),
    );
    const stranger = await signInAs(t, await createTestUser(t.db, { roles: ['ROLE_ADMIN'] }));
    expect(
      (await ok<{ invoices: unknown[] }>(await stranger.get('/api/group-billing/platform-invoices')))
        .invoices,
    ).toEqual([]);
    for (const res of [
      await stranger.get(`/api/group-billing/platform-invoices/${invoice.id}/pdf`),
      await stranger.post(`/api/group-billing/platform-invoices/${invoice.id}/pay`),
      await confirm(stranger, razorpay.pay(linkOf(pay.reference))),
    ])
      expect(res.statusCode).toBe(404);
    expect(
      (
        await t.db
          .select()
          .from(platformPayments)
          .where(and(eq(platformPayments.groupId, group.id)))
      ).length,
    ).toBe(0);
  });
});
