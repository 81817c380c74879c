import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

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

/** The Create Study dialog opened from the drawer (spec-core §2, §5; issue 3 §3). */
export class CreateStudyDialog {
  readonly root: Locator;
  constructor(private readonly page: Page) {
    this.root = page.getByRole('dialog', { name: 'Create Study' });
  }

  async open(shell: Shell): Promise<void> {
    await shell.menu.getByRole('button', { name: 'Create Study' }).click();
    await this.root.waitFor();
  }

  field(label: string) {
    return this.root.getByLabel(new RegExp(`^${label}`));
  }

  select(label: string) {
    return this.root.getByRole('combobox', { name: new RegExp(`^${label}`) });
  }

  async choose(label: string, option: string): Promise<void> {
    await this.select(label).click();
    await this.page.getByRole('option', { name: option, exact: true }).click();
  }

  async pickFiles(paths: string[]): Promise<void> {
    await this.root.getByLabel('Files', { exact: true }).setInputFiles(paths);
  }

  async submit(): Promise<void> {
    await this.root.getByRole('button', { name: 'Submit' }).click();
  }
}

/**
 * Polls what the user sees until it matches, for as long as a locator would wait (vitest's own
 * default is 1 s, shorter than the list's 800 ms filter debounce plus the call).
 */
export function eventually<T>(read: () => T | Promise<T>, message?: string) {
  return expect.poll(read, { timeout: 15_000, interval: 100, message });
}

/** Study table rows carry `data-testid="study-row-{id}"` (apps/web/src/features/worklist/StudyTable.tsx). */
const ROW_SELECTOR = 'tbody [data-testid^="study-row-"]';

/** The two list calls of spec-core §7 (POST /dicom-web/studies/ and POST /report-status/). */
function isStudyListCall(method: string, url: string): boolean {
  const path = new URL(url).pathname;
  return method === 'POST' && (path === '/api/dicom-web/studies/' || path === '/api/report-status/');
}

/**
 * A study list screen (spec-core §2 Study list screens, Generic study table behaviour): its tabs,
 * rows, filter boxes under sortable headers, page size and column settings.
 */
export class StudyList {
  constructor(private readonly page: Page) {}

  /** Opens a list route and waits until its table has answered (rows or the empty state). */
  async open(path: '/' | '/status'): Promise<void> {
    await this.page.goto(path);
    await this.waitUntilLoaded();
  }

  async waitUntilLoaded(): Promise<void> {
    await this.page.getByRole('button', { name: 'Column settings' }).waitFor();
    await this.page.locator(`${ROW_SELECTOR}, tbody :text("No result found")`).first().waitFor();
  }

  get tabs() {
    return this.page.getByRole('tablist', { name: 'Study list tabs' });
  }

  tab(name: string) {
    return this.tabs.getByRole('tab', { name, exact: true });
  }

  async selectTab(name: string): Promise<void> {
    await this.tab(name).click();
    await eventually(() => this.tab(name).getAttribute('aria-selected')).toBe('true');
  }

  get rows() {
    return this.page.locator(ROW_SELECTOR);
  }

  /** A row by its study id, or by text in it (a unique patient name). */
  row(idOrText: number | string) {
    return typeof idOrText === 'number'
      ? this.page.getByTestId(`study-row-${idOrText}`)
      : this.rows.filter({ hasText: idOrText });
  }

  /** The study id of a row found by its text. */
  async idOf(text: string): Promise<number> {
    const testId = await this.row(text).getAttribute('data-testid');
    const id = Number(testId?.replace('study-row-', ''));
    expect(Number.isInteger(id) && id > 0).toBe(true);
    return id;
  }

  /** The text of one cell of a row, found by the column's header label. */
  async cellText(row: Locator, column: string): Promise<string> {
    const index = await this.columnIndex(column);
    return (await row.locator('td').nth(index).innerText()).trim();
  }

  /** The header labels of the visible columns, in order. */
  async columnLabels(): Promise<string[]> {
    const headers = this.page.locator('thead tr').first().locator('th');
    return (await headers.allInnerTexts()).map((t) => t.trim());
  }

  async columnIndex(column: string): Promise<number> {
    const index = (await this.columnLabels()).indexOf(column);
    expect(index, `column ${column}`).toBeGreaterThanOrEqual(0);
    return index;
  }

  header(column: string) {
    return this.page
      .locator('thead tr')
      .first()
      .locator('th')
      .filter({ hasText: new RegExp(`^${column}$`) });
  }

  /** The filter box under a column (aria-label 'Filter {column}'). */
  filter(column: string) {
    return this.page.getByLabel(`Filter ${column}`, { exact: true });
  }

  /**
   * Types into a column's filter box and waits until the list call carrying the text has answered
   * (the box is debounced 800 ms, spec-core §9) and the table shows only rows containing it. Waiting
   * for the call matters: a debounced filter that lands after a later page click resets the page.
   */
  async filterBy(column: string, text: string, expectedRows?: number): Promise<void> {
    const box = this.filter(column);
    if ((await box.inputValue()) !== text) {
      const applied = this.page.waitForResponse(
        (res) =>
          isStudyListCall(res.request().method(), res.url()) &&
          (res.request().postData() ?? '').includes(JSON.stringify(text)),
      );
      await box.fill(text);
      await applied;
    }
    await eventually(async () => {
      const all = await this.rows.allInnerTexts();
      const matching = all.filter((t) => t.includes(text)).length;
      return all.length > 0 && matching === all.length && (expectedRows ?? all.length) === all.length;
    }).toBe(true);
  }

  async clearFilters(): Promise<void> {
    const clear = this.page.getByRole('button', { name: 'Clear all filters' });
    if (await clear.isEnabled()) await clear.click();
  }

  /**
   * Clicks a column's sort button until the header shows the direction (a new column sorts
   * descending first, a second click flips it).
   */
  async sortBy(column: string, direction: 'ascending' | 'descending'): Promise<void> {
    const header = this.header(column);
    if ((await header.getAttribute('aria-sort')) !== 'descending') {
      await header.getByRole('button').click();
      await eventually(() => header.getAttribute('aria-sort')).toBe('descending');
    }
    if (direction === 'ascending') {
      await header.getByRole('button').click();
      await eventually(() => header.getAttribute('aria-sort')).toBe('ascending');
    }
  }

  /** MUI's 'Rows per page' select (page sizes 20 and 50, spec-core §9). */
  get pageSize() {
    return this.page.getByRole('combobox', { name: /Rows per page/ });
  }

  async setPageSize(size: 20 | 50): Promise<void> {
    await this.pageSize.click();
    await this.page.getByRole('option', { name: String(size), exact: true }).click();
    await eventually(() => this.pageSize.innerText()).toBe(String(size));
  }

  /** The column settings dialog. */
  get columnSettings() {
    return new ColumnSettingsDialog(this.page);
  }

  /** Turns on columns the table does not show by default (Column settings, saved for the user). */
  async showColumns(labels: string[]): Promise<void> {
    const dialog = this.columnSettings;
    await dialog.open();
    for (const label of labels) await dialog.visibility(label).check();
    await dialog.save();
    for (const label of labels) await this.header(label).waitFor();
  }

  /** Back to the table's default columns (Column settings → Reset, saved). */
  async resetColumns(): Promise<void> {
    const dialog = this.columnSettings;
    await dialog.open();
    await dialog.root.getByRole('button', { name: 'Reset' }).click();
    await dialog.save();
  }

  actions(row: Locator) {
    return new RowActions(this.page, row);
  }
}

/** The column settings dialog of a study table (reorder up/down, show/hide, Save). */
export class ColumnSettingsDialog {
  readonly root: Locator;
  constructor(private readonly page: Page) {
    this.root = page.getByRole('dialog', { name: 'Column settings' });
  }

  async open(): Promise<void> {
    await this.page.getByRole('button', { name: 'Column settings' }).click();
    await this.root.waitFor();
  }

  visibility(column: string) {
    return this.root.getByRole('checkbox', { name: column, exact: true });
  }

  async moveUp(column: string): Promise<void> {
    await this.root.getByRole('button', { name: `Move ${column} up`, exact: true }).click();
  }

  async save(): Promise<void> {
    await this.root.getByRole('button', { name: 'Save', exact: true }).click();
    await this.root.waitFor({ state: 'hidden' });
  }
}

/**
 * The actions of one study row: a few as buttons by aria-label, the rest in the 'More actions'
 * menu; state actions confirm first in the 'Please confirm' dialog.
 */
export class RowActions {
  constructor(
    private readonly page: Page,
    private readonly row: Locator,
  ) {}

  button(name: string) {
    return this.row.getByRole('button', { name, exact: true });
  }

  get more() {
    return this.row.getByRole('button', { name: 'More actions' });
  }

  /** Opens the overflow menu and returns its item (not clicked). */
  async menuItem(name: string): Promise<Locator> {
    await this.more.click();
    const item = this.page.getByRole('menuitem', { name, exact: true });
    await item.waitFor();
    return item;
  }

  async fromMenu(name: string): Promise<void> {
    await (await this.menuItem(name)).click();
  }

  /** Answers the 'Please confirm' dialog with Confirm and waits until it is gone. */
  async confirm(): Promise<void> {
    await confirmDialog(this.page);
  }
}

/**
 * Closes the open MUI menu with Escape and waits until it is gone. The menu's modal handles Escape
 * only from inside it, and the focus is not always there: a loaded machine gives it to the menu a
 * moment after the menu shows, and a page that mounts behind an open menu (the lab registration
 * page's search field has autoFocus) takes it away. Escape goes to the menu itself, focused first.
 */
export async function closeMenu(page: Page): Promise<void> {
  const menu = page.getByRole('menu');
  await menu.focus();
  await menu.press('Escape');
  await menu.waitFor({ state: 'hidden' });
}

/** Presses Confirm in the confirm dialog of spec-core §8 and waits until it closes. */
export async function confirmDialog(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Please confirm' });
  await dialog.getByRole('button', { name: 'Confirm', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}
