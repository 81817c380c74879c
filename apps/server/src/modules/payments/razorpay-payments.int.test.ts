import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import {
  SESSION_COOKIE_NAME,
  type TPaymentConfirmResponse,
  type TShareInfo,
  type TStudyPayments,
} from '@radflow/core';
import { paymentWebhookEvents, reportStatuses, studyEvents, studyPayments } from '../../db/schema.js';
import { type TestApp, TestClient, createTestApp } from '../../../test/test-app.js';
import { type TFakeLink, type TFakeRazorpay, startFakeRazorpay } from '../../../test/fake-razorpay.js';
import { createTestStudy, createTestWorld, signedIn, signedInAt } from '../../../test/worklist-test-data.js';

/**
 * Payments through Razorpay (issue 26 §3; spec-core §2 Login page payment-id flow, §7
 * payment-confirm): the center's request makes a Payment Link at (a local fake of) Razorpay, the
 * payer's signed return confirms it through payment-confirm, and Razorpay's signed webhook records
 * it when the payer does not come back — once, whatever is replayed or forged.
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
  await t.close();
  await razorpay.close();
});

/** A study shared with a viewer account, and its pending payment at Razorpay. */
async function requestedPayment(amount = 1250.5) {
  const world = await createTestWorld(t.db);
  const center = await signedInAt(t, world, ['ROLE_CENTER']);
  const viewer = await signedIn(t, { roles: ['ROLE_VIEWER'], groupId: world.group.id });
  const { row } = await createTestStudy(t.db, {
    groupId: world.group.id,
    centerId: world.center.id,
    row: { status: 'SIGNED_OFF', sharedEmails: [viewer.user.email] },
  });
  const requested = await center.browser.post(`/api/report-status/payment/request/${row.id}`, { amount });
  expect(requested.statusCode, requested.body).toBe(200);
  const [payment] = requested.json<TStudyPayments>().payments;
  if (!payment?.providerReference) throw new Error('no reference');
  const link = razorpay.links.find((l) => l.reference_id === payment.providerReference);
  if (!link) throw new Error('no link at Razorpay');
  return { center, viewer, row, payment, link };
}

const confirm = (returnUrl: string) =>
  new TestClient(t.app).post('/api/customer-report/payment-confirm', {
    ...Object.fromEntries(new URL(returnUrl).searchParams.entries()),
    password: '',
    mobile: '',
  });

/** Razorpay's call: server to server, no browser headers. */
const sendWebhook = (webhook: { body: string; headers: Record<string, string> }, path = 'razorpay') =>
  t.app.inject({
    method: 'POST',
    url: `/api/payments/webhook/${path}`,
    headers: webhook.headers,
    payload: webhook.body,
  });

const rowOf = async (id: number) =>
  (
    await t.db
      .select({ paymentStatus: reportStatuses.paymentStatus, paymentMode: reportStatuses.paymentMode })
      .from(reportStatuses)
      .where(eq(reportStatuses.id, id))
  )[0];

const paidEvents = async (id: number) =>
  (
    await t.db
      .select({ eventType: studyEvents.eventType })
      .from(studyEvents)
      .where(eq(studyEvents.reportStatusId, id))
      .orderBy(asc(studyEvents.id))
  ).filter((e) => e.eventType === 'PAYMENT_PAID').length;

const webhookRows = (reference: string) =>
  t.db.select().from(paymentWebhookEvents).where(eq(paymentWebhookEvents.reference, reference));

const shareInfo = async (browser: TestClient) =>
  (await browser.get('/api/customer-report/share-info')).json<TShareInfo>();

describe('a study payment through Razorpay Payment Links', () => {
  it('creates the link with the amount in paise, our reference and the login page as its return', async () => {
    const { payment, link } = await requestedPayment(1250.5);
    expect(link).toMatchObject({
      amount: 125050,
      currency: 'INR',
      accept_partial: false,
      reference_id: payment.providerReference,
      callback_url: `https://radflow.example/login-page?payment-id=${payment.providerReference}`,
      callback_method: 'get',
      notes: { payable: 'STUDY_PAYMENT', payment_id: String(payment.id) },
    });
    expect(payment).toMatchObject({ status: 'PENDING', payUrl: link.short_url });
  });

  it("confirms the payer's signed return through payment-confirm; a forged or tampered one stays PENDING", async () => {
    const { viewer, row, link } = await requestedPayment();
    expect(await shareInfo(viewer.browser)).toMatchObject({ paymentNotDone: true });
    const returned = razorpay.pay(link);
    // Razorpay's parameters are added to our return address, which carries payment-id.
    expect(new URL(returned).searchParams.get('payment-id')).toBe(link.reference_id);

    const forged = new URL(returned);
    const signature = forged.searchParams.get('razorpay_signature') ?? '';
    forged.searchParams.set(
      'razorpay_signature',
      `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`,
    );
    expect((await confirm(forged.toString())).json<TPaymentConfirmResponse>()).toEqual({
      paymentStatus: 'PENDING',
    });
    const tampered = new URL(returned);
    tampered.searchParams.set('razorpay_payment_id', 'pay_someoneelse');
    expect((await confirm(tampered.toString())).json<TPaymentConfirmResponse>()).toEqual({
      paymentStatus: 'PENDING',
    });
    // Another link's genuine return does not pay this one.
    const other = await requestedPayment();
    const otherReturn = new URL(razorpay.pay(other.link));
    otherReturn.searchParams.set('payment-id', link.reference_id);
    expect((await confirm(otherReturn.toString())).json<TPaymentConfirmResponse>()).toEqual({
      paymentStatus: 'PENDING',
    });
    expect(await rowOf(row.id)).toEqual({ paymentStatus: 'PENDING', paymentMode: null });

    const paid = await confirm(returned);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json<TPaymentConfirmResponse>()).toEqual({ paymentStatus: 'PAID' });
    expect(await rowOf(row.id)).toEqual({ paymentStatus: 'PAID', paymentMode: 'ONLINE' });
    expect(await shareInfo(viewer.browser)).toMatchObject({ paymentNotDone: false });

    // The webhook that follows the return changes nothing more.
    const late = await sendWebhook(razorpay.webhookOf(link));
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json()).toEqual({ outcome: 'ALREADY_PAID' });
    expect(await paidEvents(row.id)).toBe(1);
  });

  it("records Razorpay's signed webhook once: bad signatures change nothing, a replay answers 200", async () => {
    const { viewer, row, link, payment } = await requestedPayment(300);
    const webhook = razorpay.webhookOf(link, { eventId: 'evt_replayed_1' });

    const unsigned = await sendWebhook({
      body: webhook.body,
      headers: { ...webhook.headers, 'x-razorpay-signature': '' },
    });
    expect(unsigned.statusCode, unsigned.body).toBe(401);
    const wrongSecret = await sendWebhook({
      body: webhook.body,
      headers: { ...webhook.headers, 'x-razorpay-signature': 'ab'.repeat(32) },
    });
    expect(wrongSecret.statusCode, wrongSecret.body).toBe(401);
    const tampered = await sendWebhook({
      body: webhook.body.replace('"amount_paid":30000', '"amount_paid":30001'),
      headers: webhook.headers,
    });
    expect(tampered.statusCode, tampered.body).toBe(401);
    expect(tampered.json<{ errorDescription: string }>().errorDescription).toBe(
      'The webhook signature is missing or wrong',
    );
    expect(await rowOf(row.id)).toEqual({ paymentStatus: 'PENDING', paymentMode: null });
    expect(await webhookRows(link.reference_id)).toEqual([]);

    // Signed, but without the event id that makes a replay recognisable: 400, nothing recorded.
    const { 'x-razorpay-event-id': _eventId, ...withoutEventId } = webhook.headers;
    expect((await sendWebhook({ body: webhook.body, headers: withoutEventId })).statusCode).toBe(400);
    expect(await rowOf(row.id)).toEqual({ paymentStatus: 'PENDING', paymentMode: null });

    // The good call: no device headers, no Origin, and the owing viewer's cookie does not matter.
    const good = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook/razorpay',
      headers: { ...webhook.headers, cookie: `${SESSION_COOKIE_NAME}=${viewer.browser.cookie ?? ''}` },
      payload: webhook.body,
    });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toEqual({ outcome: 'RECORDED' });
    expect(await rowOf(row.id)).toEqual({ paymentStatus: 'PAID', paymentMode: 'ONLINE' });
    const [stored] = await t.db.select().from(studyPayments).where(eq(studyPayments.id, payment.id));
    expect(stored).toMatchObject({ status: 'PAID', mode: 'ONLINE', transactionId: link.paymentId });
    expect(await shareInfo(viewer.browser)).toMatchObject({ paymentNotDone: false });

    const replay = await sendWebhook(webhook);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json()).toEqual({ outcome: 'REPLAYED' });
    expect(await paidEvents(row.id)).toBe(1);
    expect((await webhookRows(link.reference_id)).map((e) => [e.eventId, e.outcome])).toEqual([
      ['evt_replayed_1', 'RECORDED'],
    ]);

    // The payer's return after the webhook: PAID, nothing more recorded.
    expect((await confirm(razorpay.pay(link))).json<TPaymentConfirmResponse>()).toEqual({
      paymentStatus: 'PAID',
    });
    expect(await paidEvents(row.id)).toBe(1);
  });

  it('records the payment once when the return, the webhook and its replay arrive together', async () => {
    const { row, link } = await requestedPayment(300);
    const webhook = razorpay.webhookOf(link, { eventId: 'evt_together' });
    const returned = razorpay.pay(link);
    const [first, second, payer] = await Promise.all([
      sendWebhook(webhook),
      sendWebhook(webhook),
      confirm(returned),
    ]);
    expect(payer.json<TPaymentConfirmResponse>()).toEqual({ paymentStatus: 'PAID' });
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const outcomes = [first, second].map((r) => r.json<{ outcome: string }>().outcome).sort();
    expect(outcomes).toContain('REPLAYED');
    expect(await paidEvents(row.id)).toBe(1);
    expect(await webhookRows(link.reference_id)).toHaveLength(1);
  });

  it('acknowledges events it has no use for: an unknown link, another event, another amount', async () => {
    const { row, link } = await requestedPayment(300);
    const stranger: TFakeLink = {
      ...link,
      id: 'plink_notours',
      reference_id: 'ref_not_ours',
      paymentId: null,
    };
    const unknown = await sendWebhook(razorpay.webhookOf(stranger));
    expect(unknown.statusCode, unknown.body).toBe(200);
    expect(unknown.json()).toEqual({ outcome: 'UNKNOWN_REFERENCE' });

    const captured = await sendWebhook(razorpay.webhookOf(link, { event: 'payment.captured' }));
    expect(captured.json()).toEqual({ outcome: 'IGNORED' });

    const less = await sendWebhook(razorpay.webhookOf(link, { amountPaid: 100 }));
    expect(less.json()).toEqual({ outcome: 'AMOUNT_MISMATCH' });

    const notForUs = await sendWebhook(razorpay.webhookOf({ ...link, notes: [] }));
    expect(notForUs.json()).toEqual({ outcome: 'UNKNOWN_PAYABLE' });
    expect(await rowOf(row.id)).toEqual({ paymentStatus: 'PENDING', paymentMode: null });
    expect(await paidEvents(row.id)).toBe(0);

    // Another provider's address: there is no such webhook here.
    expect((await sendWebhook(razorpay.webhookOf(link), 'outbox')).statusCode).toBe(404);
  });

  it('withdraws the request when Razorpay refuses the link (502, nothing left pending)', async () => {
    const world = await createTestWorld(t.db);
    const center = await signedInAt(t, world, ['ROLE_CENTER']);
    const { row } = await createTestStudy(t.db, { groupId: world.group.id, centerId: world.center.id });
    razorpay.failNext(400, 'Currency is not supported');
    const refused = await center.browser.post(`/api/report-status/payment/request/${row.id}`, { amount: 10 });
    expect(refused.statusCode, refused.body).toBe(502);
    expect(refused.json<{ additionalInfo: string }>().additionalInfo).toContain('Currency is not supported');
    expect(await rowOf(row.id)).toEqual({ paymentStatus: 'NOT_REQUIRED', paymentMode: null });
  });
});
