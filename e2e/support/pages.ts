import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** The login page (spec-core §2 Login page). */
export class LoginPage {
  constructor(private readonly page: Page) {}

  async open(user?: string): Promise<void> {
    await this.page.goto(user ? `/login-page/${encodeURIComponent(user)}` : '/login-page');
    await this.identifier.waitFor();
  }

  get identifier() {
    return this.page.getByLabel('Mobile number or e-mail');
  }

  get password() {
    return this.page.getByLabel('Password', { exact: true });
  }

  get otp() {
    return this.page.getByLabel('One-time code');
  }

  async signIn(email: string, password: string): Promise<void> {
    await this.identifier.fill(email);
    await this.password.fill(password);
    await this.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  async requestOtp(mobile: string): Promise<void> {
    await this.identifier.fill(mobile);
    await this.page.getByRole('button', { name: 'Request OTP' }).click();
  }

  async submitOtp(code: string): Promise<void> {
    await this.otp.fill(code);
    await this.page.getByRole('button', { name: 'Sign In', exact: true }).click();
  }
}

/** The signed-in shell: drawer, account menu, snackbars. */
export class Shell {
  constructor(private readonly page: Page) {}

  get menu() {
    return this.page.getByRole('navigation', { name: 'Main menu' });
  }

  menuLink(label: string) {
    return this.menu.getByRole('link', { name: label, exact: true });
  }

  async waitUntilSignedIn(): Promise<void> {
    await this.page.getByRole('button', { name: 'Account' }).waitFor();
  }

  async openAccountMenu(): Promise<void> {
    await this.page.getByRole('button', { name: 'Account' }).click();
  }

  async logout(): Promise<void> {
    await this.openAccountMenu();
    await this.page.getByRole('menuitem', { name: 'Logout' }).click();
    await this.page.getByLabel('Mobile number or e-mail').waitFor();
  }

  async expectAlert(text: string): Promise<void> {
    await this.page.getByText(text, { exact: false }).first().waitFor();
  }

  async expectPath(path: string): Promise<void> {
    await this.page.waitForURL((url) => url.pathname === path);
    expect(new URL(this.page.url()).pathname).toBe(path);
  }
}
