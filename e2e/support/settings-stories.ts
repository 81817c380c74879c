import { SETTING_ASSET_MESSAGES, SETTINGS_MESSAGES, type TSettingEntry } from '@radflow/core';
import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import { uniqueWord } from './settings.js';
import { CENTER_ENTRY_STORIES } from './settings-stories-center.js';
import { type TEntryStory, badTextStory, reopen, switchStory, textFieldStory } from './settings-story-kit.js';

export type { TEntryStory } from './settings-story-kit.js';

/** Roles with no study table of their own (the group admin) get the dialog's explanation instead. */
export const NO_TABLES_STORY: TEntryStory = {
  keepsAChange: async (s) => {
    const dialog = await s.openEntry('TABLE_COLUMNS');
    await dialog.getByText('You have no study tables whose columns can be chosen.').waitFor();
    await s.close(dialog);
  },
};

/** One story per entry; the center's and the lab's are in settings-stories-center.ts. */
export const ENTRY_STORIES: Partial<Record<TSettingEntry, TEntryStory>> = {
  SIGNATURE: {
    keepsAChange: textFieldStory('SIGNATURE', 'Footer text', (w) => `Dr E2E ${w}, MD`),
    refusesABadValue: badTextStory(
      'SIGNATURE',
      'Footer text',
      '   ',
      SETTING_ASSET_MESSAGES.signatureNameRequired,
    ),
  },

  REPORT_TEXT: {
    keepsAChange: async (s) => {
      const text = `E2E header ${uniqueWord('')}`;
      let dialog = await s.openEntry('REPORT_TEXT');
      await dialog.getByRole('textbox', { name: 'Header', exact: true }).fill(text);
      await s.saveAndExpectUpdated(dialog);
      dialog = await reopen(s, 'REPORT_TEXT');
      await dialog.getByRole('textbox', { name: 'Header', exact: true }).getByText(text).waitFor();
      await s.close(dialog);
    },
  },

  CONTACT_INFO: {
    keepsAChange: textFieldStory('CONTACT_INFO', 'Address', (w) => `${w} Street 12, Pune`),
    refusesABadValue: badTextStory('CONTACT_INFO', 'Mobile number', '12345', SETTINGS_MESSAGES.mobileInvalid),
  },

  TAGS: {
    keepsAChange: async (s, page) => {
      const tag = uniqueWord('E2E');
      let dialog = await s.openEntry('TAGS');
      await dialog.getByLabel('New tag').fill(tag);
      await dialog.getByRole('button', { name: 'Add', exact: true }).click();
      await s.expectUpdated();
      dialog = await reopen(s, 'TAGS');
      const chip = dialog.getByRole('list', { name: 'Tags' }).getByText(tag, { exact: true });
      await chip.waitFor();
      // Put it away again: the delete asks first (spec-lab §5).
      await dialog.getByLabel(`Delete tag ${tag}`).click();
      const confirm = page.getByRole('dialog', { name: 'Delete tag' });
      await confirm.getByText(SETTINGS_MESSAGES.tagDeleteConfirm).waitFor();
      await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
      await chip.waitFor({ state: 'detached' });
      await s.close(dialog, 'Close');
    },
    refusesABadValue: async (s) => {
      const dialog = await s.openEntry('TAGS');
      await dialog.getByLabel('New tag').fill('bad tag');
      await dialog.getByRole('button', { name: 'Add', exact: true }).click();
      await s.expectProblem(dialog, SETTINGS_MESSAGES.tagCharacters);
      await s.close(dialog, 'Close');
    },
  },

  VIEWER_SETTING: { keepsAChange: switchStory('VIEWER_SETTING', 'Half page reporting') },

  AUTO_REFRESH: { keepsAChange: switchStory('AUTO_REFRESH', 'Refresh the study lists automatically') },

  STUDY_TABLE_SETTING: {
    keepsAChange: textFieldStory(
      'STUDY_TABLE_SETTING',
      'Download folder for the external viewer',
      (w) => `C:\\Studies\\${w}`,
    ),
  },

  EDITOR_SETTING: {
    keepsAChange: async (s) => {
      let dialog = await s.openEntry('EDITOR_SETTING');
      const size = dialog.getByRole('combobox', { name: 'Default font size' });
      const before = (await size.innerText()).trim();
      const next = before === '14' ? '16' : '14';
      await s.choose(dialog, 'Default font size', next);
      await s.saveAndExpectUpdated(dialog);
      dialog = await reopen(s, 'EDITOR_SETTING');
      expect((await dialog.getByRole('combobox', { name: 'Default font size' }).innerText()).trim()).toBe(
        next,
      );
      await s.choose(dialog, 'Default font size', before);
      await s.saveAndExpectUpdated(dialog);
    },
  },

  TABLE_COLUMNS: {
    keepsAChange: async (s, page) => {
      let dialog = await s.openEntry('TABLE_COLUMNS');
      const table = (
        await dialog.getByRole('list', { name: 'Tables' }).getByRole('button').first().innerText()
      ).trim();
      const open = async (d: Locator) => {
        await d
          .getByRole('list', { name: 'Tables' })
          .getByRole('button', { name: table, exact: true })
          .click();
        const columns = page.getByRole('dialog', { name: 'Column settings' });
        await columns.waitFor();
        return columns;
      };
      let columns = await open(dialog);
      // The second column: the first may be one that cannot be hidden.
      const box = columns.getByRole('checkbox').nth(1);
      const name =
        (await box.getAttribute('aria-label')) ??
        (await columns.getByRole('listitem').nth(1).innerText()).trim();
      expect(await box.isChecked()).toBe(true);
      await box.uncheck();
      await columns.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Columns saved' }).first().waitFor();
      await columns.waitFor({ state: 'hidden' });

      dialog = await reopen(s, 'TABLE_COLUMNS');
      columns = await open(dialog);
      expect(await columns.getByRole('checkbox').nth(1).isChecked(), name).toBe(false);
      // Back to the table's default columns.
      await columns.getByRole('button', { name: 'Reset', exact: true }).click();
      await columns.getByRole('button', { name: 'Save', exact: true }).click();
      await columns.waitFor({ state: 'hidden' });
    },
  },

  BILLING_DETAILS: {
    keepsAChange: textFieldStory('BILLING_DETAILS', 'Bank name', (w) => `E2E Bank ${w}`),
    refusesABadValue: badTextStory('BILLING_DETAILS', 'PAN', 'not-a-pan', SETTINGS_MESSAGES.panInvalid),
  },

  VERIFICATION_SETTINGS: {
    keepsAChange: async (s) => {
      let dialog = await s.openEntry('VERIFICATION_SETTINGS');
      const before = (await dialog.getByRole('combobox', { name: 'Sign-off time limit' }).innerText()).trim();
      const next = before === '120 minutes' ? '150 minutes' : '120 minutes';
      await s.choose(dialog, 'Sign-off time limit', next);
      await s.saveAndExpectUpdated(dialog);
      dialog = await reopen(s, 'VERIFICATION_SETTINGS');
      expect((await dialog.getByRole('combobox', { name: 'Sign-off time limit' }).innerText()).trim()).toBe(
        next,
      );
      await s.choose(dialog, 'Sign-off time limit', before === '' ? 'None' : before);
      await s.saveAndExpectUpdated(dialog);
    },
    refusesABadValue: async (s) => {
      const dialog = await s.openEntry('VERIFICATION_SETTINGS');
      const all = dialog.getByRole('switch', { name: 'Verify for all doctors and centers' });
      await all.setChecked(false);
      await dialog.getByRole('button', { name: 'Add center and doctor' }).click();
      await dialog.getByLabel('Center email').last().fill('not-an-email');
      await dialog.getByLabel('Doctor email').last().fill('doctor@demo.local');
      await s.save(dialog);
      await s.expectProblem(dialog, SETTINGS_MESSAGES.emailInvalid);
      await s.close(dialog);
    },
  },
  ...CENTER_ENTRY_STORIES,
};
