import {
  ANONYMIZE_ZIP_TYPES,
  GROUP_SETTING_ARRIVES_WITH,
  GROUP_SETTING_EXPLANATIONS,
  PREFERENCE_SECTIONS,
  SIGN_OFF_TIME_LIMIT_OPTIONS,
  type TUserPreferences,
} from '@radflow/core';

/**
 * The rows of the group settings screen: every field of the three group sections of spec-core §3
 * (USER_ADMIN_VISIBLE_PREFERENCES, the further group switches with spec-lab §6's feature switches,
 * and the admin/performance values), read from core's PREFERENCE_SECTIONS so a switch added there
 * appears here without a change to this file.
 */

export const GROUP_PANEL_SECTIONS = [
  'USER_ADMIN_VISIBLE_PREFERENCES',
  'GROUP_SWITCHES',
  'ADMIN_PREFERENCES',
] as const;
export type TGroupPanelSection = (typeof GROUP_PANEL_SECTIONS)[number];

export const GROUP_SECTION_TITLES: Record<TGroupPanelSection, string> = {
  USER_ADMIN_VISIBLE_PREFERENCES: 'Visible group settings',
  GROUP_SWITCHES: 'Group switches',
  ADMIN_PREFERENCES: 'Admin and performance values',
};

export type TGroupFieldEditor =
  | { kind: 'switch' }
  | { kind: 'text'; emptyIsNull: boolean }
  | { kind: 'integer'; emptyIsNull: true }
  | { kind: 'select'; options: readonly { value: string; label: string }[]; emptyIsNull: boolean };

export interface TGroupField {
  section: TGroupPanelSection;
  field: string;
  label: string;
  explanation: string;
  /** What brings the screen that reads it, when that is not built yet (core GROUP_SETTING_ARRIVES_WITH). */
  arrivesWith: string | null;
  editor: TGroupFieldEditor;
}

/** The select and "none" value of the admin values (spec-lab §9 sign-off options, spec-core §3). */
export const NONE_OPTION = '';
const ADMIN_EDITORS: Record<string, TGroupFieldEditor> = {
  signOffTimeLimit: {
    kind: 'select',
    emptyIsNull: true,
    options: [
      { value: NONE_OPTION, label: 'None' },
      ...SIGN_OFF_TIME_LIMIT_OPTIONS.map((m) => ({ value: String(m), label: `${m} minutes` })),
    ],
  },
  durationOfBackupInMonth: { kind: 'integer', emptyIsNull: true },
  // Empty = core's default time (30 minutes); the server's bounds (5-1440) answer other numbers.
  criticalResultEscalationMinutes: { kind: 'integer', emptyIsNull: true },
  anonymizeZipType: {
    kind: 'select',
    emptyIsNull: false,
    options: ANONYMIZE_ZIP_TYPES.map((t) => ({ value: t, label: t })),
  },
  appDomain: { kind: 'text', emptyIsNull: true },
};

/** Words that read as acronyms or proper names once a camelCase name is split. */
const WORD_SPELLING: Record<string, string> = {
  amu: 'AMU',
  gic: 'GIC',
  horos: 'Horos',
  pacs: 'PACS',
  pdf: 'PDF',
  python: 'Python',
  qr: 'QR',
  ris: 'RIS',
  tat: 'TAT',
  url: 'URL',
  weasis: 'Weasis',
  whatsapp: 'WhatsApp',
  zip: 'ZIP',
};

/** Names the word split reads badly. */
const LABEL_OVERRIDES: Record<string, string> = {
  disableReSignOffOfReport: 'Disable re-sign-off of report',
  teleMedSpecificCustomization: 'Telemed-specific customization',
  useInBrowserPythonApp: 'Use in-browser Python app',
  signOffTimeLimit: 'Sign-off time limit',
  durationOfBackupInMonth: 'Backup duration in months',
  criticalResultEscalationMinutes: 'Critical result escalation (minutes)',
  enableSupportChatBot: 'Enable support chatbot',
};

/** 'showRedAfterTAT' → 'Show red after TAT'; 'appendQrCodeToReport' → 'Append QR code to report'. */
export function readableFieldName(field: string): string {
  const override = LABEL_OVERRIDES[field];
  if (override) return override;
  const words = field.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [field];
  return words
    .map((word, i) => {
      const lower = word.toLowerCase();
      const spelled = WORD_SPELLING[lower];
      if (spelled) return spelled;
      // An all-capitals run the split kept whole is an acronym the map does not know yet.
      if (word.length > 1 && word === word.toUpperCase()) return word;
      return i === 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
    })
    .join(' ');
}

function editorFor(section: TGroupPanelSection, field: string, defaultValue: unknown): TGroupFieldEditor {
  if (section === 'ADMIN_PREFERENCES' && ADMIN_EDITORS[field]) return ADMIN_EDITORS[field];
  if (typeof defaultValue === 'boolean') return { kind: 'switch' };
  return { kind: 'text', emptyIsNull: defaultValue === null };
}

/** Every row of the screen, section by section, in the order core declares the fields. */
export function buildGroupFields(): TGroupField[] {
  return GROUP_PANEL_SECTIONS.flatMap((section) => {
    const defaults = PREFERENCE_SECTIONS[section].parse({}) as Record<string, unknown>;
    const explanations = GROUP_SETTING_EXPLANATIONS[section] as Record<string, string | undefined>;
    return Object.keys(PREFERENCE_SECTIONS[section].shape).map((field) => ({
      section,
      field,
      label: readableFieldName(field),
      explanation: explanations[field] ?? '',
      arrivesWith: GROUP_SETTING_ARRIVES_WITH[field] ?? null,
      editor: editorFor(section, field, defaults[field]),
    }));
  });
}

/** The rows whose name, field name, section or explanation hold every word typed (any case). */
export function filterGroupFields(fields: readonly TGroupField[], query: string): TGroupField[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...fields];
  return fields.filter((f) => {
    const text = `${f.label} ${f.field} ${f.section} ${f.explanation}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

export function currentValue(prefs: TUserPreferences, f: Pick<TGroupField, 'section' | 'field'>): unknown {
  return (prefs[f.section] as Record<string, unknown>)[f.field];
}

/** What a text, number or select editor shows for a stored value ('' for none). */
export function valueToInput(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

export type TParsedInput = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * The value to send for what the user typed or chose. Only shapes are checked here (a whole positive
 * number); the server's section schema stays the judge of the rest and its refusal is shown.
 */
export function inputToValue(editor: TGroupFieldEditor, input: string): TParsedInput {
  const text = input.trim();
  if (editor.kind === 'switch') return { ok: true, value: input === 'true' };
  if (editor.kind === 'integer') {
    if (text === '') return { ok: true, value: null };
    if (!/^\d+$/.test(text) || Number(text) < 1)
      return { ok: false, error: 'Enter a whole number of 1 or more, or leave it empty for none.' };
    return { ok: true, value: Number(text) };
  }
  if (editor.kind === 'select' && editor.emptyIsNull) {
    return { ok: true, value: text === NONE_OPTION ? null : Number(text) };
  }
  if (editor.emptyIsNull && text === '') return { ok: true, value: null };
  return { ok: true, value: editor.kind === 'select' ? input : text };
}

/** One stored value as the change list shows it. */
export function formatSettingValue(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  return JSON.stringify(value);
}
