import type { TSettingEntry } from '@radflow/core';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { type SettingsScreen, field, uniqueWord } from './settings.js';

/**
 * One story per settings dialog (spec-lab §2, §5, §8): change one value, save, see 'Setting updated
 * successfully', reload, see it kept; and, where the dialog has a rule, see its message for one bad
 * value. Values are unique per run; stories put back what other stories could notice (switches,
 * columns, margins).
 */
export interface TEntryStory {
  keepsAChange: (s: SettingsScreen, page: Page) => Promise<void>;
  refusesABadValue?: (s: SettingsScreen, page: Page) => Promise<void>;
}

/** Opens the dialog again after a reload of /setting-page. */
export async function reopen(s: SettingsScreen, entry: TSettingEntry): Promise<Locator> {
  await s.reload();
  return s.openEntry(entry);
}

export async function expectValue(field: Locator, value: string): Promise<void> {
  await expect.poll(() => field.inputValue(), { timeout: 15_000 }).toBe(value);
}

/** A text field story: fill `label` with a fresh value, save, reload, see it. */
export function textFieldStory(entry: TSettingEntry, label: string, valueOf: (w: string) => string) {
  return async (s: SettingsScreen) => {
    const value = valueOf(uniqueWord(''));
    let dialog = await s.openEntry(entry);
    await field(dialog, label).fill(value);
    await s.saveAndExpectUpdated(dialog);
    dialog = await reopen(s, entry);
    await expectValue(field(dialog, label), value);
    await s.close(dialog);
  };
}

/** A rule story: type a bad value into `label`, save, see `message`, leave without saving. */
export function badTextStory(entry: TSettingEntry, label: string, bad: string, message: string) {
  return async (s: SettingsScreen) => {
    const dialog = await s.openEntry(entry);
    await field(dialog, label).fill(bad);
    await s.save(dialog);
    await s.expectProblem(dialog, message);
    await s.close(dialog);
  };
}

/** Flips a switch, saves, sees it kept after a reload, then flips it back and saves again. */
export function switchStory(entry: TSettingEntry, label: string) {
  return async (s: SettingsScreen) => {
    let dialog = await s.openEntry(entry);
    const before = await dialog.getByRole('switch', { name: label }).isChecked();
    await dialog.getByRole('switch', { name: label }).setChecked(!before);
    await s.saveAndExpectUpdated(dialog);
    dialog = await reopen(s, entry);
    expect(await dialog.getByRole('switch', { name: label }).isChecked()).toBe(!before);
    await dialog.getByRole('switch', { name: label }).setChecked(before);
    await s.saveAndExpectUpdated(dialog);
  };
}
