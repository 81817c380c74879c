import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { SETTINGS_MESSAGES as M } from './messages.js';
import {
  ZBillingDetailsSetting,
  ZContactInfoSetting,
  ZEditorPreferences,
  ZLabCategoryPriorityUpdate,
  ZLabDepartmentsSetting,
  ZReportTextSetting,
  ZSeriesNameSetting,
  ZTagsSetting,
  ZVerificationSettings,
  removedDepartment,
} from './sections.js';

/** The first message a value fails with, or null when it passes. */
function messageOf(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? '');
}

describe('SERIES_NAME (spec-lab §5 series mapping)', () => {
  it('keeps a list of mappings, trimmed', () => {
    expect(
      ZSeriesNameSetting.parse({ seriesMappings: [{ seriesName: ' T1 AX ', preferredName: 'Axial T1' }] }),
    ).toEqual({ seriesMappings: [{ seriesName: 'T1 AX', preferredName: 'Axial T1' }] });
  });
  it('needs both names', () => {
    expect(messageOf(ZSeriesNameSetting, { seriesMappings: [{ seriesName: 'T1' }] })).toBe(
      M.seriesNamesRequired,
    );
    expect(messageOf(ZSeriesNameSetting, { seriesMappings: [{ seriesName: ' ', preferredName: 'x' }] })).toBe(
      M.seriesNamesRequired,
    );
  });
  it('refuses a series name twice with the spec message', () => {
    const twice = {
      seriesMappings: [
        { seriesName: 'T1', preferredName: 'a' },
        { seriesName: 'T1', preferredName: 'b' },
      ],
    };
    expect(messageOf(ZSeriesNameSetting, twice)).toBe(
      'This series name already exists. Delete the previous entry to make new entry.',
    );
  });
});

describe('TAGS (spec-lab §5 tag)', () => {
  it('takes letters and digits, each tag once', () => {
    expect(ZTagsSetting.parse({ tags: ['Urgent', 'CT2', 'Urgent'] })).toEqual({ tags: ['Urgent', 'CT2'] });
  });
  it.each(['with space', 'dash-ed', '', 'ümlaut'])('refuses %j with the spec message', (tag) => {
    expect(messageOf(ZTagsSetting, { tags: [tag] })).toBe('No special characters or spaces allowed!');
  });
});

describe('LAB_DEPARTMENTS (spec-lab §5 department)', () => {
  it('trims and upper-cases', () => {
    expect(ZLabDepartmentsSetting.parse({ labDepartmentList: [' radiology '] })).toEqual({
      labDepartmentList: ['RADIOLOGY'],
      referringDoctorDepartmentList: [],
    });
  });
  it('refuses a duplicate after normalising, with the spec message', () => {
    expect(messageOf(ZLabDepartmentsSetting, { referringDoctorDepartmentList: ['Ortho', ' ORTHO'] })).toBe(
      'Department with the same name already exists.',
    );
  });
  it('refuses NONE in any case, with the spec message', () => {
    expect(messageOf(ZLabDepartmentsSetting, { labDepartmentList: ['none '] })).toBe(
      'Department name cannot be "NONE".',
    );
  });
  it('refuses a blank name', () => {
    expect(messageOf(ZLabDepartmentsSetting, { labDepartmentList: ['  '] })).toBe(M.departmentRequired);
  });
  it('names a department the new lists leave out (departments cannot be deleted)', () => {
    const before = { labDepartmentList: ['CT', 'MRI'], referringDoctorDepartmentList: ['ORTHO'] };
    expect(removedDepartment(before, { ...before, labDepartmentList: ['CT', 'MRI', 'US'] })).toBeNull();
    expect(removedDepartment(before, { ...before, labDepartmentList: ['CT'] })).toBe('MRI');
    expect(removedDepartment(before, { ...before, referringDoctorDepartmentList: [] })).toBe('ORTHO');
  });
});

describe('LAB_CATEGORY_PRIORITY (spec-lab §5 category or priority)', () => {
  const entry = (name: string, discount: unknown, type = 'PATIENT_CATEGORY') => ({ name, discount, type });
  it('keeps entries; a numeric text discount is a number; a priority has discount 0', () => {
    expect(
      ZLabCategoryPriorityUpdate.parse({
        categoriesAndPriorities: [entry('Senior', '12.5'), entry('Urgent', 5, 'PRIORITY')],
      }).categoriesAndPriorities,
    ).toEqual([
      { name: 'Senior', discount: 12.5, type: 'PATIENT_CATEGORY', disabled: false },
      { name: 'Urgent', discount: 0, type: 'PRIORITY', disabled: false },
    ]);
  });
  it.each([-1, '-0.5', 'ten', '1e'])('refuses discount %j with the spec message', (discount) => {
    expect(messageOf(ZLabCategoryPriorityUpdate, { categoriesAndPriorities: [entry('A', discount)] })).toBe(
      'Discount must be a valid numeric value and cannot be negative. Please enter a value of 0 or greater.',
    );
  });
  it('refuses the name none in any case', () => {
    expect(messageOf(ZLabCategoryPriorityUpdate, { categoriesAndPriorities: [entry('NoNe', 0)] })).toBe(
      M.categoryNone,
    );
  });
  it('refuses a duplicate name of the same type, case-insensitively; the other type may share it', () => {
    expect(
      messageOf(ZLabCategoryPriorityUpdate, {
        categoriesAndPriorities: [entry('Staff', 0), entry('STAFF', 1)],
      }),
    ).toBe(M.categoryDuplicate);
    expect(
      messageOf(ZLabCategoryPriorityUpdate, {
        categoriesAndPriorities: [entry('Stat', 0), entry('STAT', 0, 'PRIORITY')],
      }),
    ).toBeNull();
  });
});

describe('EDITOR_PREFERENCES (spec-lab §3, §9 lists)', () => {
  it('takes a size and a family of the lists', () => {
    expect(
      ZEditorPreferences.parse({ defaultEditorFontSize: 36, defaultEditorFontFamily: 'Tahoma' }),
    ).toMatchObject({
      defaultEditorFontSize: 36,
      defaultEditorFontFamily: 'Tahoma',
    });
  });
  it('refuses others', () => {
    expect(messageOf(ZEditorPreferences, { defaultEditorFontSize: 13 })).toBe(M.fontSizeInvalid);
    expect(messageOf(ZEditorPreferences, { defaultEditorFontFamily: 'Comic Sans' })).toBe(
      M.fontFamilyInvalid,
    );
  });
});

describe('REPORT_TEXT', () => {
  it('caps each HTML text', () => {
    expect(messageOf(ZReportTextSetting, { header: '<p>x</p>' })).toBeNull();
    expect(messageOf(ZReportTextSetting, { footer: 'x'.repeat(100_001) })).toBe(M.reportTextTooLong);
  });
});

describe('USER_INFORMATION = contact info', () => {
  it('takes a 10-digit mobile starting 6-9, or none', () => {
    expect(messageOf(ZContactInfoSetting, { mobileNumber: '9876543210' })).toBeNull();
    expect(messageOf(ZContactInfoSetting, { mobileNumber: '' })).toBeNull();
    for (const bad of ['5876543210', '987654321', '98765432100', '98765x3210']) {
      expect(messageOf(ZContactInfoSetting, { mobileNumber: bad })).toBe(M.mobileInvalid);
    }
  });
  it('checks the e-mail', () => {
    expect(ZContactInfoSetting.parse({ email: ' A@B.com ' }).email).toBe('a@b.com');
    expect(messageOf(ZContactInfoSetting, { email: 'not-mail' })).toBe(M.emailInvalid);
  });
});

describe('VERIFICATION_SETTINGS', () => {
  it('keeps the center/doctor pairs, e-mails checked', () => {
    const ok = {
      needVerification: true,
      centersAndDoctorsList: [{ centerEmail: 'c@x.in', doctorEmail: 'd@x.in' }],
    };
    expect(ZVerificationSettings.parse(ok)).toMatchObject(ok);
    expect(
      messageOf(ZVerificationSettings, {
        centersAndDoctorsList: [{ centerEmail: 'c@x.in', doctorEmail: 'd' }],
      }),
    ).toBe(M.emailInvalid);
  });
});

describe('BILLING_DETAILS (spec-lab §3 billing)', () => {
  it('trims, upper-cases PAN, IFSC and GST number, and defaults every field', () => {
    expect(
      ZBillingDetailsSetting.parse({
        pan: ' abcde1234f ',
        bankIFSC: 'hdfc0ab1234',
        gstNumber: '27aapfu0939f1zv',
      }),
    ).toEqual({
      logo: '',
      accName: '',
      bankName: '',
      bankAccount: '',
      bankIFSC: 'HDFC0AB1234',
      bankBranch: '',
      pan: 'ABCDE1234F',
      gstNumber: '27AAPFU0939F1ZV',
      gstPercentage: 0,
    });
  });
  it('accepts blank PAN, IFSC, account and logo', () => {
    expect(
      messageOf(ZBillingDetailsSetting, { pan: ' ', bankIFSC: '', bankAccount: '', logo: '' }),
    ).toBeNull();
  });
  it.each<[string, Record<string, unknown>, string]>([
    ['GST above 100', { gstPercentage: 100.01 }, M.gstPercentageInvalid],
    ['GST below 0', { gstPercentage: -0.5 }, M.gstPercentageInvalid],
    ['GST as text', { gstPercentage: '18' }, M.gstPercentageInvalid],
    ['a PAN of the wrong shape', { pan: 'ABCDE12345' }, M.panInvalid],
    ['an IFSC without the 0', { bankIFSC: 'SBIN1001234' }, M.ifscInvalid],
    ['an IFSC too short', { bankIFSC: 'SBIN000123' }, M.ifscInvalid],
    ['an account of 5 digits', { bankAccount: '12345' }, M.bankAccountInvalid],
    ['an account of 21 digits', { bankAccount: '1'.repeat(21) }, M.bankAccountInvalid],
    ['an account with letters', { bankAccount: '12345A789' }, M.bankAccountInvalid],
    ['a logo that is no link', { logo: 'logo.png' }, M.logoInvalid],
    ['a javascript: logo', { logo: 'javascript:alert(1)' }, M.logoInvalid],
    ['a logo over 1000 characters', { logo: `/api/assets/${'a'.repeat(1000)}` }, M.logoInvalid],
  ])('refuses %s', (_name, value, message) => {
    expect(messageOf(ZBillingDetailsSetting, value)).toBe(message);
  });
  it('accepts the edges', () => {
    for (const value of [
      { gstPercentage: 0 },
      { gstPercentage: 100 },
      { gstPercentage: 12.5 },
      { bankAccount: '123456' },
      { bankAccount: '1'.repeat(20) },
      { logo: 'https://cdn.example.com/logo.png' },
      { logo: '/api/assets/0123456789abcdef0123456789abcdef' },
    ]) {
      expect(messageOf(ZBillingDetailsSetting, value), JSON.stringify(value)).toBeNull();
    }
  });
});
