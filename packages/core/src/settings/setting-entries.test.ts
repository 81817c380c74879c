import { describe, expect, it } from 'vitest';
import { PREFERENCE_SECTIONS, type TPreferenceSection } from './preferences.js';
import { ROLES } from '../identity/roles.js';
import { ENTRY_SECTIONS, canReadLabPreferences, canSetSetting, settingEntriesOf } from './setting-entries.js';

describe('settingEntriesOf (spec-lab §6 Settings menu by role)', () => {
  it('gives each listed role its entries in the spec order', () => {
    expect(settingEntriesOf(['ROLE_CENTER_CUSTOMER'])).toEqual([
      'REPORT_TEXT',
      'PDF_MARGINS',
      'TABLE_COLUMNS',
    ]);
    expect(settingEntriesOf(['ROLE_LABS_SUPERVISOR'])).toEqual(['TABLE_COLUMNS', 'INVOICE_PREFIX']);
    expect(settingEntriesOf(['ROLE_BILLER'])).toEqual(settingEntriesOf(['ROLE_TELE_RADIOLOGY']));
    expect(settingEntriesOf(['ROLE_DOCTOR'])).toContain('AUTO_REFRESH');
    expect(settingEntriesOf(['ROLE_DOCTOR'])).not.toContain('SERIES_NAMES');
    expect(settingEntriesOf(['ROLE_GROUP'])).toContain('VERIFICATION_SETTINGS');
  });
  it('gives several roles the union, and an unlisted role nothing', () => {
    expect(settingEntriesOf(['ROLE_CENTER_CUSTOMER', 'ROLE_LABS_SUPERVISOR'])).toEqual([
      'REPORT_TEXT',
      'PDF_MARGINS',
      'TABLE_COLUMNS',
      'INVOICE_PREFIX',
    ]);
    expect(settingEntriesOf(['ROLE_ASSIGNOR'])).toEqual([]);
  });
  it('maps entries only to existing sections', () => {
    const sections = Object.values(ENTRY_SECTIONS).flat();
    for (const s of sections) expect(Object.keys(PREFERENCE_SECTIONS)).toContain(s);
  });
});

describe('settingEntriesOf and the forwarding PACS switch (spec-lab §6 "forwarding PACS (if enabled)")', () => {
  it('gives a doctor forwarding PACS only with addForwardingPacsFeature on', () => {
    expect(settingEntriesOf(['ROLE_DOCTOR'])).not.toContain('FORWARDING_PACS');
    expect(settingEntriesOf(['ROLE_DOCTOR'], { addForwardingPacsFeature: false })).not.toContain(
      'FORWARDING_PACS',
    );
    expect(settingEntriesOf(['ROLE_DOCTOR'], { addForwardingPacsFeature: true })).toContain(
      'FORWARDING_PACS',
    );
  });
  it('keeps it for a center always, also for a center who is a doctor too', () => {
    expect(settingEntriesOf(['ROLE_CENTER'])).toContain('FORWARDING_PACS');
    expect(settingEntriesOf(['ROLE_CENTER', 'ROLE_DOCTOR'])).toContain('FORWARDING_PACS');
  });
});

describe('canSetSetting', () => {
  it('follows the entries', () => {
    expect(canSetSetting(['ROLE_CENTER'], 'SERIES_NAME')).toBe(true);
    expect(canSetSetting(['ROLE_DOCTOR'], 'SERIES_NAME')).toBe(false);
    expect(canSetSetting(['ROLE_CENTER'], 'LAB_DEPARTMENTS')).toBe(true);
    expect(canSetSetting(['ROLE_DOCTOR'], 'LAB_CATEGORY_PRIORITY')).toBe(false);
    expect(canSetSetting(['ROLE_DOCTOR'], 'TAGS')).toBe(true);
    expect(canSetSetting(['ROLE_CENTER'], 'TAGS')).toBe(false);
    expect(canSetSetting(['ROLE_CENTER_CUSTOMER'], 'REPORT_TEXT')).toBe(true);
    expect(canSetSetting(['ROLE_CENTER_CUSTOMER'], 'USER_INFORMATION')).toBe(false);
    expect(canSetSetting(['ROLE_DOCTOR'], 'EDITOR_PREFERENCES')).toBe(true);
    expect(canSetSetting(['ROLE_TYPIST'], 'EDITOR_PREFERENCES')).toBe(false);
  });
  it('lets billing roles save BILLING_DETAILS, others not', () => {
    for (const role of ['ROLE_BILLER', 'ROLE_TELE_RADIOLOGY', 'ROLE_GROUP'] as const) {
      expect(canSetSetting([role], 'BILLING_DETAILS')).toBe(true);
    }
    expect(canSetSetting(['ROLE_DOCTOR'], 'BILLING_DETAILS')).toBe(false);
    expect(canSetSetting(['ROLE_CENTER'], 'BILLING_DETAILS')).toBe(false);
  });
  it('saves the auto refresh toggle in UI_PREFERENCES', () => {
    expect(ENTRY_SECTIONS.AUTO_REFRESH).toEqual(['UI_PREFERENCES']);
  });
  it('lets every role save every section behind the entries of its menu (the browser stories tell each entry once)', () => {
    const refused = ROLES.flatMap((role) =>
      settingEntriesOf([role]).flatMap((entry) =>
        ENTRY_SECTIONS[entry]
          .filter((section) => !canSetSetting([role], section))
          .map((s) => `${role} ${entry} ${s}`),
      ),
    );
    expect(refused).toEqual([]);
    expect(
      settingEntriesOf(['ROLE_CENTER']).flatMap((entry) => ENTRY_SECTIONS[entry]).length,
    ).toBeGreaterThan(5);
  });
  it('lets every role keep its own UI, table and tutorial sections', () => {
    const personal: TPreferenceSection[] = ['UI_PREFERENCES', 'USER_TABLE_PREFERENCES', 'TUTORIAL_STATUS'];
    for (const role of ROLES) for (const s of personal) expect(canSetSetting([role], s)).toBe(true);
  });
});

describe('canReadLabPreferences', () => {
  it('lets lab roles and center users read the lab settings', () => {
    for (const role of [
      'ROLE_LABS_RECEPTIONIST',
      'ROLE_LABS_SUPERVISOR',
      'ROLE_CENTER',
      'ROLE_CENTER_CUSTOMER',
    ] as const) {
      expect(canReadLabPreferences([role]), role).toBe(true);
    }
  });
  it('refuses group staff', () => {
    for (const role of ['ROLE_DOCTOR', 'ROLE_ASSIGNOR', 'ROLE_GROUP', 'ROLE_BILLER', 'ROLE_ADMIN'] as const) {
      expect(canReadLabPreferences([role]), role).toBe(false);
    }
  });
});
