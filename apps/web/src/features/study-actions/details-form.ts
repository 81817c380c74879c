import {
  DEPARTMENT_OPTIONS,
  WORKLIST_MESSAGES,
  ZUpdateStudyDetailsRequest,
  checkStudyDetailsForm,
  type TStudyDetailsFormContext,
  type TStudyListRow,
  type TUpdateStudyDetailsInput,
} from '@radflow/core';
import { ApiError } from '../../api/client';

/** The Edit details form as typed (spec-core §5): texts, the two ticks, the chosen study types. */
export interface TDetailsForm {
  patientName: string;
  patientAge: string;
  patientId: string;
  patientSex: string;
  uhid: string;
  accessionNumber: string;
  studyName: string;
  referringPhysicianName: string;
  history: string;
  mobileNumber: string;
  patientNumberNotAvailable: boolean;
  email: string;
  department: string;
  reportParts: string[];
  referringDoctorEmail: string | null;
  referringDoctorNotAvailable: boolean;
}

export type TDetailsField = keyof TDetailsForm;
export type TDetailsErrors = Partial<Record<TDetailsField, string>>;

const isDepartment = (v: string | null): v is (typeof DEPARTMENT_OPTIONS)[number] =>
  v !== null && (DEPARTMENT_OPTIONS as readonly string[]).includes(v);

/** The form filled from the row as the list answered it. */
export function detailsFormFromRow(row: TStudyListRow): TDetailsForm {
  return {
    patientName: row.patientName,
    patientAge: row.patientAge,
    patientId: row.patientId,
    // spec-core §5: the options are M and F; anything else from DICOM must be chosen again.
    patientSex: row.patientSex === 'M' || row.patientSex === 'F' ? row.patientSex : '',
    uhid: row.uhid,
    accessionNumber: row.accessionNumber,
    studyName: row.studyName,
    referringPhysicianName: row.referringPhysicianName,
    history: row.history,
    mobileNumber: row.mobileNumber ?? '',
    patientNumberNotAvailable: false,
    email: row.email ?? '',
    department: isDepartment(row.department) ? row.department : '',
    reportParts: [...row.reportStudyPart],
    referringDoctorEmail: row.referringDoctor,
    referringDoctorNotAvailable: false,
  };
}

const sameParts = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');

/** The request body: study types only when they may change and did (absent means unchanged). */
export function detailsRequest(
  form: TDetailsForm,
  row: Pick<TStudyListRow, 'reportStudyPart' | 'consultingDoctorEmails' | 'referringPhysicianEmail'>,
  context: Pick<TStudyDetailsFormContext, 'canEditStudyType' | 'canEditHistory'>,
): TUpdateStudyDetailsInput {
  const { reportParts, department, patientSex, ...rest } = form;
  const partsChanged = context.canEditStudyType && !sameParts(reportParts, row.reportStudyPart);
  return {
    ...rest,
    // Anything but M or F is left to the schema to refuse.
    patientSex: patientSex as 'M' | 'F' | '',
    department: isDepartment(department) ? department : null,
    consultingDoctorEmails: [...row.consultingDoctorEmails],
    referringPhysicianEmail: row.referringPhysicianEmail,
    ...(partsChanged ? { reportParts } : {}),
  };
}

const FORM_FIELDS = new Set<string>([
  'patientName',
  'patientAge',
  'patientId',
  'patientSex',
  'uhid',
  'accessionNumber',
  'studyName',
  'referringPhysicianName',
  'history',
  'mobileNumber',
  'email',
  'department',
  'reportParts',
  'referringDoctorEmail',
]);
const isFormField = (name: unknown): name is TDetailsField =>
  typeof name === 'string' && FORM_FIELDS.has(name);

/** The alerts of spec-core §5 the form raises besides the field messages. */
const ALERT_TEXTS = new Set<string>([
  WORKLIST_MESSAGES.pleaseSelectStudyType,
  WORKLIST_MESSAGES.pleaseSelectReferringDoctor,
]);

export type TDetailsCheck =
  | { ok: true; request: TUpdateStudyDetailsInput; studyTypeChanged: boolean }
  | { ok: false; errors: TDetailsErrors; alert: string | null };

/**
 * spec-core §5 Edit details form, checked with core's schema (lengths, sex) and core's
 * checkStudyDetailsForm (what is required for this user on this row), the same checks the server runs.
 */
export function checkDetailsForm(
  form: TDetailsForm,
  row: Pick<
    TStudyListRow,
    'reportStudyPart' | 'consultingDoctorEmails' | 'referringPhysicianEmail' | 'referringDoctor'
  >,
  context: TStudyDetailsFormContext,
): TDetailsCheck {
  const request = detailsRequest(form, row, context);
  const errors: TDetailsErrors = {};
  let alert: string | null = null;
  const parsed = ZUpdateStudyDetailsRequest.safeParse(request);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (isFormField(field) && !errors[field]) errors[field] = issue.message;
    }
    return { ok: false, errors, alert };
  }
  const current = { studyParts: row.reportStudyPart, hasReferringDoctor: row.referringDoctor !== null };
  for (const issue of checkStudyDetailsForm(parsed.data, context, current)) {
    if (isFormField(issue.field) && !errors[issue.field]) errors[issue.field] = issue.message;
    if (!alert && ALERT_TEXTS.has(issue.message)) alert = issue.message;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors, alert };
  return { ok: true, request, studyTypeChanged: request.reportParts !== undefined };
}

/** A 400 from update-details names its field in additionalInfo; null when it names none we show. */
export function detailsFieldErrorOf(error: unknown): TDetailsErrors | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const body = error.body as { errorDescription?: unknown; additionalInfo?: unknown } | null;
  if (!body || !isFormField(body.additionalInfo) || typeof body.errorDescription !== 'string') return null;
  return { [body.additionalInfo]: body.errorDescription };
}
