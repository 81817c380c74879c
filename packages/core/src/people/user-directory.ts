import { type TRole, hasRole } from '../identity/roles.js';

/*
 * GET /api/user/mapping (spec-core §3 User mapping: per role, users with e-mail and active) is the
 * directory the pickers read: assign a doctor or an auditor, the typist's doctor gate, the referring
 * doctor of the share and details dialogs, the verification settings' centers and doctors, chat
 * assignment (admin, center, radiologist). Security issue §3: it gave patients, viewers and referring
 * doctors the whole group, other patients' e-mails included. One rule decides who gets which lists.
 */

/** Roles whose lists nobody picks from: patients and viewer accounts (their e-mails stay private). */
export const UNLISTED_ROLES: readonly TRole[] = ['ROLE_CUSTOMER', 'ROLE_VIEWER'];

/**
 * Roles that pick nobody: they read their own studies (the staff names on them come with the row)
 * and assign, share or report nothing — patients, viewer accounts, referring doctors, auditors, and
 * the billing-dashboard roles that see no study.
 */
const PICKS_NOBODY: readonly TRole[] = [
  'ROLE_CUSTOMER',
  'ROLE_VIEWER',
  'ROLE_REFERRING_DOCTOR',
  'ROLE_AUDITOR',
  'ROLE_RADFLOW_SALES',
  'ROLE_DASHBOARD_VIEWER',
];

/** Whether the caller gets any directory at all (false: an empty mapping). */
export function getsUserDirectory(roles: readonly TRole[]): boolean {
  return roles.some((r) => !PICKS_NOBODY.includes(r));
}

/** Whether a role's list is in the directory of a caller who gets one. */
export function isListedRole(role: string): boolean {
  return !UNLISTED_ROLES.includes(role as TRole);
}

/**
 * Which users of the group a center's user sees (caller belongs to a center): their own center's
 * users, and group-wide the doctors (assign, chat) and the referring doctors (share dialog, details
 * form, create study).
 */
export function isInCenterDirectory(
  user: { centerId: number | null; roles: readonly TRole[] },
  callerCenterId: number,
): boolean {
  return user.centerId === callerCenterId || hasRole(user.roles, 'ROLE_DOCTOR', 'ROLE_REFERRING_DOCTOR');
}
