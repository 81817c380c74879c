import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import type { TAccountPayment, TPaymentConfirmResponse, TShareInfo, TStudyPayments } from '@radflow/core';
import { messageOutbox, reportStatuses, studyEvents, studyPayments } from '../../db/schema.js';
import { type TestApp, TestClient, createTestApp } from '../../../test/test-app.js';
import {
  createTestStudy,
  createTestWorld,
  list,
  signedIn,
  signedInAt,
} from '../../../test/worklist-test-data.js';

/**
 * Payments for shared studies (issue 5 §1 Viewer payment; spec-core §2 Login page payment confirm,
 * §3 paymentStatus / paymentMode, §7 share-info): the center asks a viewer account to pay for a study
 * shared with it, the viewer is told to pay (share-info), pays through the provider's link, and the
 * login page's payment-confirm records it.
 */

let t: TestApp;
beforeAll(async () => {
  // The default provider's simulated gateway: its pay link pays (PAYMENT_TEST_GATEWAY).
  t = await createTestApp({ publicUrl: 'https://radflow.example', paymentTestGateway: true });
});
afterAll(() => t.close());

async function sharedStudyWorld() {
  const world = await createTestWorld(t.db);
  const center = await signedInAt(t, world, ['ROLE_CENTER']);
  const viewer = await signedIn(t, { roles: ['ROLE_VIEWER'], groupId: world.group.id });
  const otherViewer = await signedIn(t, { roles: ['ROLE_VIEWER'], groupId: world.group.id });
  const { row, study } = await createTestStudy(t.db, {
    groupId: world.group.id,
    centerId: world.center.id,
    row: { status: 'SIGNED_OFF', studyName: 'CT CHEST' },
  });
  // Shared the way the center shares: the share dialog's e-mail.
  const shared = await center.browser.post(`/api/report-status/send-email/${row.id}`, {
    email: viewer.user.email,
  });
  expect(shared.statusCode, shared.body).toBe(200);
  return { world, center, viewer, otherViewer, row, study };
}

const shareInfo = async (browser: TestClient) => {
  const res = await browser.get('/api/customer-report/share-info');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TShareInfo>();
};

const confirm = (params: Record<string, string>) =>
  new TestClient(t.app).post('/api/customer-report/payment-confirm', {
    ...params,
    password: '',
    mobile: '',
  });

/** The login page's query parameters of a pay link (the provider's return address). */
const paramsOf = (payUrl: string) => Object.fromEntries(new URL(payUrl).searchParams.entries());

const eventsOf = (id: number) =>
  t.db
    .select({
      eventType: studyEvents.eventType,
      actorLabel: studyEvents.actorLabel,
      detail: studyEvents.detail,
    })
    .from(studyEvents)
    .where(eq(studyEvents.reportStatusId, id))
    .orderBy(asc(studyEvents.id));

describe('a payment requested, paid online and confirmed', () => {
  it('sends the viewer to pay until the provider confirms the payment', async () => {
    const { world, center, viewer, otherViewer, row } = await sharedStudyWorld();
    // The viewer account opens what was shared with it; nothing is due yet.
    expect((await viewer.browser.get(`/api/viewer/${row.id}/context`)).statusCode).toBe(200);
    expect((await otherViewer.browser.get(`/api/viewer/${row.id}/context`)).statusCode).toBe(404);
    expect(await shareInfo(viewer.browser)).toEqual({ paymentNotDone: false, paymentPolling: false });

    const requested = await center.browser.post(`/api/report-status/payment/request/${row.id}`, {
      amount: 1250.5,
      note: 'Report and images',
    });
    expect(requested.statusCode, requested.body).toBe(200);
    const body = requested.json<TStudyPayments>();
    expect(body.paymentStatus).toBe('PENDING');
    expect(body.paymentMode).toBeNull();
    const [payment] = body.payments;
    expect(payment).toMatchObject({
      status: 'PENDING',
      amountMinor: 125050,
      currency: 'INR',
      requestedBy: center.user.email,
      note: 'Report and images',
    });
    const payUrl = payment?.payUrl ?? '';
    expect(payUrl.startsWith('https://radflow.example/login-page?payment-id=')).toBe(true);

    // The pay link went to the viewer account by e-mail (the outbox), not to the other viewer.
    const mails = await t.db
      .select()
      .from(messageOutbox)
      .where(
        and(
          eq(messageOutbox.reportStatusId, row.id),
          eq(messageOutbox.subject, 'Payment requested: JANE DOE, CT CHEST'),
        ),
      );
    expect(mails.map((m) => m.recipient)).toEqual([viewer.user.email]);
    expect(mails[0]?.body).toContain(payUrl);
    expect(mails[0]?.body).toContain('₹1,250.50');

    expect(await shareInfo(viewer.browser)).toEqual({ paymentNotDone: true, paymentPolling: true });
    expect(await shareInfo(otherViewer.browser)).toEqual({ paymentNotDone: false, paymentPolling: false });
    expect(await shareInfo(center.browser)).toEqual({ paymentNotDone: false, paymentPolling: false });

    // The payment page lists what is due with the pay link.
    const page = (await viewer.browser.get('/api/customer-report/payment-info')).json<TAccountPayment>();
    expect(page.paymentNotDone).toBe(true);
    expect(page.dues).toEqual([
      expect.objectContaining({ reportStatusId: row.id, amountMinor: 125050, currency: 'INR', payUrl }),
    ]);
    expect(
      (await otherViewer.browser.get('/api/customer-report/payment-info')).json<TAccountPayment>().dues,
    ).toEqual([]);

    // The worklist's Payment Status column reads the row.
    const admin = await signedInAt(t, world, ['ROLE_ADMIN']);
    const listed = (await list(admin.browser, '/api/dicom-web/studies/')).content.find(
      (r) => r.id === row.id,
    );
    expect(listed).toMatchObject({ paymentStatus: 'PENDING', paymentMode: null });

    // A reference alone (no provider signature) is not a payment.
    const params = paramsOf(payUrl);
    const unsigned = await confirm({ 'payment-id': params['payment-id'] ?? '' });
    expect(unsigned.statusCode, unsigned.body).toBe(200);
    expect(unsigned.json<TPaymentConfirmResponse>().paymentStatus).toBe('PENDING');
    const forged = await confirm({ ...params, 'test-signature': 'x'.repeat(43) });
    expect(forged.json<TPaymentConfirmResponse>().paymentStatus).toBe('PENDING');
    expect(await shareInfo(viewer.browser)).toEqual({ paymentNotDone: true, paymentPolling: true });

    const paid = await confirm(params);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json<TPaymentConfirmResponse>()).toEqual({ paymentStatus: 'PAID' });
    expect(await shareInfo(viewer.browser)).toEqual({ paymentNotDone: false, paymentPolling: false });
    const [after] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, row.id));
    expect(after).toMatchObject({ paymentStatus: 'PAID', paymentMode: 'ONLINE', status: 'SIGNED_OFF' });

    // Confirming again answers PAID and records nothing more.
    expect((await confirm(params)).json<TPaymentConfirmResponse>()).toEqual({ paymentStatus: 'PAID' });
    const events = await eventsOf(row.id);
    expect(events.filter((e) => e.eventType.startsWith('PAYMENT_')).map((e) => e.eventType)).toEqual([
      'PAYMENT_REQUESTED',
      'PAYMENT_PAID',
    ]);
    expect(events.at(-1)).toMatchObject({
      actorLabel: 'Payment provider',
      detail: expect.objectContaining({ paymentStatus: 'PAID', paymentMode: 'ONLINE', amountMinor: 125050 }),
    });

    const history = (
      await center.browser.get(`/api/report-status/payments/${row.id}`)
    ).json<TStudyPayments>();
    expect(history.payments).toEqual([
      expect.objectContaining({ status: 'PAID', mode: 'ONLINE', paidAt: expect.any(String) }),
    ]);
  });

  it('answers 404 for an unknown payment and 400 without payment-id', async () => {
    const unknown = await confirm({ 'payment-id': 'pay_unknown' });
    expect(unknown.statusCode, unknown.body).toBe(404);
    expect(unknown.json<{ errorDescription: string }>().errorDescription).toBe('This payment is not known');
    const missing = await new TestClient(t.app).post('/api/customer-report/payment-confirm', {
      password: 'x',
    });
    expect(missing.statusCode, missing.body).toBe(400);
    const tooMany = await confirm({
      'payment-id': 'pay_x',
      ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, 'v'])),
    });
    expect(tooMany.statusCode, tooMany.body).toBe(400);
  });
});

describe('without the simulated gateway (PAYMENT_TEST_GATEWAY off, the default)', () => {
  it('offers no pay link, takes no online confirmation, and leaves the payment to the desk', async () => {
    const plain = await createTestApp({ publicUrl: 'https://radflow.example' });
    try {
      const world = await createTestWorld(plain.db);
      const center = await signedInAt(plain, world, ['ROLE_CENTER']);
      const viewer = await signedIn(plain, { roles: ['ROLE_VIEWER'], groupId: world.group.id });
      const { row } = await createTestStudy(plain.db, {
        groupId: world.group.id,
        centerId: world.center.id,
        row: { sharedEmails: [viewer.user.email] },
      });
      const requested = await center.browser.post(`/api/report-status/payment/request/${row.id}`, {
        amount: 300,
      });
      expect(requested.statusCode, requested.body).toBe(200);
      const [payment] = requested.json<TStudyPayments>().payments;
      expect(payment).toMatchObject({ status: 'PENDING', payUrl: null });
      const [mail] = await plain.db
        .select()
        .from(messageOutbox)
        .where(eq(messageOutbox.reportStatusId, row.id));
      expect(mail?.body).toContain('Please pay at the center');
      expect(mail?.body).not.toContain('payment-id=');
      expect((await viewer.browser.get('/api/customer-report/share-info')).json<TShareInfo>()).toEqual({
        paymentNotDone: true,
        paymentPolling: true,
      });

      // A confirmation shaped like the simulated gateway's is not a payment here.
      const [stored] = await plain.db
        .select({ reference: studyPayments.providerReference })
        .from(studyPayments)
        .where(eq(studyPayments.reportStatusId, row.id));
      const confirmed = await new TestClient(plain.app).post('/api/customer-report/payment-confirm', {
        'payment-id': stored?.reference ?? '',
        'test-signature': 'x'.repeat(43),
        password: '',
        mobile: '',
      });
      expect(confirmed.json<TPaymentConfirmResponse>()).toEqual({ paymentStatus: 'PENDING' });

      const desk = await center.browser.post(`/api/report-status/payment/record/${row.id}`, { mode: 'CASH' });
      expect(desk.statusCode, desk.body).toBe(200);
      expect(desk.json<TStudyPayments>().paymentStatus).toBe('PAID');
      expect((await viewer.browser.get('/api/customer-report/share-info')).json<TShareInfo>()).toEqual({
        paymentNotDone: false,
        paymentPolling: false,
      });
    } finally {
      await plain.close();
    }
  });
});

describe('payments at the desk and cancelled requests', () => {
  it('records cash for the pending request, refuses a second request, and cancels back to the earlier state', async () => {
    const { center, viewer, row } = await sharedStudyWorld();
    const url = (action: string) => `/api/report-status/payment/${action}/${row.id}`;

    expect((await center.browser.post(url('cancel'))).statusCode).toBe(409);
    const noAmount = await center.browser.post(url('record'), { mode: 'CASH' });
    expect(noAmount.statusCode, noAmount.body).toBe(400);
    expect(noAmount.json<{ additionalInfo: string }>().additionalInfo).toBe('amount');

    expect((await center.browser.post(url('request'), { amount: 500 })).statusCode).toBe(200);
    const again = await center.browser.post(url('request'), { amount: 600 });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json<{ errorDescription: string }>().errorDescription).toBe(
      'A payment is already pending for this study',
    );
    const wrongAmount = await center.browser.post(url('record'), { mode: 'CASH', amount: 499 });
    expect(wrongAmount.statusCode, wrongAmount.body).toBe(400);

    const cash = await center.browser.post(url('record'), { mode: 'CASH', transactionId: 'RCPT-7' });
    expect(cash.statusCode, cash.body).toBe(200);
    expect(cash.json<TStudyPayments>()).toMatchObject({
      paymentStatus: 'PAID',
      paymentMode: 'CASH',
      payments: [
        {
          status: 'PAID',
          mode: 'CASH',
          amountMinor: 50000,
          transactionId: 'RCPT-7',
          paidRecordedBy: center.user.email,
        },
      ],
    });
    expect(await shareInfo(viewer.browser)).toEqual({ paymentNotDone: false, paymentPolling: false });

    // A second charge, withdrawn: the study is PAID (cash) again, not NOT_REQUIRED.
    expect((await center.browser.post(url('request'), { amount: 100, currency: 'INR' })).statusCode).toBe(
      200,
    );
    expect(await shareInfo(viewer.browser)).toEqual({ paymentNotDone: true, paymentPolling: true });
    const cancelled = await center.browser.post(url('cancel'));
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<TStudyPayments>()).toMatchObject({ paymentStatus: 'PAID', paymentMode: 'CASH' });
    expect(cancelled.json<TStudyPayments>().payments.map((p) => p.status)).toEqual(['CANCELLED', 'PAID']);
    expect(await shareInfo(viewer.browser)).toEqual({ paymentNotDone: false, paymentPolling: false });

    // A payment taken at the desk with no request at all.
    const upi = await center.browser.post(url('record'), { mode: 'UPI', amount: 250.25 });
    expect(upi.json<TStudyPayments>()).toMatchObject({ paymentStatus: 'PAID', paymentMode: 'UPI' });

    expect((await eventsOf(row.id)).map((e) => e.eventType).filter((e) => e.startsWith('PAYMENT_'))).toEqual([
      'PAYMENT_REQUESTED',
      'PAYMENT_RECORDED',
      'PAYMENT_REQUESTED',
      'PAYMENT_CANCELLED',
      'PAYMENT_RECORDED',
    ]);
  });

  it('records a payment the provider confirms after staff cancelled the request (the money was taken)', async () => {
    const { center, viewer, row } = await sharedStudyWorld();
    const res = await center.browser.post(`/api/report-status/payment/request/${row.id}`, { amount: 10 });
    const payUrl = res.json<TStudyPayments>().payments[0]?.payUrl ?? '';
    expect((await center.browser.post(`/api/report-status/payment/cancel/${row.id}`)).statusCode).toBe(200);
    expect(await shareInfo(viewer.browser)).toEqual({ paymentNotDone: false, paymentPolling: false });
    // Paid at the provider after all: the money was taken, so the payment is recorded.
    expect((await confirm(paramsOf(payUrl))).json<TPaymentConfirmResponse>()).toEqual({
      paymentStatus: 'PAID',
    });
    const [after] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, row.id));
    expect(after).toMatchObject({ paymentStatus: 'PAID', paymentMode: 'ONLINE' });
  });
});

describe('refusals', () => {
  it('refuses roles that do not handle money, other centers and groups, deleted studies and bad input', async () => {
    const { world, row } = await sharedStudyWorld();
    const request = (browser: TestClient, id = row.id, body: unknown = { amount: 100 }) =>
      browser.post(`/api/report-status/payment/request/${id}`, body);

    for (const roles of [['ROLE_DOCTOR'], ['ROLE_ASSIGNOR'], ['ROLE_VIEWER'], ['ROLE_TYPIST']] as const) {
      const { browser } = await signedInAt(t, world, [...roles]);
      expect((await request(browser)).statusCode, roles[0]).toBe(403);
    }
    const backup = await signedInAt(t, world, ['ROLE_CENTER_BACKUP']);
    expect((await request(backup.browser)).statusCode).toBe(403);

    const elsewhere = await createTestWorld(t.db);
    const otherAdmin = await signedInAt(t, elsewhere, ['ROLE_ADMIN']);
    expect((await request(otherAdmin.browser)).statusCode).toBe(404);
    const otherCenter = await signedInAt(t, elsewhere, ['ROLE_CENTER']);
    expect((await request(otherCenter.browser)).statusCode).toBe(404);

    const biller = await signedInAt(t, world, ['ROLE_BILLER']);
    expect((await request(biller.browser, 999_999_999)).statusCode).toBe(404);
    for (const body of [
      { amount: 0 },
      { amount: -5 },
      { amount: 'ten' },
      { amount: 1.234 },
      {},
      { amount: 5, currency: 'XYZ' },
    ]) {
      const res = await request(biller.browser, row.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const badMode = await biller.browser.post(`/api/report-status/payment/record/${row.id}`, {
      mode: 'ONLINE',
      amount: 5,
    });
    expect(badMode.statusCode, badMode.body).toBe(400);

    const { row: deleted } = await createTestStudy(t.db, {
      groupId: world.group.id,
      centerId: world.center.id,
      row: { status: 'DELETED' },
    });
    expect((await request(biller.browser, deleted.id)).statusCode).toBe(403);

    expect((await request(new TestClient(t.app))).statusCode).toBe(401);
    expect((await new TestClient(t.app).get('/api/customer-report/share-info')).statusCode).toBe(401);
    // Nothing above changed the study.
    const [after] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, row.id));
    expect(after?.paymentStatus).toBe('NOT_REQUIRED');
  });
});

describe('the API document', () => {
  it('describes the payment calls', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const paths = Object.keys(res.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/report-status/payments/{id}',
        '/api/report-status/payment/request/{id}',
        '/api/report-status/payment/record/{id}',
        '/api/report-status/payment/cancel/{id}',
        '/api/customer-report/payment-confirm',
      ]),
    );
  });
});
