import {
  CENTER_ROLES,
  CREATE_STUDY_MODALITIES,
  EXTRA_MODALITIES,
  ZCreateStudyRequest,
  hasRole,
  type PATIENT_SEXES,
  type TCenterOption,
  type TCreateStudyRequest,
  type TRole,
} from '@radflow/core';
import { ApiError } from '../../api/client';

/** The Create Study form as typed: every field a string, '' when not chosen. */
export interface TCreateStudyForm {
  patientName: string;
  uhid: string;
  labModality: string;
  patientAge: string;
  patientSex: string;
  center: string;
  studyName: string;
  patientId: string;
  referringPhysicianName: string;
  history: string;
}

export type TCreateStudyField = keyof TCreateStudyForm;
export type TCreateStudyErrors = Partial<Record<TCreateStudyField, string>>;

/** The toast of a study made (the dialog, and a bill line's study made without it). */
export const STUDY_CREATED = 'Study created';

export const EMPTY_CREATE_STUDY_FORM: TCreateStudyForm = {
  patientName: '',
  uhid: '',
  labModality: '',
  patientAge: '',
  patientSex: '',
  center: '',
  studyName: '',
  patientId: '',
  referringPhysicianName: '',
  history: '',
};

const FIELDS = Object.keys(EMPTY_CREATE_STUDY_FORM) as TCreateStudyField[];

export const SEX_LABELS: Record<(typeof PATIENT_SEXES)[number], string> = {
  M: 'Male',
  F: 'Female',
  O: 'Other',
};

/** spec-core §5 modality choices, plus spec-lab's extra ones when the group switch is on. */
export function modalityOptions(showExtraModalityType: boolean): readonly string[] {
  return showExtraModalityType ? [...CREATE_STUDY_MODALITIES, ...EXTRA_MODALITIES] : CREATE_STUDY_MODALITIES;
}

/**
 * spec-core §5 "center users have the center fixed to their own": a user who belongs to a center gets
 * the center the server lists for them (it lists only theirs; by e-mail if it ever lists more).
 */
export function fixedCenter(
  roles: readonly TRole[],
  email: string,
  centers: readonly TCenterOption[] | undefined,
): TCenterOption | null {
  if (!hasRole(roles, ...CENTER_ROLES) || !centers || centers.length === 0) return null;
  return centers.find((c) => c.email.toLowerCase() === email.toLowerCase()) ?? centers[0] ?? null;
}

function isField(name: unknown): name is TCreateStudyField {
  return typeof name === 'string' && (FIELDS as string[]).includes(name);
}

/**
 * Checks the form with the core schema, so the dialog shows the very messages the server would send
 * ('Patient name is required', 'UHID must be at most 20 characters', …), one per field.
 */
export function validateCreateStudy(
  form: TCreateStudyForm,
): { ok: true; request: TCreateStudyRequest } | { ok: false; errors: TCreateStudyErrors } {
  const parsed = ZCreateStudyRequest.safeParse(form);
  if (parsed.success) return { ok: true, request: parsed.data };
  const errors: TCreateStudyErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (isField(field) && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

/** A 400 from create-from-website names its field in additionalInfo; null when it names none we show. */
export function fieldErrorOf(error: unknown): TCreateStudyErrors | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const body = error.body as { errorDescription?: unknown; additionalInfo?: unknown } | null;
  if (!body || !isField(body.additionalInfo) || typeof body.errorDescription !== 'string') return null;
  return { [body.additionalInfo]: body.errorDescription };
}
