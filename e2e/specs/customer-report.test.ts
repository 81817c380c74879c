import { afterAll, describe, expect, it } from 'vitest';
import { openBrowser, type TBrowserSession } from '../support/browser.js';
import { pdfText } from '../support/documents.js';
import { waitForOtp } from '../support/outbox.js';
import { LoginPage, Shell } from '../support/pages.js';
import { downloadOf } from '../support/reporting.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

const RUN = uniqueTag();
const PATIENT = `CUSTOMER${RUN}`;
const FINDING = `No acute finding ${RUN}`;
// Demo mobiles are 98765000NN with NN the role's position in ROLES: ROLE_CUSTOMER is 12th.
const CUSTOMER_MOBILE = '9876500012';

/**
 * Issue 26 §4 and §7: a patient signs in with a one-time code, sees their signed-off report and
 * downloads it. The study is the center's; the center customer puts the patient's mobile on it
 * (/manage-patient's call) and a doctor signs it off (the reporting calls, as the editor makes them).
 */
describe("The patient's own page", () => {
  const sessions: TBrowserSession[] = [];
  afterAll(async () => {
    for (const s of sessions) await s.close();
  });

  it('a patient signs in with OTP, sees their report and downloads the PDF', async () => {
    const center = await openSignedIn('center@demo.local', { home: false });
    sessions.push(center);
    const [id] = await createStudiesViaApi(center.page, [PATIENT]);
    const desk = await openSignedIn('center-customer@demo.local', { home: false });
    sessions.push(desk);
    const mobile = await desk.page.request.post(`/api/manage-patient/mobile/${id}`, {
      data: { mobileNumber: CUSTOMER_MOBILE, previousMobileNumber: null },
    });
    expect(mobile.status(), await mobile.text()).toBe(200);
    const doctor = await openSignedIn('doctor@demo.local', { home: false });
    sessions.push(doctor);
    expect((await doctor.page.request.post(`/api/report/lock/${id}`, { data: {} })).status()).toBe(200);
    const save = await doctor.page.request.post(`/api/report/save/${id}`, {
      data: { name: 'CT Brain', content: `<p>${FINDING}</p>`, signOff: true, baseVersion: null },
    });
    expect(save.status(), await save.text()).toBe(200);

    const patient = await openBrowser();
    sessions.push(patient);
    const { page } = patient;
    const login = new LoginPage(page);
    await login.open();
    await login.requestOtp(CUSTOMER_MOBILE);
    await login.otp.waitFor();
    await login.submitOtp(await waitForOtp(CUSTOMER_MOBILE));
    const shell = new Shell(page);
    await shell.waitUntilSignedIn();
    await shell.expectPath('/manage-customer-report');

    const card = page.getByRole('listitem').filter({ hasText: PATIENT });
    await card.waitFor();
    const file = await downloadOf(page, () => card.getByRole('button', { name: /^Download PDF/ }).click());
    expect(file.name).toMatch(/\.pdf$/);
    expect(await pdfText(file.bytes)).toContain(FINDING);
  });
});
