import {
  FORWARDING_MESSAGES,
  SETTING_ASSET_MESSAGES,
  SETTINGS_MESSAGES,
  type TSettingEntry,
} from '@radflow/core';
import { field, uniqueWord } from './settings.js';
import { type TEntryStory, badTextStory, expectValue, reopen } from './settings-story-kit.js';

/** The stories of the center's and the lab's entries (spec-lab §3, §5): lists, margins, PACS, prefixes. */
export const CENTER_ENTRY_STORIES: Partial<Record<TSettingEntry, TEntryStory>> = {
  SERIES_NAMES: {
    keepsAChange: async (s) => {
      const series = uniqueWord('E2E SERIES ');
      let dialog = await s.openEntry('SERIES_NAMES');
      await dialog.getByLabel('Series name', { exact: true }).fill(series);
      await dialog.getByLabel('Preferred name', { exact: true }).fill('Axial T2');
      await dialog.getByRole('button', { name: 'Add', exact: true }).click();
      await s.saveAndExpectUpdated(dialog);
      dialog = await reopen(s, 'SERIES_NAMES');
      await dialog.getByRole('list', { name: 'Series names' }).getByText(`${series} → Axial T2`).waitFor();
      await s.close(dialog);
    },
    refusesABadValue: async (s) => {
      const series = uniqueWord('E2E DUP ');
      const dialog = await s.openEntry('SERIES_NAMES');
      for (const preferred of ['First', 'Second']) {
        await dialog.getByLabel('Series name', { exact: true }).fill(series);
        await dialog.getByLabel('Preferred name', { exact: true }).fill(preferred);
        await dialog.getByRole('button', { name: 'Add', exact: true }).click();
      }
      await s.expectProblem(dialog, SETTINGS_MESSAGES.seriesNameDuplicate);
      await s.close(dialog);
    },
  },

  PDF_MARGINS: {
    keepsAChange: async (s) => {
      let dialog = await s.openEntry('PDF_MARGINS');
      const top = () => dialog.getByLabel(/^Top margin \(cm\)/);
      const before = await top().inputValue();
      const next = before === '4.25' ? '4.5' : '4.25';
      await top().fill(next);
      await s.saveAndExpectUpdated(dialog);
      dialog = await reopen(s, 'PDF_MARGINS');
      await expectValue(top(), next);
      await top().fill(before);
      await s.saveAndExpectUpdated(dialog);
    },
    refusesABadValue: async (s) => {
      const dialog = await s.openEntry('PDF_MARGINS');
      await dialog.getByLabel(/^Bottom margin \(cm\)/).fill('');
      await s.save(dialog);
      await s.expectProblem(dialog, SETTING_ASSET_MESSAGES.marginBottomRequired);
      await s.close(dialog);
    },
  },

  CATEGORY_AND_PRIORITY: {
    keepsAChange: async (s) => {
      const name = uniqueWord('E2E');
      let dialog = await s.openEntry('CATEGORY_AND_PRIORITY');
      const categories = dialog.getByRole('group', { name: 'Patient categories' });
      await categories.getByLabel('Name', { exact: true }).fill(name);
      await categories.getByLabel('Discount (%)').fill('10');
      await categories.getByRole('button', { name: 'Add', exact: true }).click();
      await s.saveAndExpectUpdated(dialog);
      dialog = await reopen(s, 'CATEGORY_AND_PRIORITY');
      await dialog
        .getByRole('list', { name: 'Patient categories list' })
        .getByText(name, { exact: true })
        .waitFor();
      await s.close(dialog);
    },
    refusesABadValue: async (s) => {
      const dialog = await s.openEntry('CATEGORY_AND_PRIORITY');
      const categories = dialog.getByRole('group', { name: 'Patient categories' });
      await categories.getByLabel('Name', { exact: true }).fill(uniqueWord('E2E'));
      await categories.getByLabel('Discount (%)').fill('-5');
      await categories.getByRole('button', { name: 'Add', exact: true }).click();
      await s.expectProblem(dialog, SETTINGS_MESSAGES.discountInvalid);
      await s.close(dialog);
    },
  },

  LAB_DEPARTMENTS: {
    keepsAChange: async (s) => {
      const name = uniqueWord('E2E');
      let dialog = await s.openEntry('LAB_DEPARTMENTS');
      const lab = dialog.getByRole('group', { name: 'Lab departments' });
      await lab.getByLabel('Department name').fill(name);
      await lab.getByRole('button', { name: 'Add', exact: true }).click();
      await s.expectUpdated();
      dialog = await reopen(s, 'LAB_DEPARTMENTS');
      await dialog.getByRole('group', { name: 'Lab departments' }).getByText(name, { exact: true }).waitFor();
      await s.close(dialog, 'Close');
    },
    refusesABadValue: async (s) => {
      const name = uniqueWord('E2E');
      const dialog = await s.openEntry('LAB_DEPARTMENTS');
      const lab = dialog.getByRole('group', { name: 'Lab departments' });
      await lab.getByLabel('Department name').fill(name);
      await lab.getByRole('button', { name: 'Add', exact: true }).click();
      await lab.getByText(name, { exact: true }).waitFor();
      // The same name again, in another case: trimmed and upper-cased, it is a duplicate (spec-lab §5).
      await lab.getByLabel('Department name').fill(` ${name.toLowerCase()} `);
      await lab.getByRole('button', { name: 'Add', exact: true }).click();
      await s.expectProblem(dialog, SETTINGS_MESSAGES.departmentDuplicate);
      await s.close(dialog, 'Close');
    },
  },

  INVOICE_PREFIX: {
    // All four are required (spec-lab §5), and the UHID prefix is empty until first saved.
    keepsAChange: async (s) => {
      const w = uniqueWord('');
      let dialog = await s.openEntry('INVOICE_PREFIX');
      await field(dialog, 'Invoice prefix').fill(`INV-${w}`);
      await field(dialog, 'UHID prefix').fill(`UH-${w}`);
      await s.saveAndExpectUpdated(dialog);
      dialog = await reopen(s, 'INVOICE_PREFIX');
      await expectValue(field(dialog, 'Invoice prefix'), `INV-${w}`);
      await expectValue(field(dialog, 'UHID prefix'), `UH-${w}`);
      await s.close(dialog);
    },
    refusesABadValue: badTextStory(
      'INVOICE_PREFIX',
      'Invoice prefix',
      '',
      SETTING_ASSET_MESSAGES.prefixRequired,
    ),
  },

  FORWARDING_PACS: {
    // The demo group has addForwardingPacsFeature off: the center keeps the entry, which says so.
    keepsAChange: async (s) => {
      const dialog = await s.openEntry('FORWARDING_PACS');
      await dialog.getByText(FORWARDING_MESSAGES.featureDisabled).waitFor();
      await s.close(dialog, 'Close');
    },
  },

  SLOTS: {
    // The demo group has appointmentSupportRIS off: adding is refused with its message (spec-lab §5).
    keepsAChange: async (s) => {
      const dialog = await s.openEntry('SLOTS');
      await s.expectProblem(dialog, SETTINGS_MESSAGES.slotAppointmentsOff);
      await s.close(dialog);
    },
  },
};

/** The center's forwarding PACS list once the group has addForwardingPacsFeature on. */
export const FORWARDING_PACS_ON_STORY: TEntryStory = {
  keepsAChange: async (s) => {
    const ae = uniqueWord('E2E');
    let dialog = await s.openEntry('FORWARDING_PACS');
    const form = dialog.getByRole('form', { name: 'Add PACS server' });
    await form.getByLabel('AE title', { exact: true }).fill(ae);
    await form.getByLabel('IP', { exact: true }).fill('10.20.30.40');
    await form.getByLabel('Port', { exact: true }).fill('104');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    const servers = () => dialog.getByRole('list', { name: 'Forwarding PACS servers' });
    await servers().getByText(ae, { exact: true }).waitFor();
    dialog = await reopen(s, 'FORWARDING_PACS');
    await servers().getByText(ae, { exact: true }).waitFor();
    await servers().getByText('10.20.30.40:104').first().waitFor();
    await dialog.getByRole('button', { name: `Delete ${ae}` }).click();
    await servers().getByText(ae, { exact: true }).waitFor({ state: 'detached' });
    await s.close(dialog, 'Close');
  },
  refusesABadValue: async (s) => {
    const dialog = await s.openEntry('FORWARDING_PACS');
    const form = dialog.getByRole('form', { name: 'Add PACS server' });
    await form.getByLabel('AE title', { exact: true }).fill(uniqueWord('E2E'));
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await s.expectProblem(dialog, 'Please add all details');
    await s.close(dialog, 'Close');
  },
};
