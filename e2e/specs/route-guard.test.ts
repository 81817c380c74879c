import { afterAll, beforeAll, describe, it } from 'vitest';
import { openBrowser, type TBrowserSession } from '../support/browser.js';
import { LoginPage, Shell } from '../support/pages.js';

describe('the route guard', () => {
  let session: TBrowserSession;
  beforeAll(async () => {
    session = await openBrowser();
  });
  afterAll(async () => {
    await session.close();
  });

  it('sends a visitor without a session to the login page', async () => {
    await session.page.goto('/status');
    await new Shell(session.page).expectPath('/login-page');
  });

  it('lets a visitor open a public page', async () => {
    await session.page.goto('/info-page?page=terms');
    await session.page.getByRole('heading', { name: /terms/i }).first().waitFor();
  });

  it('sends a doctor away from a screen outside their menu to their first screen', async () => {
    const { page } = session;
    const login = new LoginPage(page);
    const shell = new Shell(page);
    await login.open();
    await login.signIn('doctor@demo.local', 'demo12345');
    await shell.waitUntilSignedIn();
    await page.goto('/audit-logins');
    await shell.expectPath('/');
    await page.goto('/lab/registration');
    await shell.expectPath('/');
  });

  it("shows 'Not found' for an unknown path", async () => {
    await session.page.goto('/no-such-screen');
    await session.page.getByText('Not found', { exact: true }).waitFor();
  });
});
