import { SETTING_ENTRY_LABELS, type TSettingEntry } from '@radflow/core';
import { type ComponentType } from 'react';
import { preloadable, type TPreloadable } from '../../lib/preloadable';

/** What every settings dialog is: a default export taking only onClose (contract "entries.ts"). */
export type TSettingDialog = ComponentType<{ onClose: () => void }>;

/**
 * Each entry's dialog, loaded when first opened: the dialogs pull in TipTap and the settings forms,
 * which must stay out of the login and study list bundle.
 */
export const SETTING_DIALOGS: Record<TSettingEntry, TPreloadable<TSettingDialog>> = {
  SIGNATURE: preloadable(() => import('./dialogs/SignatureDialog')),
  SERIES_NAMES: preloadable(() => import('./dialogs/SeriesNamesDialog')),
  REPORT_TEXT: preloadable(() => import('./dialogs/ReportTextDialog')),
  PDF_MARGINS: preloadable(() => import('./dialogs/PdfMarginsDialog')),
  CONTACT_INFO: preloadable(() => import('./dialogs/ContactInfoDialog')),
  TAGS: preloadable(() => import('./dialogs/TagsDialog')),
  FORWARDING_PACS: preloadable(() => import('./dialogs/ForwardingPacsDialog')),
  VIEWER_SETTING: preloadable(() => import('./dialogs/ViewerSettingDialog')),
  STUDY_TABLE_SETTING: preloadable(() => import('./dialogs/StudyTableSettingDialog')),
  EDITOR_SETTING: preloadable(() => import('./dialogs/EditorSettingDialog')),
  TABLE_COLUMNS: preloadable(() => import('./dialogs/TableColumnsDialog')),
  SLOTS: preloadable(() => import('./dialogs/SlotsDialog')),
  CATEGORY_AND_PRIORITY: preloadable(() => import('./dialogs/CategoryPriorityDialog')),
  LAB_DEPARTMENTS: preloadable(() => import('./dialogs/LabDepartmentsDialog')),
  INVOICE_PREFIX: preloadable(() => import('./dialogs/InvoicePrefixDialog')),
  BILLING_DETAILS: preloadable(() => import('./dialogs/BillingDetailsDialog')),
  VERIFICATION_SETTINGS: preloadable(() => import('./dialogs/VerificationSettingsDialog')),
  AUTO_REFRESH: preloadable(() => import('./dialogs/AutoRefreshDialog')),
};

export interface TSettingEntryView {
  entry: TSettingEntry;
  label: string;
  Dialog: TPreloadable<TSettingDialog>;
}

export function settingEntryView(entry: TSettingEntry): TSettingEntryView {
  return { entry, label: SETTING_ENTRY_LABELS[entry], Dialog: SETTING_DIALOGS[entry] };
}
