import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { CUSTOMER_PAGE_MESSAGES, MESSAGES, ROLES, type TCustomerReports, type TRole } from '@radflow/core';
import { reportStatuses } from '../../db/schema.js';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestUser,
  readOtpFromOutbox,
  uniqueMobile,
} from '../../../test/test-app.js';
import { createTestStudy, createTestWorld, signedIn, signedInAt } from '../../../test/worklist-test-data.js';

/*
 * Issue 26 §4: the patient (ROLE_CUSTOMER) signs in with a one-time code and sees their signed-off
 * reports — only theirs (the customer grant of the one visible-row rule), downloads the PDF, and
 * pays where a payment is due (the study's open request; the PDF is 402 until it is paid, per study).
 */

let t: TestApp;
type TWorld = Awaited<ReturnType<typeof createTestWorld>>;
let home: TWorld;
let other: TWorld;
let doctor: { browser: TestClient; id: number };
let center: TestClient;

beforeAll(async () => {
  t = await createTestApp({ publicUrl: 'https://radflow.example', paymentTestGateway: true });
  home = await createTestWorld(t.db);
  other = await createTestWorld(t.db);
  const d = await signedIn(t, { roles: ['ROLE_DOCTOR'], groupId: home.group.id });
  doctor = { browser: d.browser, id: d.user.id };
  center = (await signedInAt(t, home, ['ROLE_CENTER'])).browser;
});
afterAll(() => t.close());

async function ok(res: Promise<{ statusCode: number; body: string }>, what: string) {
  const answer = await res;
  expect(answer.statusCode, `${what}: ${answer.body.slice(0, 300)}`).toBe(200);
  return answer;
}

/** A study of `place` for the patient on `mobile`, signed off by a doctor of that group unless told. */
async function patientStudy(
  place: TWorld,
  opts: { mobile: string | null; sharedNumbers?: string[]; signOff?: boolean; reader?: typeof doctor },
) {
  const reader = opts.reader ?? doctor;
  const { row, study } = await createTestStudy(t.db, {
    groupId: place.group.id,
    centerId: place.center.id,
    patientName: 'DOE^JANE',
    modalities: ['CT'],
    studyDate: '20260310',
    row: {
      studyName: 'CT CHEST',
      assignedToUserId: reader.id,
      mobileNumber: opts.mobile,
      sharedNumbers: opts.sharedNumbers ?? [],
    },
  });
  if (opts.signOff !== false) {
    await ok(reader.browser.post(`/api/report/lock/${row.id}`, {}), 'lock');
    await ok(
      reader.browser.post(`/api/report/save/${row.id}`, {
        name: 'CT Chest',
        content: '<p>Clear lungs.</p>',
        signOff: true,
        baseVersion: null,
      }),
      'sign-off',
    );
  }
  return { id: row.id, uid: study.studyInstanceUid };
}

/** A customer account of `place` with `mobile`, signed in by the one-time code (the real flow). */
async function customerByOtp(place: TWorld, mobile: string, roles: TRole[] = ['ROLE_CUSTOMER']) {
  await createTestUser(t.db, { roles, groupId: place.group.id, mobileNumber: mobile });
  const browser = new TestClient(t.app);
  await ok(browser.post('/api/user/generate-otp', { mobile }), 'generate-otp');
  const code = await readOtpFromOutbox(t.db, mobile);
  await ok(browser.post('/api/do-login', { email: mobile, password: code }), 'do-login');
  return browser;
}

async function reportsOf(browser: TestClient) {
  const res = await ok(browser.get('/api/customer-report/reports'), 'reports');
  return JSON.parse(res.body) as TCustomerReports;
}

const pdfOf = (browser: TestClient, s: { id: number; uid: string }) =>
  browser.post('/api/pdf/download', { uid: s.uid, reportStatusId: s.id });

describe('the patient sees their own signed-off reports only', () => {
  it('lists theirs (own mobile or shared with it), never another patient of the same name, another group or an unsigned one', async () => {
    const mobile = uniqueMobile();
    const otherMobile = uniqueMobile();
    const mine = await patientStudy(home, { mobile });
    const sharedWithMe = await patientStudy(home, { mobile: otherMobile, sharedNumbers: [mobile] });
    const sameNameOtherPatient = await patientStudy(home, { mobile: otherMobile });
    const notSignedOff = await patientStudy(home, { mobile, signOff: false });
    const otherDoctor = await signedIn(t, { roles: ['ROLE_DOCTOR'], groupId: other.group.id });
    const otherGroup = await patientStudy(other, {
      mobile,
      reader: { browser: otherDoctor.browser, id: otherDoctor.user.id },
    });

    const patient = await customerByOtp(home, mobile);
    const { reports } = await reportsOf(patient);
    expect(reports.map((r) => r.reportStatusId).sort()).toEqual([mine.id, sharedWithMe.id].sort());
    const row = reports.find((r) => r.reportStatusId === mine.id);
    expect(row).toMatchObject({
      studyInstanceUid: mine.uid,
      patientName: 'JANE DOE',
      studyName: 'CT CHEST',
      modality: 'CT',
      studyDate: '2026-03-10',
      center: expect.any(String),
      signedOffAt: expect.any(String),
      payment: { status: 'NOT_REQUIRED', amount: null, payUrl: null },
      canDownload: true,
    });

    // Another patient's study, with the same name or in another group, is 404 like a missing one.
    for (const s of [sameNameOtherPatient, otherGroup]) {
      expect((await pdfOf(patient, s)).statusCode).toBe(404);
      expect((await patient.get(`/api/report-status/id/${s.id}`)).statusCode).toBe(404);
    }
    expect(reports.some((r) => r.reportStatusId === notSignedOff.id)).toBe(false);

    // A mobile number is one account (users_mobile_number_key), in one group: the other group's
    // study with the same number stays invisible (above).
  });

  it('an account that is also center staff lists only what it holds as the patient', async () => {
    const mobile = uniqueMobile();
    const mine = await patientStudy(home, { mobile });
    await patientStudy(home, { mobile: uniqueMobile() });
    const { browser } = await signedInAt(t, home, ['ROLE_CUSTOMER', 'ROLE_CENTER'], { mobileNumber: mobile });
    expect((await reportsOf(browser)).reports.map((r) => r.reportStatusId)).toEqual([mine.id]);
  });

  it('a study whose mobile changed is no longer visible to the old number', async () => {
    const mobile = uniqueMobile();
    const s = await patientStudy(home, { mobile });
    const patient = await customerByOtp(home, mobile);
    expect((await reportsOf(patient)).reports.map((r) => r.reportStatusId)).toEqual([s.id]);

    await t.db
      .update(reportStatuses)
      .set({ mobileNumber: uniqueMobile() })
      .where(eq(reportStatuses.id, s.id));
    expect((await reportsOf(patient)).reports).toEqual([]);
    expect((await pdfOf(patient, s)).statusCode).toBe(404);
  });

  it('downloads the signed report as a PDF', async () => {
    const mobile = uniqueMobile();
    const s = await patientStudy(home, { mobile });
    const patient = await customerByOtp(home, mobile);
    const res = await pdfOf(patient, s);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('is refused to every other role (403), staff included', async () => {
    for (const role of ROLES.filter((r) => r !== 'ROLE_CUSTOMER')) {
      const { browser } = await signedInAt(t, home, [role], { mobileNumber: uniqueMobile() });
      expect((await browser.get('/api/customer-report/reports')).statusCode, role).toBe(403);
    }
    expect((await new TestClient(t.app).get('/api/customer-report/reports')).statusCode).toBe(401);
  });
});

describe('a payment due on one study', () => {
  it('shows the due with its pay link, holds that report (402) until paid, and leaves the others open', async () => {
    const mobile = uniqueMobile();
    const owed = await patientStudy(home, { mobile });
    const free = await patientStudy(home, { mobile });
    const patient = await customerByOtp(home, mobile);

    await ok(
      center.post(`/api/report-status/payment/request/${owed.id}`, { amount: 750.5, note: 'CT chest' }),
      'request',
    );
    const { reports } = await reportsOf(patient);
    const due = reports.find((r) => r.reportStatusId === owed.id);
    expect(due).toMatchObject({
      payment: { status: 'PENDING', amount: 750.5, currency: 'INR', note: 'CT chest' },
      canDownload: false,
    });
    expect(due?.payment.payUrl === null || typeof due?.payment.payUrl === 'string').toBe(true);
    expect(reports.find((r) => r.reportStatusId === free.id)?.canDownload).toBe(true);

    const held = await pdfOf(patient, owed);
    expect(held.statusCode).toBe(402);
    expect(held.json()).toMatchObject({ errorDescription: MESSAGES.paymentNeeded });
    expect((await pdfOf(patient, free)).statusCode).toBe(200);
    // Nor is the report's text readable another way: the report call is 402, the study row comes
    // without its report; the other study's report reads as usual.
    expect((await patient.get(`/api/report/${owed.id}`)).statusCode).toBe(402);
    const detail = await ok(patient.get(`/api/report-status/id/${owed.id}`), 'detail');
    expect(JSON.parse(detail.body)).toMatchObject({ reports: [] });
    expect((await patient.get(`/api/report/${free.id}`)).statusCode).toBe(200);
    // Staff are not held by the patient's due.
    expect((await pdfOf(center, owed)).statusCode).toBe(200);

    await ok(
      center.post(`/api/report-status/payment/record/${owed.id}`, { mode: 'UPI', transactionId: 'U-1' }),
      'record',
    );
    const after = (await reportsOf(patient)).reports.find((r) => r.reportStatusId === owed.id);
    expect(after).toMatchObject({
      payment: { status: 'PAID', amount: null, payUrl: null },
      canDownload: true,
    });
    expect((await pdfOf(patient, owed)).statusCode).toBe(200);
    const paidDetail = await ok(patient.get(`/api/report-status/id/${owed.id}`), 'detail');
    expect(JSON.parse(paidDetail.body).reports).toHaveLength(1);
  });

  it("holds that study's images too (402 on the viewer's and DICOMweb calls) until paid; staff and the other study stay open", async () => {
    const mobile = uniqueMobile();
    const owed = await patientStudy(home, { mobile });
    const free = await patientStudy(home, { mobile });
    const patient = await customerByOtp(home, mobile);
    await ok(center.post(`/api/report-status/payment/request/${owed.id}`, { amount: 200 }), 'request');

    // Every way to the pixels, by the study row or by the Study Instance UID.
    const imageCalls = (s: { id: number; uid: string }) => [
      `/api/viewer/${s.id}/context`,
      `/api/viewer/studies/${s.uid}/first-image`,
      `/api/dicomweb/studies/${s.uid}/series`,
      `/api/dicomweb/studies/${s.uid}/metadata`,
      `/api/dicomweb/studies/${s.uid}/thumbnail`,
      `/api/dicomweb/wado?requestType=WADO&studyUID=${s.uid}&seriesUID=1.2.3&objectUID=1.2.3.4`,
    ];
    for (const path of imageCalls(owed)) {
      const res = await patient.get(path);
      expect(res.statusCode, `${path}: ${res.body.slice(0, 200)}`).toBe(402);
      expect(res.json(), path).toMatchObject({ errorDescription: MESSAGES.paymentNeeded });
    }
    // The other study, and the staff on this one, answer as they always did.
    const statusesOf = async (browser: TestClient, s: { id: number; uid: string }) =>
      Promise.all(imageCalls(s).map(async (path) => (await browser.get(path)).statusCode));
    const freeAnswers = await statusesOf(patient, free);
    expect(freeAnswers).not.toContain(402);
    expect(await statusesOf(center, owed)).toEqual(await statusesOf(center, free));
    expect((await patient.get(`/api/viewer/${free.id}/context`)).statusCode).toBe(200);

    await ok(
      center.post(`/api/report-status/payment/record/${owed.id}`, { mode: 'CASH', transactionId: 'C-9' }),
      'record',
    );
    expect(await statusesOf(patient, owed)).toEqual(freeAnswers);
  });

  it('pays through the open request’s provider link (the test gateway) and then downloads', async () => {
    const mobile = uniqueMobile();
    const owed = await patientStudy(home, { mobile });
    await ok(center.post(`/api/report-status/payment/request/${owed.id}`, { amount: 100 }), 'request');
    const patient = await customerByOtp(home, mobile);
    const payUrl = (await reportsOf(patient)).reports[0]?.payment.payUrl;
    expect(payUrl).toContain('payment-id=');
    // The provider returns the payer to the login page, which posts the query to payment-confirm.
    const query = Object.fromEntries(new URL(payUrl ?? '').searchParams);
    const confirmed = await ok(
      patient.post('/api/customer-report/payment-confirm', { ...query, password: '', mobile: '' }),
      'confirm',
    );
    expect(JSON.parse(confirmed.body)).toEqual({ paymentStatus: 'PAID' });
    expect((await reportsOf(patient)).reports[0]?.canDownload).toBe(true);
    expect((await pdfOf(patient, owed)).statusCode).toBe(200);
  });
});

it('keeps its messages word for word', () => {
  expect(CUSTOMER_PAGE_MESSAGES.noReports).toBe('No reports yet');
});
