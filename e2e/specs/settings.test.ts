import { SETTINGS_MESSAGES, type TSettingEntry } from '@radflow/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { ENTRY_STORIES, NO_TABLES_STORY, type TEntryStory } from '../support/settings-stories.js';
import { FORWARDING_PACS_ON_STORY } from '../support/settings-stories-center.js';
import { ENTRY_LABELS, GroupSettingsTab, SettingsScreen, uniqueWord } from '../support/settings.js';
import { openSignedIn } from '../support/worklist.js';

/**
 * spec-lab §6 "Settings menu by role", for the demo group (every group switch off, so the doctor has
 * no Forwarding PACS). Tele radiology and biller share one line of the spec.
 */
const ROLE_ENTRIES: {
  email: string;
  role: string;
  entries: TSettingEntry[];
  /** Roles whose menu has no 'Manage preference' reach their dialogs by the gear only. */
  via?: 'gear';
  stories?: Partial<Record<TSettingEntry, TEntryStory>>;
}[] = [
  {
    email: 'doctor@demo.local',
    role: 'doctor',
    entries: [
      'SIGNATURE',
      'REPORT_TEXT',
      'CONTACT_INFO',
      'TAGS',
      'VIEWER_SETTING',
      'STUDY_TABLE_SETTING',
      'EDITOR_SETTING',
      'TABLE_COLUMNS',
      'AUTO_REFRESH',
    ],
  },
  {
    email: 'center@demo.local',
    role: 'center',
    entries: [
      'SIGNATURE',
      'SERIES_NAMES',
      'REPORT_TEXT',
      'PDF_MARGINS',
      'CONTACT_INFO',
      'FORWARDING_PACS',
      'STUDY_TABLE_SETTING',
      'EDITOR_SETTING',
      'TABLE_COLUMNS',
      'SLOTS',
      'CATEGORY_AND_PRIORITY',
      'LAB_DEPARTMENTS',
    ],
  },
  {
    email: 'center-customer@demo.local',
    role: 'center customer',
    entries: ['REPORT_TEXT', 'PDF_MARGINS', 'TABLE_COLUMNS'],
    via: 'gear',
  },
  {
    email: 'tele-radiology@demo.local',
    role: 'tele radiology',
    entries: ['BILLING_DETAILS', 'TABLE_COLUMNS'],
    via: 'gear',
  },
  { email: 'biller@demo.local', role: 'biller', entries: ['BILLING_DETAILS', 'TABLE_COLUMNS'], via: 'gear' },
  {
    email: 'group@demo.local',
    role: 'group admin',
    entries: ['REPORT_TEXT', 'PDF_MARGINS', 'TABLE_COLUMNS', 'BILLING_DETAILS', 'VERIFICATION_SETTINGS'],
    // The group admin has no study table (its menu: Manage preference, Audit Logins).
    stories: { TABLE_COLUMNS: NO_TABLES_STORY },
  },
  {
    email: 'labs-supervisor@demo.local',
    role: 'labs supervisor',
    entries: ['TABLE_COLUMNS', 'INVOICE_PREFIX'],
    via: 'gear',
    // No study table of its own either (its screens are the lab's).
    stories: { TABLE_COLUMNS: NO_TABLES_STORY },
  },
];

/** The page shows the entries in the spec's order of spec-lab §2 (core SETTING_ENTRIES). */
const SPEC_ORDER = Object.keys(ENTRY_LABELS) as TSettingEntry[];
const inSpecOrder = (entries: readonly TSettingEntry[]) =>
  SPEC_ORDER.filter((e) => entries.includes(e)).map((e) => ENTRY_LABELS[e]);

/**
 * Which role tells each entry's stories. The menu and the server's permission to save come from one
 * table in core (`settingEntriesOf`, `canSetSetting`), and an entry's dialog is the same component
 * for every role that has it; so a story runs once per entry (the first role listing it), again for
 * a role that tells it differently (`stories`), and each role saves at least one entry through its
 * own menu. Every role × entry cell of the spec's table is still checked: the menus here, the
 * permission to save every entry of a menu in core's setting-entries.test.ts, each section's save
 * in the server's settings.int.test.ts.
 */
const storyCells = new Set<string>();
const toldEntries = new Set<TSettingEntry>();
for (const { email, entries, stories } of ROLE_ENTRIES) {
  const cells = entries.filter((entry) => stories?.[entry] !== undefined || !toldEntries.has(entry));
  // A role whose entries others told already still saves one through its own menu.
  if (cells.length === 0 && entries[0]) cells.push(entries[0]);
  for (const entry of cells) {
    storyCells.add(`${email} ${entry}`);
    toldEntries.add(entry);
  }
}
const tellsStory = (email: string, entry: TSettingEntry) => storyCells.has(`${email} ${entry}`);

for (const { email, role, entries, via, stories } of ROLE_ENTRIES) {
  describe(`Settings of the ${role} (${email})`, () => {
    let session: TBrowserSession;
    let settings: SettingsScreen;
    beforeAll(async () => {
      session = await openSignedIn(email);
      settings = new SettingsScreen(session.page, via);
      await settings.open();
    });
    afterAll(async () => {
      await session?.close();
    });

    it(`lists its entries ${via ? 'in the gear menu' : 'on /setting-page and in the gear menu'}`, async () => {
      if (!via) {
        expect(await settings.entryLabels()).toEqual(inSpecOrder(entries));
        // Only group admins get the group's settings (canManageGroupSettings).
        const groupTab = session.page.getByRole('tab', { name: 'Group settings' });
        expect(await groupTab.count()).toBe(email === 'group@demo.local' ? 1 : 0);
      }
      expect(await settings.gearMenuLabels()).toEqual(inSpecOrder(entries));
    });

    for (const entry of entries.filter((e) => tellsStory(email, e))) {
      const story = stories?.[entry] ?? ENTRY_STORIES[entry];
      it(`${ENTRY_LABELS[entry]}: a change is saved and kept after a reload`, async () => {
        if (!story) throw new Error(`no story for ${entry}`);
        await settings.open();
        await story.keepsAChange(settings, session.page);
      });
      if (story?.refusesABadValue) {
        const refuses = story.refusesABadValue;
        it(`${ENTRY_LABELS[entry]}: a bad value is refused with its message`, async () => {
          await settings.open();
          await refuses(settings, session.page);
        });
      }
    }
  });
}

describe('Roles without settings entries', () => {
  for (const email of ['typist@demo.local', 'assignor@demo.local']) {
    it(`${email} sees no gear button`, async () => {
      const session = await openSignedIn(email);
      try {
        const settings = new SettingsScreen(session.page);
        // Signed in (the account button shows): the top bar is complete.
        await session.page.getByRole('banner').getByRole('button', { name: 'Account' }).waitFor();
        expect(await settings.gear.count()).toBe(0);
      } finally {
        await session.close();
      }
    });
  }
});

describe('Group settings tab (group admin)', () => {
  let session: TBrowserSession;
  let settings: SettingsScreen;
  let group: GroupSettingsTab;
  beforeAll(async () => {
    session = await openSignedIn('group@demo.local');
    settings = new SettingsScreen(session.page);
    group = new GroupSettingsTab(session.page);
  });
  afterAll(async () => {
    await session?.close();
  });

  it('toggles a switch, sees it saved, kept after a reload and listed in Recent changes', async () => {
    const label = 'Do not send WhatsApp message';
    const sectionField = 'USER_ADMIN_VISIBLE_PREFERENCES.doNotSendWhatsappMessage';
    await settings.open();
    await group.open();
    await group.filter('whatsapp');
    const before = await group.switchOf(label).isChecked();
    const change = (from: boolean) => `${from ? 'on' : 'off'} → ${from ? 'off' : 'on'}`;

    await group.switchOf(label).setChecked(!before);
    await session.page.getByRole('status').filter({ hasText: SETTINGS_MESSAGES.updated }).first().waitFor();
    const row = await group.changeRow(sectionField, change(before));
    expect(await row.innerText()).toContain('group@demo.local');

    await settings.reload();
    await group.open();
    await group.filter('whatsapp');
    expect(await group.switchOf(label).isChecked()).toBe(!before);

    // Back as it was; that is a change of its own.
    await group.switchOf(label).setChecked(before);
    await group.changeRow(sectionField, change(!before));
  });
});

/**
 * Slots (spec-lab §5: 'Slot creation is refused with a message if the appointment setting is off')
 * and the center's forwarding PACS list (addForwardingPacsFeature): the group admin turns both
 * switches on from the Group settings tab, then the center adds a slot and a PACS; the switches go
 * back off at the end.
 */
describe('Slots and forwarding PACS once the group turns them on', () => {
  let admin: TBrowserSession;
  let center: TBrowserSession;
  let adminSettings: SettingsScreen;
  let group: GroupSettingsTab;
  const SWITCHES = [
    { field: 'appointmentSupportRIS', label: 'Appointment support RIS' },
    { field: 'addForwardingPacsFeature', label: 'Add forwarding PACS feature' },
  ] as const;

  const setSwitches = async (on: boolean) => {
    await adminSettings.open();
    await group.open();
    for (const { field, label } of SWITCHES) {
      await group.filter(field);
      if ((await group.switchOf(label).isChecked()) === on) continue;
      // A click, then the saved change: the switch shows the stored value, so it turns once the
      // save has answered (setChecked would demand the new state at once).
      await group.switchOf(label).click();
      await group.changeRow(`GROUP_SWITCHES.${field}`, on ? 'off → on' : 'on → off');
    }
  };

  beforeAll(async () => {
    admin = await openSignedIn('group@demo.local');
    adminSettings = new SettingsScreen(admin.page);
    group = new GroupSettingsTab(admin.page);
    await setSwitches(true);
    // Signed in after the change, so the center's session carries the switches.
    center = await openSignedIn('center@demo.local');
  });
  afterAll(async () => {
    await center?.close();
    if (admin) await setSwitches(false);
    await admin?.close();
  });

  it('the center adds a slot, saves it and sees it after a reload', async () => {
    const settings = new SettingsScreen(center.page);
    const name = uniqueWord('Morning CT ');
    await settings.open();
    let dialog = await settings.openEntry('SLOTS');
    const slot = dialog.getByRole('group', { name: 'New slot' });
    await slot.getByLabel('Slot name').fill(name);
    await slot.getByLabel('Lab modality').selectOption('CT');
    await slot.getByRole('checkbox', { name: 'Monday' }).check();
    await slot.getByLabel('Monday start').fill('09:00');
    await slot.getByLabel('Monday end').fill('13:00');
    await slot.getByLabel('Monday appointment limit').fill('12');
    await slot.getByRole('button', { name: 'Add slot' }).click();
    await dialog.getByRole('list', { name: 'Slots' }).getByText(`${name} · CT`).waitFor();
    await settings.saveAndExpectUpdated(dialog);

    await settings.reload();
    dialog = await settings.openEntry('SLOTS');
    const saved = dialog.getByRole('list', { name: 'Slots' }).getByRole('listitem').filter({ hasText: name });
    await saved.waitFor();
    expect(await saved.innerText()).toContain('Monday 09:00–13:00 (12)');
    await settings.close(dialog);
  });

  it('refuses a slot that ends before it starts', async () => {
    const settings = new SettingsScreen(center.page);
    await settings.open();
    const dialog = await settings.openEntry('SLOTS');
    const slot = dialog.getByRole('group', { name: 'New slot' });
    await slot.getByLabel('Slot name').fill(uniqueWord('Evening '));
    await slot.getByLabel('Lab modality').selectOption('MR');
    await slot.getByRole('checkbox', { name: 'Tuesday' }).check();
    await slot.getByLabel('Tuesday start').fill('18:00');
    await slot.getByLabel('Tuesday end').fill('09:00');
    await slot.getByLabel('Tuesday appointment limit').fill('5');
    await slot.getByRole('button', { name: 'Add slot' }).click();
    await settings.expectProblem(dialog, SETTINGS_MESSAGES.slotStartAfterEnd);
    await settings.close(dialog);
  });

  it('the center adds a forwarding PACS, sees it after a reload and deletes it', async () => {
    const settings = new SettingsScreen(center.page);
    await settings.open();
    await FORWARDING_PACS_ON_STORY.keepsAChange(settings, center.page);
  });

  it("refuses a forwarding PACS without every detail: 'Please add all details'", async () => {
    const settings = new SettingsScreen(center.page);
    await settings.open();
    await FORWARDING_PACS_ON_STORY.refusesABadValue?.(settings, center.page);
  });
});
