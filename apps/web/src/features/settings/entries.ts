import { SETTING_ENTRY_LABELS, type TSettingEntry } from '@radflow/core';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** What every settings dialog is: a default export taking only onClose (contract "entries.ts"). */
export type TSettingDialog = ComponentType<{ onClose: () => void }>;

/**
 * Each entry's dialog, loaded when first opened: the dialogs pull in TipTap and the settings forms,
 * which must stay out of the login and study list bundle.
 */
export const SETTING_DIALOGS: Record<TSettingEntry, LazyExoticComponent<TSettingDialog>> = {
  SIGNATURE: lazy(() => import('./dialogs/SignatureDialog')),
  SERIES_NAMES: lazy(() => import('./dialogs/SeriesNamesDialog')),
  REPORT_TEXT: lazy(() => import('./dialogs/ReportTextDialog')),
  PDF_MARGINS: lazy(() => import('./dialogs/PdfMarginsDialog')),
  CONTACT_INFO: lazy(() => import('./dialogs/ContactInfoDialog')),
  TAGS: lazy(() => import('./dialogs/TagsDialog')),
  FORWARDING_PACS: lazy(() => import('./dialogs/ForwardingPacsDialog')),
  VIEWER_SETTING: lazy(() => import('./dialogs/ViewerSettingDialog')),
  STUDY_TABLE_SETTING: lazy(() => import('./dialogs/StudyTableSettingDialog')),
  EDITOR_SETTING: lazy(() => import('./dialogs/EditorSettingDialog')),
  TABLE_COLUMNS: lazy(() => import('./dialogs/TableColumnsDialog')),
  SLOTS: lazy(() => import('./dialogs/SlotsDialog')),
  CATEGORY_AND_PRIORITY: lazy(() => import('./dialogs/CategoryPriorityDialog')),
  LAB_DEPARTMENTS: lazy(() => import('./dialogs/LabDepartmentsDialog')),
  INVOICE_PREFIX: lazy(() => import('./dialogs/InvoicePrefixDialog')),
  BILLING_DETAILS: lazy(() => import('./dialogs/BillingDetailsDialog')),
  VERIFICATION_SETTINGS: lazy(() => import('./dialogs/VerificationSettingsDialog')),
  AUTO_REFRESH: lazy(() => import('./dialogs/AutoRefreshDialog')),
};

export interface TSettingEntryView {
  entry: TSettingEntry;
  label: string;
  Dialog: LazyExoticComponent<TSettingDialog>;
}

export function settingEntryView(entry: TSettingEntry): TSettingEntryView {
  return { entry, label: SETTING_ENTRY_LABELS[entry], Dialog: SETTING_DIALOGS[entry] };
}
