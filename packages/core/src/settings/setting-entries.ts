import { type TRole, hasRole, isCenterUser } from '../identity/roles.js';
import type { TGroupFlags, TPreferenceSection } from './preferences.js';

/** The settings entries of spec-lab §2, in the spec's order. */
export const SETTING_ENTRIES = [
  'SIGNATURE',
  'SERIES_NAMES',
  'REPORT_TEXT',
  'PDF_MARGINS',
  'CONTACT_INFO',
  'TAGS',
  'FORWARDING_PACS',
  'VIEWER_SETTING',
  'STUDY_TABLE_SETTING',
  'EDITOR_SETTING',
  'TABLE_COLUMNS',
  'SLOTS',
  'CATEGORY_AND_PRIORITY',
  'LAB_DEPARTMENTS',
  'INVOICE_PREFIX',
  'BILLING_DETAILS',
  'VERIFICATION_SETTINGS',
  'AUTO_REFRESH',
] as const;
export type TSettingEntry = (typeof SETTING_ENTRIES)[number];

/** The spec's words for each settings entry (spec-lab §2), Title Case; the web and the browser stories read them here. */
export const SETTING_ENTRY_LABELS: Record<TSettingEntry, string> = {
  SIGNATURE: 'Signature',
  SERIES_NAMES: 'Series Names',
  REPORT_TEXT: 'Report Text',
  PDF_MARGINS: 'PDF Margins and Images',
  CONTACT_INFO: 'Contact Info',
  TAGS: 'Tags',
  FORWARDING_PACS: 'Forwarding PACS',
  VIEWER_SETTING: 'Viewer Setting',
  STUDY_TABLE_SETTING: 'Study Table Setting',
  EDITOR_SETTING: 'Editor Setting',
  TABLE_COLUMNS: 'Table Columns',
  SLOTS: 'Slots',
  CATEGORY_AND_PRIORITY: 'Category and Priority',
  LAB_DEPARTMENTS: 'Lab Departments',
  INVOICE_PREFIX: 'Invoice Number and Prefix',
  BILLING_DETAILS: 'Billing Details',
  VERIFICATION_SETTINGS: 'Verification Settings',
  AUTO_REFRESH: 'Auto Refresh',
};

/**
 * spec-lab §6 "Settings menu by role", entry for entry. The tele radiology role and the biller share
 * one line of the spec. A user with several roles gets the union.
 */
export const SETTING_ENTRIES_BY_ROLE: Partial<Record<TRole, readonly TSettingEntry[]>> = {
  ROLE_DOCTOR: [
    'SIGNATURE',
    'REPORT_TEXT',
    'CONTACT_INFO',
    'TAGS',
    'FORWARDING_PACS',
    'VIEWER_SETTING',
    'STUDY_TABLE_SETTING',
    'EDITOR_SETTING',
    'TABLE_COLUMNS',
    'AUTO_REFRESH',
  ],
  ROLE_CENTER: [
    'SIGNATURE',
    'SERIES_NAMES',
    'REPORT_TEXT',
    'PDF_MARGINS',
    'FORWARDING_PACS',
    'STUDY_TABLE_SETTING',
    'SLOTS',
    'CATEGORY_AND_PRIORITY',
    'LAB_DEPARTMENTS',
    'EDITOR_SETTING',
    'CONTACT_INFO',
    'TABLE_COLUMNS',
  ],
  ROLE_CENTER_CUSTOMER: ['REPORT_TEXT', 'PDF_MARGINS', 'TABLE_COLUMNS'],
  ROLE_TELE_RADIOLOGY: ['BILLING_DETAILS', 'TABLE_COLUMNS'],
  ROLE_BILLER: ['BILLING_DETAILS', 'TABLE_COLUMNS'],
  ROLE_GROUP: ['BILLING_DETAILS', 'REPORT_TEXT', 'PDF_MARGINS', 'VERIFICATION_SETTINGS', 'TABLE_COLUMNS'],
  ROLE_LABS_SUPERVISOR: ['INVOICE_PREFIX', 'TABLE_COLUMNS'],
};

/**
 * The preference sections each entry saves through POST /setting/update… (see
 * apps/server/src/modules/preferences/DECISIONS.md). Entries saved by their own calls (signature,
 * margins, forwarding PACS, invoice prefix) have none.
 */
export const ENTRY_SECTIONS: Record<TSettingEntry, readonly TPreferenceSection[]> = {
  SIGNATURE: [],
  SERIES_NAMES: ['SERIES_NAME'],
  REPORT_TEXT: ['REPORT_TEXT'],
  PDF_MARGINS: [],
  CONTACT_INFO: ['USER_INFORMATION'],
  TAGS: ['TAGS'],
  FORWARDING_PACS: [],
  VIEWER_SETTING: ['UI_PREFERENCES'],
  STUDY_TABLE_SETTING: ['UI_REPORT_TABLE_PREFERENCES'],
  EDITOR_SETTING: ['EDITOR_PREFERENCES'],
  TABLE_COLUMNS: ['USER_TABLE_PREFERENCES'],
  SLOTS: ['LAB_SLOTS'],
  CATEGORY_AND_PRIORITY: ['LAB_CATEGORY_PRIORITY'],
  LAB_DEPARTMENTS: ['LAB_DEPARTMENTS'],
  INVOICE_PREFIX: [],
  BILLING_DETAILS: ['BILLING_DETAILS'],
  VERIFICATION_SETTINGS: ['VERIFICATION_SETTINGS'],
  AUTO_REFRESH: ['UI_PREFERENCES'],
};

/**
 * Sections every signed-in user keeps for themself whatever the settings menu shows: the screens
 * save them as the user works (UI toggles, column choices, the feature tour).
 */
export const PERSONAL_SECTIONS: readonly TPreferenceSection[] = [
  'UI_PREFERENCES',
  'USER_TABLE_PREFERENCES',
  'TUTORIAL_STATUS',
  'USER_PREFERENCES',
];

/** The group switches that change the settings menu. */
export type TSettingEntryFlags = Partial<Pick<TGroupFlags, 'addForwardingPacsFeature'>>;

/**
 * The settings entries the roles' settings menu shows (spec-lab §6), in the spec's order. A doctor
 * has forwarding PACS only "if enabled", i.e. with the group switch addForwardingPacsFeature on
 * (absent flags count as off); a center keeps it always, as the spec lists it without a condition.
 */
export function settingEntriesOf(roles: readonly TRole[], flags: TSettingEntryFlags = {}): TSettingEntry[] {
  const granted = new Set(roles.flatMap((role) => entriesOfRole(role, flags)));
  return SETTING_ENTRIES.filter((entry) => granted.has(entry));
}

function entriesOfRole(role: TRole, flags: TSettingEntryFlags): readonly TSettingEntry[] {
  const entries = SETTING_ENTRIES_BY_ROLE[role] ?? [];
  if (role === 'ROLE_DOCTOR' && !flags.addForwardingPacsFeature) {
    return entries.filter((entry) => entry !== 'FORWARDING_PACS');
  }
  return entries;
}

/** Whether the roles may save a user section with POST /setting/update/{settingName}. */
export function canSetSetting(roles: readonly TRole[], section: TPreferenceSection): boolean {
  if (PERSONAL_SECTIONS.includes(section)) return true;
  return settingEntriesOf(roles).some((entry) => ENTRY_SECTIONS[entry].includes(section));
}

/**
 * GET /api/lab/get-preferences (issue 6 contract): the lab roles and the center users read their
 * center's lab sections (slots, categories, departments) to register patients and make bills.
 */
export function canReadLabPreferences(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_LABS_RECEPTIONIST', 'ROLE_LABS_SUPERVISOR') || isCenterUser(roles);
}
