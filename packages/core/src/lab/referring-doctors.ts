import { z } from 'zod';
import { ZPageResponse } from '../common/schemas.js';
import { MOBILE_PATTERN } from '../common/validation.js';
import { LAB_LIMITS } from './entities.js';

/**
 * The lab's referring doctors (spec-lab §3 Referring doctor, §4, §5 Referring doctor, §7
 * referring-doctor calls, §8): the one home of their rules, read by the dialogs and the server.
 */

export const REFERRING_DOCTOR_MESSAGES = {
  nameRequired: 'Name is required',
  /** spec-lab §5, word for word (its spelling too). */
  cannotDeactivateAtCreation: 'Refering doctor cannot be deactivated during creation.',
  mobileInvalid: 'Mobile number should be 10 digit and start with 6,7,8 or 9',
  departmentFixed: 'The department of a referring doctor cannot be changed once it is set.',
  createConfirm: 'You are trying to create a new Referring Doctor. Do you wish to continue?',
  statusError: 'Error updating the status',
  notFound: 'Referring doctor not found',
  stale: 'This referring doctor was changed by someone else meanwhile. Reload and try again.',
  /** spec-lab §8 loading and success messages, word for word. */
  creating: 'Creating Referring Doctor',
  updating: 'Updating ReferringDoctor',
  created: 'Referring Doctor Created',
  updated: 'Referring Doctor Updated',
} as const;

const M = REFERRING_DOCTOR_MESSAGES;

/** spec-lab §5: 'Are you sure you want to change the status to Active?' (or Inactive). */
export function referringDoctorStatusConfirm(nextActive: boolean): string {
  return `Are you sure you want to change the status to ${nextActive ? 'Active' : 'Inactive'}?`;
}

/** A department the lab does not list for referring doctors (LAB_DEPARTMENTS). */
export function unknownDepartmentMessage(department: string): string {
  return `${department} is not one of the lab's referring doctor departments`;
}

/** The department picker's first option: choosing it means "no department" (spec-lab §5). */
export const DEPARTMENT_NONE_OPTION = 'None';
export const REFERRING_DOCTOR_NAME_MAX = 200;

/**
 * spec-lab §5 "Department option None maps to null": the picker's None, a blank or null is no
 * department; any other name is kept as the settings store them (trimmed, upper case).
 */
export function departmentOfOption(option: string | null | undefined): string | null {
  const name = option?.trim() ?? '';
  if (!name || name.toUpperCase() === DEPARTMENT_NONE_OPTION.toUpperCase()) return null;
  return name.toUpperCase();
}

/**
 * spec-lab §5 "Once a department is set it cannot be changed while editing": the refusal for an
 * edit from `before` to `after`, or null when allowed (setting a first department is allowed).
 */
export function departmentChangeProblem(before: string | null, after: string | null): string | null {
  return before !== null && after !== before ? M.departmentFixed : null;
}

const departmentField = z.preprocess(
  (v) => (v === undefined || v === null || typeof v === 'string' ? departmentOfOption(v) : v),
  z.string().max(100).nullable(),
);

const doctorFields = {
  name: z
    .string({ error: M.nameRequired })
    .trim()
    .min(1, M.nameRequired)
    .max(REFERRING_DOCTOR_NAME_MAX, `Name must be at most ${REFERRING_DOCTOR_NAME_MAX} characters`),
  mobileNumber: z.preprocess(
    (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? null : v),
    z.string({ error: M.mobileInvalid }).trim().regex(MOBILE_PATTERN, M.mobileInvalid).nullable(),
  ),
  department: departmentField,
};

/** POST /api/lab/referring-doctor: a new doctor is active (spec-lab §4); `active: false` is refused. */
export const ZReferringDoctorInput = z.object({
  ...doctorFields,
  active: z
    .boolean()
    .default(true)
    .refine((active) => active, M.cannotDeactivateAtCreation),
});
export type TReferringDoctorInput = z.infer<typeof ZReferringDoctorInput>;

/** PUT /api/lab/referring-doctor: the doctor's id, the version the editor read, the fields. */
export const ZReferringDoctorUpdate = z.object({
  id: z.number().int().positive(),
  version: z.number().int().positive(),
  ...doctorFields,
  active: z.boolean(),
});
export type TReferringDoctorUpdate = z.infer<typeof ZReferringDoctorUpdate>;

export const ZReferringDoctor = z
  .object({
    id: z.number().int(),
    name: z.string(),
    mobileNumber: z.string().nullable(),
    department: z.string().nullable(),
    active: z.boolean(),
    createdAt: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'LabReferringDoctor' });
export type TReferringDoctor = z.infer<typeof ZReferringDoctor>;

export const REFERRING_DOCTOR_SORTS = ['id', 'name', 'department', 'createdAt'] as const;

/**
 * POST /api/lab/referring-doctor/search {mobileOrName or departments, active, criteria}: a name
 * piece or mobile prefix, departments, the active state (the bill's picker asks for active ones
 * only), and the page and order as `criteria`. Without text the list shows every doctor, paged.
 */
export const ZReferringDoctorSearch = z.object({
  mobileOrName: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v === null ? undefined : v),
    z.string().max(REFERRING_DOCTOR_NAME_MAX).optional(),
  ),
  departments: z.array(z.string().trim().toUpperCase().max(100)).max(LAB_LIMITS.pageSizeMax).nullish(),
  active: z.boolean().nullish(),
  criteria: z
    .object({
      page: z.number().int().min(0).default(0),
      size: z.number().int().min(1).max(LAB_LIMITS.pageSizeMax).default(20),
      orderingCriteria: z.enum(REFERRING_DOCTOR_SORTS).default('name'),
      sortOrder: z.enum(['ASC', 'DESC']).default('ASC'),
    })
    .default({ page: 0, size: 20, orderingCriteria: 'name', sortOrder: 'ASC' }),
});
export type TReferringDoctorSearch = z.infer<typeof ZReferringDoctorSearch>;
export type TReferringDoctorSearchInput = z.input<typeof ZReferringDoctorSearch>;
export const ZReferringDoctorPage = ZPageResponse(ZReferringDoctor);
export type TReferringDoctorPage = z.infer<typeof ZReferringDoctorPage>;

/** The line a picker shows for a doctor: 'Dr Anand Rao · CARDIOLOGY · 9876543210'. */
export function referringDoctorLabel(
  d: Pick<TReferringDoctor, 'name' | 'department' | 'mobileNumber'>,
): string {
  return [d.name, d.department, d.mobileNumber].filter(Boolean).join(' · ');
}
