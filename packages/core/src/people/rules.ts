import { CENTER_ROLES, type TRole } from '../identity/roles.js';
// canManagePeople lives with the other role rules the shell needs (identity/permissions.ts).
import { canManagePeople } from '../identity/permissions.js';

/**
 * Roles no admin hands out: a viewer account is made by a shared link, a customer by the patient's
 * own sign-up (spec-core §2 /signup), and the sales role belongs to the product's staff, not a group.
 */
export const NOT_INVITABLE_ROLES: readonly TRole[] = ['ROLE_VIEWER', 'ROLE_CUSTOMER', 'ROLE_RADFLOW_SALES'];

/** The rank of a role for "nobody grants a role above their own": group admin, admin, the rest. */
function rankOf(role: TRole): number {
  if (role === 'ROLE_GROUP') return 3;
  if (role === 'ROLE_ADMIN') return 2;
  return 1;
}

function highestRank(roles: readonly TRole[]): number {
  return Math.max(0, ...roles.map(rankOf));
}

/**
 * Whether an admin with `actorRoles` may give these roles: only roles at or below their own highest
 * (an admin may not make a group admin), never the roles no admin hands out, and only if they manage
 * people at all.
 */
export function canGrantRoles(actorRoles: readonly TRole[], roles: readonly TRole[]): boolean {
  if (!canManagePeople(actorRoles)) return false;
  const own = highestRank(actorRoles);
  return roles.every((r) => !NOT_INVITABLE_ROLES.includes(r) && rankOf(r) <= own);
}

/** The roles an admin may give, in core ROLES order (the Users screen's role choices). */
export function grantableRoles(actorRoles: readonly TRole[], allRoles: readonly TRole[]): TRole[] {
  return allRoles.filter((r) => canGrantRoles(actorRoles, [r]));
}

/**
 * Whether an admin may change, deactivate or reset the password of a user holding `targetRoles`:
 * not a user ranked above them (an admin does not lock out their group admin).
 */
export function canManageUser(actorRoles: readonly TRole[], targetRoles: readonly TRole[]): boolean {
  return canManagePeople(actorRoles) && highestRank(targetRoles) <= highestRank(actorRoles);
}

/** Whether these roles belong to a center (the user then needs one, core CENTER_ROLES). */
export function needsCenter(roles: readonly TRole[]): boolean {
  return roles.some((r) => CENTER_ROLES.includes(r));
}

export const MESSAGE_ROLE_NOT_GRANTABLE = 'You cannot give a role above your own';
export const MESSAGE_USER_ABOVE_YOU = 'You cannot change a user whose role is above your own';
export const MESSAGE_CENTER_REQUIRED = 'A center role needs a center';
export const MESSAGE_CENTER_NOT_ALLOWED = 'Only users with a center role belong to a center';
export const MESSAGE_NOT_YOURSELF = 'You cannot deactivate yourself or change your own roles';
export const MESSAGE_EMAIL_TAKEN = 'A user with this e-mail already exists';
export const MESSAGE_MOBILE_TAKEN = 'A user with this mobile number already exists';
export const MESSAGE_SMS_NEEDS_MOBILE = 'An invitation by SMS needs a mobile number';
export const MESSAGE_NO_SUCH_USER = 'No such user';
export const MESSAGE_NO_SUCH_CENTER = 'No such center';
export const MESSAGE_NOT_A_TYPIST = 'Only a typist works for doctors';
export const MESSAGE_NOT_A_DOCTOR = 'Each mapped user must be an active doctor of your group';
export const MESSAGE_USER_INACTIVE = 'The user is deactivated; activate them first';
export const MESSAGE_INVITATION_USED = 'The user has already set a password; send a password reset instead';
export const MESSAGE_PASSWORD_LINK_INVALID = 'This link has expired or was already used';

/** DICOM AE titles (PS3.5 §6.2 AE): at most 16 characters, no backslash, no control characters. */
export const AE_TITLE_MAX_LENGTH = 16;
/** AE titles one center may have (one per modality or sending device is plenty). */
export const AE_TITLES_PER_CENTER_MAX = 20;
const AE_TITLE_PATTERN = /^[\x20-\x5b\x5d-\x7e]+$/;

export const MESSAGE_AE_TITLE_INVALID =
  'An AE title is 1 to 16 letters, digits, spaces or symbols, without a backslash';
export const aeTitleTakenMessage = (aeTitle: string) =>
  `AE title ${aeTitle} is already used by another center`;
export const aeTitleRepeatedMessage = (aeTitle: string) => `AE title ${aeTitle} is listed twice`;

/**
 * An AE title as stored and compared: without the spaces around it (PS3.5: leading and trailing
 * spaces are not significant; the DICOM port compares trimmed titles).
 */
export function normalizeAeTitle(aeTitle: string): string {
  return aeTitle.trim();
}

/** Why an AE title is refused, or null. */
export function aeTitleProblem(aeTitle: string): string | null {
  const value = normalizeAeTitle(aeTitle);
  if (value.length === 0 || value.length > AE_TITLE_MAX_LENGTH || !AE_TITLE_PATTERN.test(value))
    return MESSAGE_AE_TITLE_INVALID;
  return null;
}

/**
 * The key under which two AE titles count as the same for uniqueness: case-insensitive, so that
 * `CT1` and `ct1` never point at two centers (many modalities upper-case what they are given).
 */
export function aeTitleKey(aeTitle: string): string {
  return normalizeAeTitle(aeTitle).toUpperCase();
}

/** Set-password links (invitation, reset): how long each is good for. */
export const INVITATION_LINK_TTL_HOURS = 7 * 24;
export const RESET_LINK_TTL_HOURS = 24;
export { MANAGE_CENTERS_PATH, MANAGE_USERS_PATH, SET_PASSWORD_PATH } from './paths.js';
