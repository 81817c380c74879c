import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, type TBrowserSession } from '../support/browser.js';
import { waitForOtp } from '../support/outbox.js';
import { LoginPage, Shell } from '../support/pages.js';
import { uniqueTag } from '../support/worklist.js';

/**
 * Issue 26 §4 /signup: a new group signs itself up with a code on its mobile (read from the outbox,
 * as the OTP sign-in story does) and lands signed in as its admin, on its empty study list with the
 * getting-started checklist.
 */

const tag = uniqueTag();
const MOBILE = `9${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
const EMAIL = `owner.${tag.toLowerCase()}@sunrise.example`;

describe('a new group signs up (issue 26 §4)', () => {
  let session: TBrowserSession;
  beforeAll(async () => {
    session = await openBrowser();
  });
  afterAll(() => session?.close());

  it('signs up with the code sent to its mobile and lands as its admin', async () => {
    const { page } = session;
    await new LoginPage(page).open();
    await page.getByRole('link', { name: 'Create an account for your center/group' }).click();
    const shell = new Shell(page);
    await shell.expectPath('/signup');

    // The login page stays on screen while the sign-up chunk loads, and it too has a 'Mobile number
    // or e-mail' field and a 'Request OTP' button: wait for the sign-up page itself (a CI flake
    // filled and pressed the login page's under load).
    await page.getByRole('heading', { name: 'Create an account for your center/group' }).waitFor();
    await page.getByLabel('Mobile number', { exact: true }).fill(MOBILE);
    await page.getByRole('button', { name: 'Request OTP' }).click();
    await page.getByLabel('One-time code').waitFor();
    await page.getByLabel('One-time code').fill(await waitForOtp(MOBILE));
    await page.getByLabel('Center or group name').fill(`Sunrise Imaging ${tag}`);
    await page.getByLabel('Your name').fill('Asha Verma');
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill('violet kestrel 42');
    await page.getByRole('button', { name: 'Create account' }).click();

    await shell.waitUntilSignedIn();
    await shell.expectPath('/');
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
    await expect(shell.menuLink('Manage users').isVisible()).resolves.toBe(true);
    const me = await page.request.get('/api/user/');
    expect(await me.json()).toMatchObject({ email: EMAIL, roles: ['ROLE_GROUP', 'ROLE_ADMIN'] });
  });
});
