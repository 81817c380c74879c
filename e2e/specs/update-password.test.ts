import { afterAll, beforeAll, describe, it } from 'vitest';
import { openBrowser, type TBrowserSession } from '../support/browser.js';
import { LoginPage, Shell } from '../support/pages.js';

// Uses the auditor account only for the password change and restores it at the end.
const EMAIL = 'auditor@demo.local';

describe('Update Password from the account menu', () => {
  let session: TBrowserSession;
  beforeAll(async () => {
    session = await openBrowser();
  });
  afterAll(async () => {
    await session.close();
  });

  async function changePassword(current: string, next: string) {
    const { page } = session;
    const shell = new Shell(page);
    await shell.openAccountMenu();
    await page.getByRole('menuitem', { name: 'Update Password' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Current password').fill(current);
    await dialog.getByLabel('New password').fill(next);
    await dialog.getByRole('button', { name: /update/i }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  it('refuses the wrong current password and keeps the old one', async () => {
    const { page } = session;
    const login = new LoginPage(page);
    const shell = new Shell(page);
    await login.open();
    await login.signIn(EMAIL, 'demo12345');
    await shell.waitUntilSignedIn();
    await shell.openAccountMenu();
    await page.getByRole('menuitem', { name: 'Update Password' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Current password').fill('not-my-password');
    await dialog.getByLabel('New password').fill('another-one');
    await dialog.getByRole('button', { name: /update/i }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /incorrect/i })
      .first()
      .waitFor();
    await dialog.getByRole('button', { name: /cancel/i }).click();
  });

  it('changes the password; the new one signs in, the old one does not', async () => {
    const { page } = session;
    const login = new LoginPage(page);
    const shell = new Shell(page);
    await changePassword('demo12345', 'fresh-pass-1');
    await shell.logout();

    await login.signIn(EMAIL, 'demo12345');
    await page.getByRole('alert').filter({ hasText: 'Invalid credentials' }).first().waitFor();

    await login.signIn(EMAIL, 'fresh-pass-1');
    await shell.waitUntilSignedIn();
    await changePassword('fresh-pass-1', 'demo12345');
  });
});
