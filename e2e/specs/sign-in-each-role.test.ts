import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, defaultMenuContext, demoEmailForRole, firstAllowedPath, menuForUser } from '@radflow/core';
import { openBrowser, type TBrowserSession } from '../support/browser.js';
import { LoginPage, Shell, closeMenu } from '../support/pages.js';

// The demo group has every switch at its default, so each role sees its unconditional menu.
describe('every role signs in and sees its own menu', () => {
  let session: TBrowserSession;
  beforeAll(async () => {
    session = await openBrowser();
  });
  afterAll(async () => {
    await session.close();
  });

  for (const role of ROLES) {
    it(`${role}`, async () => {
      const { page, context } = session;
      await context.clearCookies();
      const login = new LoginPage(page);
      const shell = new Shell(page);
      await login.open();
      await login.signIn(demoEmailForRole(role), 'demo12345');
      await shell.waitUntilSignedIn();

      const ctx = defaultMenuContext([role]);
      await shell.expectPath(firstAllowedPath(ctx));

      const expected = menuForUser(ctx).filter((item) => item.path !== null);
      for (const item of expected) {
        await expect.poll(() => shell.menuLink(item.label).count()).toBeGreaterThan(0);
      }
      const shown = await shell.menu.getByRole('link').allInnerTexts();
      for (const label of ['Manage patient', 'Audit Logins', 'Admin Billing', 'Lab Test']) {
        if (!expected.some((item) => item.label === label)) expect(shown).not.toContain(label);
      }

      await shell.openAccountMenu();
      if (role === 'ROLE_VIEWER') {
        await page.getByRole('menuitem', { name: 'Stop viewing' }).waitFor();
        expect(await page.getByRole('menuitem', { name: 'Logout' }).count()).toBe(0);
      } else {
        await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
        await page.getByText(demoEmailForRole(role)).first().waitFor();
      }
      await closeMenu(page);
    });
  }
});
