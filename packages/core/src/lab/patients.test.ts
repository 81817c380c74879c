import { describe, expect, it } from 'vitest';
import {
  LAB_PATIENT_MESSAGES as M,
  ZAllPatientSearch,
  ZLabPatientInput,
  ZLabPatientUpdate,
  ZRegisterPatientSearch,
  ageFromDateOfBirth,
  ageStringOf,
  clampAge,
  patientSearchOf,
} from './patients.js';

const GOOD = { name: 'Ravi Kumar', designation: 'MR', gender: 'M', mobileNumber: '9876543210' };
const firstMessage = (input: unknown, schema = ZLabPatientInput) => {
  const parsed = schema.safeParse(input);
  return parsed.success ? null : parsed.error.issues[0]?.message;
};

describe('age rules (spec-lab §5, §9)', () => {
  it.each([
    [
      { years: 34, months: 2, days: 3 },
      { years: 34, months: 2, days: 3 },
    ],
    [
      { years: 151, months: 12, days: 31 },
      { years: 150, months: 11, days: 30 },
    ],
    [
      { years: -5, months: -3, days: -40 },
      { years: 5, months: 3, days: 30 },
    ],
    [
      { years: 2.7, months: 0, days: 0 },
      { years: 2, months: 0, days: 0 },
    ],
    [
      { years: Number.NaN, months: 1, days: 0 },
      { years: 0, months: 1, days: 0 },
    ],
  ])('clampAge(%j) is %j', (age, clamped) => expect(clampAge(age)).toEqual(clamped));

  it.each([
    [{ years: 34, months: 5, days: 12 }, '34Y'],
    [{ years: 0, months: 5, days: 12 }, '5M'],
    [{ years: 0, months: 0, days: 12 }, '12D'],
    [{ years: 150, months: 11, days: 30 }, '150Y'],
    [{ years: 0, months: 0, days: 0 }, ''],
  ])('ageStringOf(%j) is %j, at most 10 characters', (age, text) => {
    expect(ageStringOf(age)).toBe(text);
    expect(ageStringOf(age).length).toBeLessThanOrEqual(10);
  });

  it.each([
    { years: -1, months: 0, days: 0 },
    { years: 0, months: -1, days: 0 },
    { years: 0, months: 0, days: -1 },
  ])('a negative part raises an error: %j', (age) => expect(() => ageStringOf(age)).toThrow(M.ageNegative));

  it.each([
    ['1990-05-20', '2026-11-27', { years: 36, months: 6, days: 7 }],
    ['2026-10-30', '2026-11-27', { years: 0, months: 0, days: 28 }],
    ['2024-02-29', '2026-02-28', { years: 1, months: 11, days: 30 }],
    ['1800-01-01', '2026-11-27', { years: 150, months: 10, days: 26 }],
    ['2026-11-27', '2026-11-27', { years: 0, months: 0, days: 0 }],
  ])('born %s, on %s the age is %j', (birth, today, age) =>
    expect(ageFromDateOfBirth(birth, today)).toEqual(age),
  );

  it('no age for a date ahead or one that does not exist', () => {
    expect(ageFromDateOfBirth('2026-11-28', '2026-11-27')).toBeNull();
    expect(ageFromDateOfBirth('2026-02-30', '2026-11-27')).toBeNull();
  });
});

describe('the patient input (POST/PUT /api/lab/register-patient)', () => {
  it('parses a good patient: blanks become null, age parts default 0 and are clamped', () => {
    expect(
      ZLabPatientInput.parse({ ...GOOD, name: ' Ravi Kumar ', email: ' ', ageYears: '200', ageMonths: 3 }),
    ).toEqual({
      name: 'Ravi Kumar',
      designation: 'MR',
      gender: 'M',
      mobileNumber: '9876543210',
      email: null,
      address: null,
      weight: null,
      dateBirth: null,
      ageYears: 150,
      ageMonths: 3,
      ageDays: 0,
    });
  });

  it.each([
    ['no name', { ...GOOD, name: undefined }, M.nameRequired],
    ['a blank name', { ...GOOD, name: '   ' }, M.nameRequired],
    ['no designation', { ...GOOD, designation: undefined }, M.designationRequired],
    ['an unknown designation', { ...GOOD, designation: 'SIR' }, M.designationRequired],
    ['no gender', { ...GOOD, gender: '' }, M.genderRequired],
    ['a mobile of 9 digits', { ...GOOD, mobileNumber: '987654321' }, M.mobileInvalid],
    ['a mobile starting 5', { ...GOOD, mobileNumber: '5876543210' }, M.mobileInvalid],
    ['a mobile with letters', { ...GOOD, mobileNumber: '98765abcde' }, M.mobileInvalid],
    ['a mobile of 11 digits', { ...GOOD, mobileNumber: '98765432101' }, M.mobileInvalid],
    ['a negative age', { ...GOOD, ageYears: -3 }, M.ageNegative],
    ['a fractional age', { ...GOOD, ageDays: 1.5 }, M.ageInvalid],
    ['a bad e-mail', { ...GOOD, email: 'ravi@' }, M.emailInvalid],
    ['a birth date ahead', { ...GOOD, dateBirth: '2999-01-01' }, M.dateBirthInvalid],
    ['a weight of 900', { ...GOOD, weight: 900 }, M.weightInvalid],
  ])('%s is refused with its message', (_name, input, message) => {
    expect(firstMessage(input)).toBe(message);
  });

  it.each(['6000000000', '7999999999', '8123456789', '9876543210', '', null, undefined])(
    'mobile %j is accepted (blank is none)',
    (mobileNumber) => expect(firstMessage({ ...GOOD, mobileNumber })).toBeNull(),
  );

  it('an update names the id and the version it read', () => {
    expect(firstMessage({ ...GOOD, id: 3 }, ZLabPatientUpdate)).not.toBeNull();
    expect(firstMessage({ ...GOOD, id: 3, version: 1 }, ZLabPatientUpdate)).toBeNull();
  });
});

describe('the searches', () => {
  it('search as you type: digits are a mobile prefix, other text a name, blank nothing', () => {
    expect(patientSearchOf(' 98765 ')).toEqual({ mobileNumber: '98765' });
    expect(patientSearchOf('ra')).toEqual({ name: 'ra' });
    expect(patientSearchOf('   ')).toBeNull();
    expect(patientSearchOf('98765432101')).toBeNull();
    expect(ZRegisterPatientSearch.parse({ name: ' ra ', mobileNumber: null })).toEqual({ name: 'ra' });
  });

  it('the all-patients search defaults to the newest first, 20 a page; sizes above 100 are refused', () => {
    expect(ZAllPatientSearch.parse({})).toMatchObject({
      page: 0,
      size: 20,
      orderingCriteria: 'id',
      sortOrder: 'DESC',
    });
    expect(ZAllPatientSearch.parse({ designation: '', gender: 'F' })).toMatchObject({
      designation: null,
      gender: 'F',
    });
    expect(ZAllPatientSearch.safeParse({ size: 101 }).success).toBe(false);
    expect(ZAllPatientSearch.safeParse({ orderingCriteria: 'password' }).success).toBe(false);
  });
});
