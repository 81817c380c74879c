import { CENTER_ROLES, type TRole, hasRole } from './roles.js';

/**
 * Group staff (spec-core §6): the roles that work on every study of their group. Doctors, typists
 * and auditors are here for now.
 * TODO(worklists issue): narrow ROLE_DOCTOR (and typists through their doctors) to the studies
 * assigned to them; this list and `studyScopeOf` are the one place to change.
 */
export const GROUP_STUDY_ROLES: readonly TRole[] = [
  'ROLE_ADMIN',
  'ROLE_GROUP',
  'ROLE_ASSIGNOR',
  'ROLE_VERIFIER',
  'ROLE_BILLER',
  'ROLE_ADMIN_BILLER',
  'ROLE_TELE_RADIOLOGY',
  'ROLE_DOCTOR',
  'ROLE_TYPIST',
  'ROLE_AUDITOR',
];

/**
 * Which studies a user may see (issue 3 §4 "Who sees what", spec-core §6):
 * - `center`: a user attached to a center sees the studies whose report rows belong to that center;
 * - `group`: group staff see every study of their group;
 * - `none`: everyone else. Referring doctors, customers and viewers will see what was shared with
 *   them once sharing exists; until then they see nothing (deny by default).
 */
export type TStudyScope =
  | { kind: 'center'; centerId: number; groupId: number }
  | { kind: 'group'; groupId: number }
  | { kind: 'none' };

/** The study scope of a user from their effective roles and their group and center. */
export function studyScopeOf(user: {
  roles: readonly TRole[];
  groupId: number;
  centerId: number | null;
}): TStudyScope {
  const isStaff = hasRole(user.roles, ...GROUP_STUDY_ROLES);
  if (user.centerId !== null) {
    // Attached to a center: never more than that center, whatever the roles say.
    return isStaff || hasRole(user.roles, ...CENTER_ROLES)
      ? { kind: 'center', centerId: user.centerId, groupId: user.groupId }
      : { kind: 'none' };
  }
  return isStaff ? { kind: 'group', groupId: user.groupId } : { kind: 'none' };
}
