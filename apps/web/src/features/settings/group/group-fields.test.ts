import { GROUP_SETTING_EXPLANATIONS, PREFERENCE_SECTIONS, defaultPreferences } from '@radflow/core';
import { describe, expect, it } from 'vitest';
import {
  GROUP_PANEL_SECTIONS,
  buildGroupFields,
  currentValue,
  filterGroupFields,
  formatSettingValue,
  inputToValue,
  readableFieldName,
  type TGroupField,
  type TGroupFieldEditor,
} from './group-fields';

const fields = buildGroupFields();
const byName = (name: string) => {
  const found = fields.find((f) => f.field === name);
  if (!found) throw new Error(`no row for ${name}`);
  return found;
};

describe('buildGroupFields', () => {
  it.each(GROUP_PANEL_SECTIONS)('has one row for every field of %s, in core order', (section) => {
    expect(fields.filter((f) => f.section === section).map((f) => f.field)).toEqual(
      Object.keys(PREFERENCE_SECTIONS[section].shape),
    );
  });

  it("carries core's one-line explanation on every row", () => {
    for (const f of fields) {
      expect(f.explanation, f.field).toBe(
        (GROUP_SETTING_EXPLANATIONS[f.section] as Record<string, string>)[f.field],
      );
      expect(f.explanation.length, f.field).toBeGreaterThan(0);
    }
  });

  it('edits booleans with a switch and strings with a text field', () => {
    expect(byName('hideSummaryPage').editor).toEqual({ kind: 'switch' });
    expect(byName('appointmentSupportRIS').editor).toEqual({ kind: 'switch' });
    expect(byName('customRouterUrl').editor).toEqual({ kind: 'text', emptyIsNull: false });
  });

  it('offers the sign-off limits of spec-lab §9 or none, and the three zip anonymisation types', () => {
    const limit = byName('signOffTimeLimit').editor;
    expect(limit.kind === 'select' && limit.options.map((o) => o.value)).toEqual([
      '',
      '30',
      '60',
      '90',
      '120',
      '150',
      '180',
    ]);
    const zip = byName('anonymizeZipType').editor;
    expect(zip.kind === 'select' && zip.options.map((o) => o.value)).toEqual([
      'NONE',
      'SOLE_DOCTOR_ONLY',
      'ALL',
    ]);
    expect(byName('durationOfBackupInMonth').editor.kind).toBe('integer');
    expect(byName('appDomain').editor).toEqual({ kind: 'text', emptyIsNull: true });
  });

  it('reads the current value from the section', () => {
    const prefs = defaultPreferences();
    prefs.GROUP_SWITCHES.openInHoros = true;
    expect(currentValue(prefs, byName('openInHoros'))).toBe(true);
    expect(currentValue(prefs, byName('signOffTimeLimit'))).toBeNull();
  });
});

describe('readableFieldName', () => {
  it.each([
    ['removeCenterNameWhileUploading', 'Remove center name while uploading'],
    ['showRedAfterTAT', 'Show red after TAT'],
    ['appendQrCodeToReport', 'Append QR code to report'],
    ['addForwardingPacsFeature', 'Add forwarding PACS feature'],
    ['createPatientInRisWithoutShowingDialog', 'Create patient in RIS without showing dialog'],
    ['appointmentSupportRIS', 'Appointment support RIS'],
    ['enableSummaryPdfRIS', 'Enable summary PDF RIS'],
    ['amuSpecialCustomization', 'AMU special customization'],
    ['customRouterUrl', 'Custom router URL'],
    ['doNotSendWhatsappMessage', 'Do not send WhatsApp message'],
    ['disableReSignOffOfReport', 'Disable re-sign-off of report'],
    ['appDomain', 'App domain'],
  ])('%s → %s', (field, label) => {
    expect(readableFieldName(field)).toBe(label);
  });
});

describe('filterGroupFields', () => {
  const row = (field: string, explanation: string): TGroupField => ({
    section: 'GROUP_SWITCHES',
    field,
    label: readableFieldName(field),
    explanation,
    arrivesWith: null,
    editor: { kind: 'switch' },
  });
  const rows = [
    row('disableDownloadZipForDoctor', 'Doctors get no zip button.'),
    row('allowReferringDoctorToDownloadZip', 'Referring doctors may download the zip.'),
    row('openInHoros', 'Offers Horos on Mac.'),
  ];

  it('keeps rows whose name or explanation holds every word typed, any case', () => {
    expect(filterGroupFields(rows, 'zip DOCTOR').map((f) => f.field)).toEqual([
      'disableDownloadZipForDoctor',
      'allowReferringDoctorToDownloadZip',
    ]);
    expect(filterGroupFields(rows, 'mac').map((f) => f.field)).toEqual(['openInHoros']);
  });

  it('matches the field name as stored', () => {
    expect(filterGroupFields(fields, 'appointmentSupportRIS').map((f) => f.field)).toEqual([
      'appointmentSupportRIS',
    ]);
  });

  it('keeps everything for an empty filter and nothing for a word no row holds', () => {
    expect(filterGroupFields(fields, '  ')).toHaveLength(fields.length);
    expect(filterGroupFields(fields, 'no-such-setting')).toEqual([]);
  });
});

describe('inputToValue', () => {
  const integer: TGroupFieldEditor = { kind: 'integer', emptyIsNull: true };
  const limit = byName('signOffTimeLimit').editor;
  const domain = byName('appDomain').editor;

  it('turns a whole number into a number and empty into none', () => {
    expect(inputToValue(integer, ' 6 ')).toEqual({ ok: true, value: 6 });
    expect(inputToValue(integer, '')).toEqual({ ok: true, value: null });
  });

  it.each(['0', '-2', '1.5', 'six'])('refuses %s for a whole number', (text) => {
    expect(inputToValue(integer, text).ok).toBe(false);
  });

  it('sends the chosen sign-off limit as minutes, None as null', () => {
    expect(inputToValue(limit, '90')).toEqual({ ok: true, value: 90 });
    expect(inputToValue(limit, '')).toEqual({ ok: true, value: null });
  });

  it('trims a domain and sends empty as none', () => {
    expect(inputToValue(domain, ' rad.example.com ')).toEqual({ ok: true, value: 'rad.example.com' });
    expect(inputToValue(domain, '')).toEqual({ ok: true, value: null });
  });
});

describe('formatSettingValue', () => {
  it.each([
    [true, 'on'],
    [false, 'off'],
    [null, 'none'],
    [60, '60'],
    ['ALL', 'ALL'],
    ['', '(empty)'],
  ])('%s → %s', (value, text) => {
    expect(formatSettingValue(value)).toBe(text);
  });
});

describe('buildGroupFields: switches whose screens come later', () => {
  it('says what brings the screen of a switch that is only stored for now', () => {
    const fields = buildGroupFields();
    const lab = fields.find((f) => f.field === 'enableRISCategory');
    expect(lab?.arrivesWith).toBe('the lab module');
    expect(fields.find((f) => f.field === 'hideStudyDateColumn')?.arrivesWith).toBeNull();
  });
});
