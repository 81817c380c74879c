import { z } from 'zod';
import { ZPageResponse } from '../common/schemas.js';
import { EMAIL_PATTERN, MOBILE_PATTERN } from '../common/validation.js';
import { LAB_LIMITS, PATIENT_DESIGNATIONS, PATIENT_GENDERS } from './entities.js';

/**
 * The lab's patients (spec-lab §3 Patient, §5 Patient, §7 register-patient and all-patient calls):
 * the one home of their rules, read by the patient dialog and by the server.
 */

export const LAB_PATIENT_MESSAGES = {
  nameRequired: 'Name is required',
  designationRequired: 'Designation is required',
  genderRequired: 'Gender is required',
  /** spec-lab §5, word for word. */
  mobileInvalid: 'Mobile number should be 10 digit and start with 6,7,8 or 9',
  emailInvalid: 'Enter a valid e-mail address',
  ageNegative: 'Age cannot be negative',
  ageInvalid: 'Age must be a whole number',
  weightInvalid: 'Weight must be a number between 0 and 500',
  dateBirthInvalid: 'Date of birth must be a past date (yyyy-MM-dd)',
  notFound: 'Patient not found',
  stale: 'This patient was changed by someone else meanwhile. Reload and try again.',
  /** spec-lab §8 loading and success messages. */
  creating: 'Creating Patient',
  updating: 'Updating Patient',
  created: 'Patient Created',
  updated: 'Patient Updated',
} as const;

const M = LAB_PATIENT_MESSAGES;

/** A patient's name is at most this long (a name, not a note). */
export const PATIENT_NAME_MAX = 200;
/** A UHID typed into a search: prefix (≤ 20) and sequence (≤ 13 digits). */
const UHID_SEARCH_MAX = 40;

export interface TLabAge {
  years: number;
  months: number;
  days: number;
}

/** spec-lab §5: one age part as the dialog keeps it: its absolute whole value, at most `max`. */
export function clampAgePart(value: number, max: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(Math.abs(Math.trunc(value)), max);
}

/** spec-lab §5/§9: years ≤ 150, months ≤ 11, days ≤ 30, absolute values. */
export function clampAge(age: TLabAge): TLabAge {
  return {
    years: clampAgePart(age.years, LAB_LIMITS.ageYears),
    months: clampAgePart(age.months, LAB_LIMITS.ageMonths),
    days: clampAgePart(age.days, LAB_LIMITS.ageDays),
  };
}

/**
 * spec-lab §5 age string: the years ('34Y'), else the months ('5M'), else the days ('12D'); '' when
 * no part is set (an age nobody typed is not "0 days"). At most '150Y': within §9's 10 characters.
 * A negative part is a caller's bug (the dialog and the server never pass one): it throws.
 */
export function ageStringOf(age: TLabAge): string {
  for (const part of [age.years, age.months, age.days]) {
    if (part < 0) throw new RangeError(M.ageNegative);
  }
  if (age.years > 0) return `${age.years}Y`;
  if (age.months > 0) return `${age.months}M`;
  if (age.days > 0) return `${age.days}D`;
  return '';
}

/**
 * The age on `today` of someone born on `dateBirth` (both yyyy-MM-dd): whole years, then months,
 * then days, clamped as the dialog keeps them. Null for a date that does not parse or lies ahead.
 */
export function ageFromDateOfBirth(dateBirth: string, today: string): TLabAge | null {
  const birth = parseDay(dateBirth);
  const now = parseDay(today);
  if (!birth || !now || dateBirth > today) return null;
  let years = now.y - birth.y;
  let months = now.m - birth.m;
  let days = now.d - birth.d;
  if (days < 0) {
    months -= 1;
    // Days of the month before `today`'s month.
    days += new Date(Date.UTC(now.y, now.m - 1, 0)).getUTCDate();
  }
  if (months < 0) {
    years -= 1;
    months += 12;
  }
  return clampAge({ years, months, days });
}

function parseDay(text: string): { y: number; m: number; d: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return { y, m, d };
}

/** A patient's mobile: blank is none; otherwise 10 digits starting 6-9 (spec-lab §5). */
export function isPatientMobile(value: string): boolean {
  return MOBILE_PATTERN.test(value.trim());
}

// ---- Wire schemas ----

const blankToNull = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '') ? null : value;

const optionalText = (max: number, message: string, pattern?: RegExp) =>
  z.preprocess(
    blankToNull,
    z
      .string({ error: message })
      .trim()
      .max(max, message)
      .refine((v) => !pattern || pattern.test(v), message)
      .nullable(),
  );

/** An age part: a whole number, not negative (§5: "a negative age part raises an error"), clamped. */
const agePart = (max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? 0 : typeof v === 'string' ? Number(v) : v),
    z
      .number({ error: M.ageInvalid })
      .int(M.ageInvalid)
      .min(0, M.ageNegative)
      .transform((v) => Math.min(v, max)),
  );

const requiredEnum = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.enum(values, { error: message });

/** The fields of the create/edit patient dialog (POST and PUT /api/lab/register-patient). */
const patientFields = {
  name: z
    .string({ error: M.nameRequired })
    .trim()
    .min(1, M.nameRequired)
    .max(PATIENT_NAME_MAX, `Name must be at most ${PATIENT_NAME_MAX} characters`),
  designation: requiredEnum(PATIENT_DESIGNATIONS, M.designationRequired),
  gender: requiredEnum(PATIENT_GENDERS, M.genderRequired),
  mobileNumber: optionalText(10, M.mobileInvalid, MOBILE_PATTERN),
  email: optionalText(254, M.emailInvalid, EMAIL_PATTERN),
  address: optionalText(500, 'Address must be at most 500 characters'),
  weight: z.preprocess(
    (v) => (blankToNull(v) === null ? null : typeof v === 'string' ? Number(v) : v),
    z.number({ error: M.weightInvalid }).min(0, M.weightInvalid).max(500, M.weightInvalid).nullable(),
  ),
  dateBirth: optionalText(10, M.dateBirthInvalid, /^\d{4}-\d{2}-\d{2}$/).refine(
    (v) => v === null || (parseDay(v) !== null && v <= new Date().toISOString().slice(0, 10)),
    M.dateBirthInvalid,
  ),
  ageYears: agePart(LAB_LIMITS.ageYears),
  ageMonths: agePart(LAB_LIMITS.ageMonths),
  ageDays: agePart(LAB_LIMITS.ageDays),
};

/** POST /api/lab/register-patient. The UHID is the server's (the lab's prefix and sequence). */
export const ZLabPatientInput = z.object(patientFields);
export type TLabPatientInput = z.infer<typeof ZLabPatientInput>;
/** What the dialog holds before parsing (strings from text fields, numbers). */
export type TLabPatientDraft = z.input<typeof ZLabPatientInput>;

/** PUT /api/lab/register-patient: the patient's id and the version the editor read. */
export const ZLabPatientUpdate = z.object({
  id: z.number().int().positive(),
  version: z.number().int().positive(),
  ...patientFields,
});
export type TLabPatientUpdate = z.infer<typeof ZLabPatientUpdate>;

export const ZLabPatient = z
  .object({
    id: z.number().int(),
    uhidNumber: z.string(),
    name: z.string(),
    mobileNumber: z.string().nullable(),
    email: z.string().nullable(),
    address: z.string().nullable(),
    gender: z.enum(PATIENT_GENDERS),
    designation: z.enum(PATIENT_DESIGNATIONS),
    weight: z.number().nullable(),
    dateBirth: z.string().nullable(),
    ageString: z.string(),
    ageYears: z.number().int(),
    ageMonths: z.number().int(),
    ageDays: z.number().int(),
    createdAt: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'LabPatient' });
export type TLabPatient = z.infer<typeof ZLabPatient>;

const searchText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v === null ? undefined : v),
    z.string().max(max).optional(),
  );

/**
 * POST /api/lab/register-patient/search: the front desk's search as you type. Blank text finds
 * nothing (spec-lab §5 "Patient and doctor search return nothing for empty text").
 */
export const ZRegisterPatientSearch = z.object({
  mobileNumber: searchText(10),
  name: searchText(PATIENT_NAME_MAX),
});
export type TRegisterPatientSearch = z.infer<typeof ZRegisterPatientSearch>;
/** How many patients the search as you type answers at most. */
export const PATIENT_SUGGESTIONS_MAX = 20;
export const ZRegisterPatientSearchAnswer = z.array(ZLabPatient);

/** The columns the all-patients list sorts by. */
export const LAB_PATIENT_SORTS = ['id', 'name', 'uhidNumber', 'mobileNumber', 'createdAt'] as const;
export type TLabPatientSort = (typeof LAB_PATIENT_SORTS)[number];

/** POST /api/lab/all-patient/search: the all-patients list's filters, page and order. */
export const ZAllPatientSearch = z.object({
  name: searchText(PATIENT_NAME_MAX),
  mobileNumber: searchText(10),
  uhidNumber: searchText(UHID_SEARCH_MAX),
  designation: z.preprocess(blankToNull, z.enum(PATIENT_DESIGNATIONS).nullable().optional()),
  gender: z.preprocess(blankToNull, z.enum(PATIENT_GENDERS).nullable().optional()),
  page: z.number().int().min(0).default(0),
  size: z.number().int().min(1).max(LAB_LIMITS.pageSizeMax).default(20),
  orderingCriteria: z.enum(LAB_PATIENT_SORTS).default('id'),
  sortOrder: z.enum(['ASC', 'DESC']).default('DESC'),
});
export type TAllPatientSearch = z.infer<typeof ZAllPatientSearch>;
export const ZLabPatientPage = ZPageResponse(ZLabPatient);
export type TLabPatientPage = z.infer<typeof ZLabPatientPage>;

/** The line a picker shows for a patient: 'MR Ravi Kumar · 34Y · M · 9876543210 · UH1001'. */
export function patientLabel(p: {
  designation: string;
  name: string;
  ageString: string;
  gender: string;
  mobileNumber: string | null;
  uhidNumber: string;
}): string {
  return [`${p.designation} ${p.name}`, p.ageString, p.gender, p.mobileNumber, p.uhidNumber]
    .filter(Boolean)
    .join(' · ');
}

/**
 * How the search box's text is sent (register-patient/search {mobileNumber, name}): digits are a
 * mobile prefix, anything else a name; blank is nothing to search.
 */
export function patientSearchOf(text: string): TRegisterPatientSearch | null {
  const value = text.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return value.length <= 10 ? { mobileNumber: value } : null;
  return { name: value.slice(0, PATIENT_NAME_MAX) };
}
