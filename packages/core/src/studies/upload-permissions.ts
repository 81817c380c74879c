import { type TRole, hasRole } from '../identity/roles.js';

/**
 * Roles that bring studies in (spec-core §2 Shell "Create Study", §5 Create Study, spec-lab §6): the
 * center, admins, tele-radiology users, center customers and lab staff. The drawer offers Create
 * Study to them and the server accepts create-from-website and browser uploads only from them.
 */
export const STUDY_UPLOAD_ROLES: readonly TRole[] = [
  'ROLE_CENTER',
  'ROLE_ADMIN',
  'ROLE_TELE_RADIOLOGY',
  'ROLE_CENTER_CUSTOMER',
  'ROLE_LABS_SUPERVISOR',
  'ROLE_LABS_RECEPTIONIST',
];

export function canCreateStudy(roles: readonly TRole[]): boolean {
  return hasRole(roles, ...STUDY_UPLOAD_ROLES);
}
