import type { TGroupFlags } from '../settings/preferences.js';
import { type TRole, hasRole, isSoleDoctor } from '../identity/roles.js';
import { REPORTING_MESSAGES as M } from './messages.js';
import type { TReportingRefusal } from './rules.js';
import type { TTemplateGender } from './schemas.js';

/** The group's admins: their templates are the group's (every user of the group sees them). */
export const TEMPLATE_ADMIN_ROLES: readonly TRole[] = ['ROLE_ADMIN', 'ROLE_GROUP'];

/** Who keeps templates (issue 7 §1 /template-page): the report writers and the group's admins. */
export const TEMPLATE_ROLES: readonly TRole[] = ['ROLE_DOCTOR', 'ROLE_TYPIST', ...TEMPLATE_ADMIN_ROLES];

/**
 * Who reads the templates (GET /report-template/): those who keep them, and verifiers, who write in
 * the editor (a report waiting for verification) whose chooser lists them; and a hybrid doctor
 * (OFFLINE_HYBRID, spec-core §3), whose router keeps them at their online sign-in for the offline
 * editor (router HYBRID.md "Templates offline"). spec-core §2 gives 'Manage template' to doctors and
 * typists only: the group's wording is not for patients, viewers, referring doctors or the other
 * read-only and non-reporting roles.
 */
export const TEMPLATE_READER_ROLES: readonly TRole[] = [
  ...TEMPLATE_ROLES,
  'ROLE_VERIFIER',
  'ROLE_OFFLINE_HYBRID',
];

export function canReadTemplates(roles: readonly TRole[]): boolean {
  return hasRole(roles, ...TEMPLATE_READER_ROLES);
}

/**
 * Create, edit or delete templates (issue 7 §1): TEMPLATE_ROLES; hidden for a sole doctor (a
 * radiologist) when the group's disableCreateTemplateOptionToRadiologist is on.
 */
export function checkTemplateWriter(input: {
  roles: readonly TRole[];
  flags: Pick<TGroupFlags, 'disableCreateTemplateOptionToRadiologist'>;
}): TReportingRefusal | null {
  if (!hasRole(input.roles, ...TEMPLATE_ROLES)) {
    return { kind: 'FORBIDDEN', message: M.templateNotAllowed, field: 'roles' };
  }
  if (isSoleDoctor(input.roles) && input.flags.disableCreateTemplateOptionToRadiologist) {
    return { kind: 'FORBIDDEN', message: M.templateCreateDisabled, field: 'roles' };
  }
  return null;
}

/** Change or delete one template: its owner, or a group admin of its group. */
export function canChangeTemplate(input: {
  roles: readonly TRole[];
  userId: number;
  ownerUserId: number;
}): boolean {
  return input.ownerUserId === input.userId || hasRole(input.roles, ...TEMPLATE_ADMIN_ROLES);
}

/** The study facts the editor's chooser filters by (issue 7 §1: modality, body part, sex). */
export interface TTemplateFilter {
  modality?: string | undefined;
  bodyPart?: string | undefined;
  gender?: string | undefined;
}

const norm = (s: string) => s.trim().toLowerCase();
const isGender = (g: string): g is TTemplateGender => g === 'M' || g === 'F' || g === 'O';

/**
 * Whether a template fits the study: each tag list that is not empty must contain the study's
 * value (case-insensitive; a study of several modalities, "CT,PT", fits when one of them is listed);
 * a template with a gender fits that sex only. A filter left empty matches everything, and a
 * template with no tags fits every study.
 */
export function templateFits(
  template: { modalities: readonly string[]; bodyParts: readonly string[]; gender: TTemplateGender | null },
  filter: TTemplateFilter,
): boolean {
  const modalities = (filter.modality ?? '').split(',').map(norm).filter(Boolean);
  if (modalities.length > 0 && template.modalities.length > 0) {
    const listed = template.modalities.map(norm);
    if (!modalities.some((m) => listed.includes(m))) return false;
  }
  const bodyPart = norm(filter.bodyPart ?? '');
  if (bodyPart && template.bodyParts.length > 0 && !template.bodyParts.map(norm).includes(bodyPart)) {
    return false;
  }
  const gender = (filter.gender ?? '').trim().toUpperCase();
  if (isGender(gender) && template.gender !== null && template.gender !== gender) return false;
  return true;
}
