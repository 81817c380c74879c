import { describe, expect, it } from 'vitest';
import { computePatientAge, patientAgeOf } from './patient-age.js';

describe("the patient's age (AS)", () => {
  it('counts years from two, then months, weeks and days', () => {
    expect(computePatientAge('19800615', '20250614')).toBe('044Y');
    expect(computePatientAge('19800615', '20250615')).toBe('045Y');
    expect(computePatientAge('20240101', '20250601')).toBe('017M');
    expect(computePatientAge('20250501', '20250601')).toBe('001M');
    expect(computePatientAge('20250520', '20250601')).toBe('001W');
    expect(computePatientAge('20250529', '20250601')).toBe('003D');
  });
  it('knows no age from a missing, impossible or later birth date', () => {
    expect(computePatientAge(null, '20250601')).toBeNull();
    expect(computePatientAge('20250231', '20250601')).toBeNull();
    expect(computePatientAge('20260101', '20250601')).toBeNull();
  });
  it("prefers the instance's own Patient's Age to one computed", () => {
    expect(patientAgeOf({ patientAge: '030Y\0', patientBirthDate: '19800615', studyDate: '20250615' })).toBe(
      '030Y',
    );
    expect(patientAgeOf({ patientAge: ' ', patientBirthDate: '19800615', studyDate: '20250615' })).toBe(
      '045Y',
    );
    expect(patientAgeOf({ patientAge: null, patientBirthDate: null, studyDate: '20250615' })).toBeNull();
  });
});
