/**
 * The 22 roles of spec-core §6. The spec's `ROLE_{product}_SALES` is `ROLE_RADFLOW_SALES`.
 */
export const ROLES = [
  'ROLE_ADMIN',
  'ROLE_CENTER',
  'ROLE_DOCTOR',
  'ROLE_CENTER_CUSTOMER',
  'ROLE_REFERRING_DOCTOR',
  'ROLE_TYPIST',
  'ROLE_LABS_SUPERVISOR',
  'ROLE_LABS_RECEPTIONIST',
  'ROLE_VERIFIER',
  'ROLE_ASSIGNOR',
  'ROLE_VIEWER',
  'ROLE_CUSTOMER',
  'ROLE_BILLER',
  'ROLE_TELE_RADIOLOGY',
  'ROLE_GROUP',
  'ROLE_AUDITOR',
  'ROLE_ADMIN_BILLER',
  'ROLE_RADFLOW_SALES',
  'ROLE_DASHBOARD_VIEWER',
  'ROLE_OFFLINE_HYBRID',
  'ROLE_CENTER_BACKUP',
  'ROLE_CENTER_SHARE_ALL',
] as const;

export type TRole = (typeof ROLES)[number];

export const SALES_ROLE: TRole = 'ROLE_RADFLOW_SALES';

/** Roles whose users belong to a center rather than to the group as a whole. */
export const CENTER_ROLES: readonly TRole[] = [
  'ROLE_CENTER',
  'ROLE_CENTER_CUSTOMER',
  'ROLE_CENTER_BACKUP',
  'ROLE_CENTER_SHARE_ALL',
  'ROLE_LABS_SUPERVISOR',
  'ROLE_LABS_RECEPTIONIST',
  'ROLE_OFFLINE_HYBRID',
];

export function isRole(value: string): value is TRole {
  return (ROLES as readonly string[]).includes(value);
}

/** spec-core §3 Current user: roles are sorted reverse-alphabetically. */
export function sortRolesForDisplay(roles: readonly TRole[]): TRole[] {
  return [...new Set(roles)].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
}

/** spec-core §3: with hybridModeOn the roles are replaced by the single offline-hybrid role. */
export function effectiveRoles(roles: readonly TRole[], hybridModeOn: boolean): TRole[] {
  return hybridModeOn ? ['ROLE_OFFLINE_HYBRID'] : sortRolesForDisplay(roles);
}

/** Roles that never open a study (no viewer or report editor). */
const NO_STUDY_ROLES: readonly TRole[] = ['ROLE_ADMIN_BILLER', 'ROLE_RADFLOW_SALES', 'ROLE_DASHBOARD_VIEWER'];

/** Whether a user with these roles may open studies at all (the viewer and report editor routes). */
export function opensStudies(roles: readonly TRole[]): boolean {
  return roles.some((r) => !NO_STUDY_ROLES.includes(r));
}

export function hasRole(roles: readonly TRole[], ...wanted: TRole[]): boolean {
  return wanted.some((r) => roles.includes(r));
}

/**
 * A viewer session (spec-core §4 share): someone who opened a shared link. They see the study's
 * images only once the payment check has answered, and 'Stop viewing' instead of Logout.
 */
export function isViewerSession(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_VIEWER');
}

/**
 * spec-core §6 "Only a sole doctor counts as a radiologist for some restrictions": a user whose
 * only role is ROLE_DOCTOR.
 */
export function isSoleDoctor(roles: readonly TRole[]): boolean {
  return roles.length > 0 && roles.every((r) => r === 'ROLE_DOCTOR');
}

/** spec-core §6: center users skip the login audit (device approval). */
export function isCenterUser(roles: readonly TRole[]): boolean {
  return roles.some(
    (r) => CENTER_ROLES.includes(r) && r !== 'ROLE_LABS_SUPERVISOR' && r !== 'ROLE_LABS_RECEPTIONIST',
  );
}

/** spec-core §6: verifiers, assignors and billers form the 'assignor/biller/verifier' group. */
export function isAssignorBillerVerifier(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_ASSIGNOR', 'ROLE_BILLER', 'ROLE_VERIFIER');
}

/** spec-core §5: read-only roles that cannot edit reports. */
export const REPORT_READ_ONLY_ROLES: readonly TRole[] = [
  'ROLE_REFERRING_DOCTOR',
  'ROLE_AUDITOR',
  'ROLE_CUSTOMER',
  'ROLE_VIEWER',
  'ROLE_LABS_SUPERVISOR',
  'ROLE_LABS_RECEPTIONIST',
];

/**
 * The demo account of a role (issue 2 §6): the role name without `ROLE_`, lower-cased, `_` as `-`,
 * at demo.local.
 */
export function demoEmailForRole(role: TRole): string {
  return `${role.slice('ROLE_'.length).toLowerCase().replaceAll('_', '-')}@demo.local`;
}
