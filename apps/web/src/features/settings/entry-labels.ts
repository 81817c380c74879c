import type { TSettingEntry } from '@radflow/core';

/** The spec's words for each settings entry (spec-lab §2), Title Case as the contract lists them. */
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
