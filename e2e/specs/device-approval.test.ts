import { afterAll, beforeAll, describe, it } from 'vitest';
import { MESSAGES } from '@radflow/core';
import { openBrowser, type TBrowserSession } from '../support/browser.js';
import { LoginPage, Shell } from '../support/pages.js';

async function setLoginAudit(session: TBrowserSession, on: boolean): Promise<void> {
  const res = await session.page.request.post('/api/setting/update-group/ADMIN_PREFERENCES', {
    data: { enableLoginAuditLogs: on },
    headers: { 'X-Device-Id': 'e2e-admin-api', 'X-Device-Name': 'e2e' },
  });
  if (!res.ok()) throw new Error(`could not switch login audit: ${res.status()} ${await res.text()}`);
}

describe('sign-in from an unapproved device', () => {
  let admin: TBrowserSession;
  let doctor: TBrowserSession;
  beforeAll(async () => {
    admin = await openBrowser();
    doctor = await openBrowser();
    const login = new LoginPage(admin.page);
    await login.open();
    await login.signIn('group@demo.local', 'demo12345');
    await new Shell(admin.page).waitUntilSignedIn();
    await setLoginAudit(admin, true);
  });
  afterAll(async () => {
    await setLoginAudit(admin, false);
    await admin.close();
    await doctor.close();
  });

  it('is held for approval, approved by the group admin, then signs in', async () => {
    const doctorLogin = new LoginPage(doctor.page);
    await doctorLogin.open();
    await doctorLogin.signIn('radiologist-is-not-a-user@demo.local', 'demo12345');
    await doctor.page.getByRole('alert').filter({ hasText: 'Invalid credentials' }).first().waitFor();

    await doctorLogin.signIn('doctor@demo.local', 'demo12345');
    await doctor.page.getByText(MESSAGES.loginNeedsApproval).first().waitFor();

    const { page } = admin;
    await page.goto('/audit-logins');
    const row = page.getByRole('row').filter({ hasText: 'doctor@demo.local' }).first();
    await row.getByText('PENDING').waitFor();
    await row.getByRole('switch').or(row.getByRole('checkbox')).first().click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await row.getByText('APPROVED').waitFor();

    await doctor.page.goto('/login-page');
    await doctorLogin.signIn('doctor@demo.local', 'demo12345');
    const shell = new Shell(doctor.page);
    await shell.waitUntilSignedIn();
    await shell.expectPath('/');
  });
});
