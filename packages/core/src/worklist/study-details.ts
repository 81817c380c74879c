import { isTeleUser } from '../identity/permissions.js';
import { hasRole } from '../identity/roles.js';
import type { TUpdateStudyDetailsRequest } from './study-actions-schemas.js';
import { EMAIL_PATTERN, MOBILE_PATTERN } from '../common/validation.js';
import { canEditHistory, canEditStudyType, sendsForReporting } from './actions.js';
import { WORKLIST_MESSAGES } from './messages.js';
import type { TRuleInput } from './study-row.js';

/**
 * The Edit details form (spec-core §5 "Edit details form", §4 history and study type locks,
 * 'Send for reporting'): what the form requires and allows for one user on one row. The browser
 * form disables and validates with it; POST /report-status/update-details runs the same check.
 */
export interface TStudyDetailsFormContext {
  /**
   * "Sharing details before sending (center customer)": sharingDetailBeforeSend is on and the user
   * is a center customer. Then the patient fields are optional and a referring or consulting doctor
   * is required instead.
   */
  isSharingMode: boolean;
  /** "study type required when billing or tele-radiology applies": needBilling, or a tele user. */
  isStudyTypeRequired: boolean;
  /** spec-core §4: the history field is disabled on SIGNED_OFF (and DELETED). */
  canEditHistory: boolean;
  /** spec-core §4: study type editing is disabled for center users on SIGNED_OFF, LOCKED, DELETED. */
  canEditStudyType: boolean;
  /** The submit button reads 'Send for reporting' and moves CREATED to HISTORY_CREATED. */
  sendsForReporting: boolean;
}

/** The form's context from the user's roles, the group's switches and the row's status. */
export function studyDetailsFormContext(
  input: TRuleInput<'status', 'needBilling' | 'sharingDetailBeforeSend'>,
): TStudyDetailsFormContext {
  const { roles, flags } = input;
  return {
    isSharingMode: flags.sharingDetailBeforeSend && hasRole(roles, 'ROLE_CENTER_CUSTOMER'),
    isStudyTypeRequired: flags.needBilling || isTeleUser(roles),
    canEditHistory: canEditHistory(input),
    canEditStudyType: canEditStudyType(input),
    sendsForReporting: sendsForReporting(input),
  };
}

/** One refusal of the form: the field it is about and the text to show. */
export interface TStudyDetailsIssue {
  field: keyof TUpdateStudyDetailsRequest;
  message: string;
}

/** The fields that are required unless the sharing mode is on (spec-core §5), with their labels. */
const REQUIRED_UNLESS_SHARING = [
  ['patientName', 'Patient name'],
  ['patientAge', 'Patient age'],
  ['patientId', 'Patient id'],
  ['patientSex', 'Patient sex'],
  ['studyName', 'Study name'],
  ['referringPhysicianName', 'Referring physician name'],
  ['history', 'History'],
] as const satisfies ReadonlyArray<readonly [keyof TUpdateStudyDetailsRequest, string]>;

/** What the row already holds that the form's rules read. */
export interface TStudyDetailsCurrent {
  studyParts: readonly string[];
  /** A referring doctor user is already set on the row. */
  hasReferringDoctor: boolean;
}

/** Our text (the spec gives none) for a patient mobile that is missing or not of the pattern. */
export const INVALID_PATIENT_MOBILE_MESSAGE = 'Please enter a valid 10 digit mobile number';

/**
 * spec-core §5 Edit details form, every rule that depends on who edits what (the lengths and the sex
 * options are in ZUpdateStudyDetailsRequest). `current` is what the row holds already: a form that
 * leaves the study type out keeps the row's, and a referring doctor shared before counts. Answers
 * the refusals in form order; none means valid.
 */
export function checkStudyDetailsForm(
  form: TUpdateStudyDetailsRequest,
  context: TStudyDetailsFormContext,
  current: TStudyDetailsCurrent = { studyParts: [], hasReferringDoctor: false },
): TStudyDetailsIssue[] {
  const issues: TStudyDetailsIssue[] = [];
  if (!context.isSharingMode) {
    for (const [field, label] of REQUIRED_UNLESS_SHARING) {
      // A disabled history field is not the user's to fill.
      if (field === 'history' && !context.canEditHistory) continue;
      if (form[field].trim() === '') issues.push({ field, message: `${label} is required` });
    }
  }
  if (!form.patientNumberNotAvailable && !MOBILE_PATTERN.test(form.mobileNumber)) {
    issues.push({ field: 'mobileNumber', message: INVALID_PATIENT_MOBILE_MESSAGE });
  }
  if (form.email !== '' && !EMAIL_PATTERN.test(form.email)) {
    issues.push({ field: 'email', message: 'Please enter a valid e-mail address' });
  }
  const studyParts = form.reportParts ?? current.studyParts;
  if (context.isStudyTypeRequired && studyParts.length === 0) {
    issues.push({ field: 'reportParts', message: WORKLIST_MESSAGES.pleaseSelectStudyType });
  }
  const hasReferringDoctor =
    current.hasReferringDoctor ||
    form.referringDoctorEmail !== null ||
    form.consultingDoctorEmails.length > 0;
  if (context.isSharingMode && !form.referringDoctorNotAvailable && !hasReferringDoctor) {
    issues.push({ field: 'referringDoctorEmail', message: WORKLIST_MESSAGES.pleaseSelectReferringDoctor });
  }
  return issues;
}
