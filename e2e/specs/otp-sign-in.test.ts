import { afterAll, beforeAll, describe, it } from 'vitest';
import { MESSAGES } from '@radflow/core';
import { openBrowser, type TBrowserSession } from '../support/browser.js';
import { waitForOtp } from '../support/outbox.js';
import { LoginPage, Shell } from '../support/pages.js';

// Demo mobiles are 98765000NN with NN the role's position in ROLES: ROLE_CUSTOMER is 12th.
const CUSTOMER_MOBILE = '9876500012';

describe('sign-in by mobile OTP', () => {
  let session: TBrowserSession;
  beforeAll(async () => {
    session = await openBrowser();
  });
  afterAll(async () => {
    await session.close();
  });

  it('refuses OTP for an e-mail with the spec message', async () => {
    const login = new LoginPage(session.page);
    await login.open();
    await login.requestOtp('doctor@demo.local');
    await new Shell(session.page).expectAlert(MESSAGES.otpOnlyMobile);
  });

  it('hides the password for a mobile number, sends a code, and signs in with it', async () => {
    const { page } = session;
    const login = new LoginPage(page);
    await login.open();
    await login.identifier.fill(CUSTOMER_MOBILE);
    await login.password.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Request OTP' }).click();
    await login.otp.waitFor();
    const code = await waitForOtp(CUSTOMER_MOBILE);
    await login.submitOtp(code);
    const shell = new Shell(page);
    await shell.waitUntilSignedIn();
    await shell.expectPath('/manage-customer-report');
  });
});
