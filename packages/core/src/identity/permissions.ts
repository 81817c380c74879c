import { type TRole, hasRole, isCenterUser, opensStudies } from './roles.js';

/**
 * Which action a role may take, as pure rules shared by the server (its 403 checks) and the web app
 * (which hides the buttons). spec-core §6; the screens each rule guards are named below.
 */

/** Roles that manage the login audit of their group (spec-core §2 Menu per role: GROUP → Audit Logins). */
export const LOGIN_AUDIT_MANAGER_ROLES: readonly TRole[] = ['ROLE_GROUP', 'ROLE_ADMIN'];

/**
 * spec-core §2/§7: the /audit-logins screen and the /user/audit/search, /search-logs and
 * /update-approval-status calls. The screen is the group role's; the group's admin may use it too.
 */
export function canManageLoginAudit(roles: readonly TRole[]): boolean {
  return hasRole(roles, ...LOGIN_AUDIT_MANAGER_ROLES);
}

/**
 * Who brings a group's people in (issue 21 §9): centers, users and their roles, the typist ↔ doctor
 * mapping, deactivation and password resets. The spec names no such screen; its menus give the group
 * admin (ROLE_GROUP) and the admin (ROLE_ADMIN) the group's management, so these two manage people,
 * each only inside their own group.
 */
export function canManagePeople(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_GROUP', 'ROLE_ADMIN');
}

/** spec-core §3 "Tele info: teleUser flag": a user with the tele-radiology role. */
export function isTeleUser(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_TELE_RADIOLOGY');
}

/**
 * spec-core §7 POST /setting/update-group/{settingName}: the group's settings (the sections of
 * GROUP_SECTIONS) are changed by the group role and the group's admins (their "Manage preference").
 */
export function canManageGroupSettings(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_GROUP', 'ROLE_ADMIN');
}

/**
 * Device approval (spec-core §6 "Center users skip login audit calls"): with the group's
 * enableLoginAuditLogs on, every user signs in only from an approved device, except center users
 * and the group role, who approves devices — holding them too would lock the group out.
 */
export function needsDeviceApproval(roles: readonly TRole[]): boolean {
  return !isCenterUser(roles) && !hasRole(roles, 'ROLE_GROUP');
}

/**
 * Personal API tokens (GET /api/user/token) are for DICOM clients, so only roles that use DICOMweb
 * may mint and use one: a role that opens studies (core opensStudies), other than the customer and
 * the viewer, whose access is a shared link's or a sign-up's, through the web app only.
 */
const NO_API_TOKEN_ROLES: readonly TRole[] = ['ROLE_CUSTOMER', 'ROLE_VIEWER'];
export function canUseApiToken(roles: readonly TRole[]): boolean {
  return roles.some((r) => !NO_API_TOKEN_ROLES.includes(r) && opensStudies([r]));
}
