import { SETTING_ENTRY_LABELS, SETTINGS_MESSAGES, type TSettingEntry } from '@radflow/core';
import type { Locator, Page } from 'playwright-core';
import { closeMenu } from './pages.js';

/** The spec's words for each entry (core SETTING_ENTRY_LABELS, which the web shows). */
export const ENTRY_LABELS = SETTING_ENTRY_LABELS;

/**
 * /setting-page, "Manage preference" (spec-lab §2, §6): the role's entries as cards, each opening its
 * dialog (`data-testid="setting-dialog-{ENTRY}"`); group admins also get a 'Group settings' tab.
 */
export class SettingsScreen {
  /**
   * `via: 'gear'` for roles whose menu has no 'Manage preference' (the route guard sends them home
   * from /setting-page): their dialogs open from the top bar's gear, the spec's own way in (spec-lab §2).
   */
  constructor(
    private readonly page: Page,
    readonly via: 'page' | 'gear' = 'page',
  ) {}

  async open(): Promise<void> {
    await this.page.goto(this.via === 'page' ? '/setting-page' : '/');
    await this.waitUntilShown();
  }

  async reload(): Promise<void> {
    await this.page.reload();
    await this.waitUntilShown();
  }

  private async waitUntilShown(): Promise<void> {
    if (this.via === 'page') {
      await this.page.getByRole('heading', { level: 1, name: 'Manage preference' }).waitFor();
    } else {
      await this.gear.waitFor();
    }
  }

  get entries() {
    return this.page.getByRole('list', { name: 'Settings entries' });
  }

  /** The entry labels in the order the page shows them. */
  async entryLabels(): Promise<string[]> {
    await this.entries.waitFor();
    return (await this.entries.getByRole('listitem').allInnerTexts()).map((t) => t.trim());
  }

  dialog(entry: TSettingEntry): Locator {
    return this.page.getByTestId(`setting-dialog-${entry}`);
  }

  /** Opens an entry's dialog from its card and waits for its content to load. */
  async openEntry(entry: TSettingEntry): Promise<Locator> {
    if (this.via === 'page') {
      await this.entries.getByRole('button', { name: ENTRY_LABELS[entry], exact: true }).click();
    } else {
      await this.gear.click();
      await this.page.getByRole('menuitem', { name: ENTRY_LABELS[entry], exact: true }).click();
    }
    const dialog = this.dialog(entry);
    await dialog.waitFor();
    // Dialogs that read their values first show a spinner labelled 'Loading' until then.
    await dialog.getByLabel('Loading').waitFor({ state: 'detached' });
    return dialog;
  }

  async save(dialog: Locator): Promise<void> {
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  }

  /** Saves and waits for the toast of spec-lab §8 and the dialog to close. */
  async saveAndExpectUpdated(dialog: Locator): Promise<void> {
    await this.save(dialog);
    await this.expectUpdated();
    await dialog.waitFor({ state: 'hidden' });
  }

  async expectUpdated(): Promise<void> {
    await this.page.getByRole('status').filter({ hasText: SETTINGS_MESSAGES.updated }).first().waitFor();
  }

  /** Waits until `text` shows inside the dialog (a field's helper text or the dialog's alert). */
  async expectProblem(dialog: Locator, text: string): Promise<void> {
    await dialog.getByText(text, { exact: true }).first().waitFor();
  }

  async close(dialog: Locator, label: 'Cancel' | 'Close' = 'Cancel'): Promise<void> {
    await dialog.getByRole('button', { name: label, exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  /** The top bar's gear (no entries, no gear). */
  get gear() {
    return this.page.getByRole('banner').getByRole('button', { name: 'Settings', exact: true });
  }

  /** The gear menu's entries, in order. */
  async gearMenuLabels(): Promise<string[]> {
    await this.gear.click();
    const menu = this.page.getByRole('menu');
    await menu.waitFor();
    const labels = (await menu.getByRole('menuitem').allInnerTexts()).map((t) => t.trim());
    await closeMenu(this.page);
    return labels;
  }

  /** A MUI select inside `root`: opens it and picks the option. */
  async choose(root: Locator, label: string, option: string): Promise<void> {
    await root.getByRole('combobox', { name: label }).click();
    await this.page.getByRole('option', { name: option, exact: true }).click();
    await this.page.getByRole('listbox').waitFor({ state: 'hidden' });
  }
}

/** A form field by its label, with or without the required asterisk MUI adds to it. */
export function field(root: Locator, label: string): Locator {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return root.getByLabel(new RegExp(`^${escaped}(\\s*\\*)?$`));
}

/** The 'Group settings' tab of /setting-page (apps/web/src/features/settings/group). */
export class GroupSettingsTab {
  constructor(private readonly page: Page) {}

  get panel() {
    return this.page.getByTestId('group-settings-panel');
  }

  async open(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Group settings' }).click();
    await this.panel.waitFor();
  }

  async filter(text: string): Promise<void> {
    await this.panel.getByRole('searchbox', { name: 'Filter settings' }).fill(text);
  }

  switchOf(label: string): Locator {
    return this.panel.getByRole('switch', { name: label, exact: true });
  }

  get recentChanges(): Locator {
    return this.panel.getByRole('table', { name: 'Recent changes' });
  }

  /** The newest change row of `section.field`, once it shows. */
  async changeRow(sectionField: string, change: string): Promise<Locator> {
    const row = this.recentChanges
      .getByRole('row')
      .filter({ hasText: sectionField })
      .filter({ hasText: change })
      .first();
    await row.waitFor();
    return row;
  }
}

/** A unique upper-case word of letters only (departments and tags allow no digits-only or spaces). */
export function uniqueWord(prefix: string): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let n = Date.now() + Math.floor(Math.random() * 1e6);
  let word = '';
  for (let i = 0; i < 6; i += 1) {
    word += letters[n % 26];
    n = Math.floor(n / 26);
  }
  return `${prefix}${word}`;
}
