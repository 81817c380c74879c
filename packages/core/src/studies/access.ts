import { CENTER_ROLES, type TRole, hasRole } from '../identity/roles.js';
import type { TReportStatus } from '../worklist/statuses.js';

/**
 * Group staff (spec-core §6): the roles that work on every study of their group. Tele-radiology
 * users are not here: they see their centers' studies (see `studyScopeOf`).
 */
export const GROUP_STUDY_ROLES: readonly TRole[] = [
  'ROLE_ADMIN',
  'ROLE_GROUP',
  'ROLE_ASSIGNOR',
  'ROLE_VERIFIER',
  'ROLE_BILLER',
  'ROLE_ADMIN_BILLER',
];

/**
 * The doctors' pool (issue 4 §1 "the group pools the tabs name"): report rows of the group that no
 * doctor has been assigned and that wait for a first report. Every doctor sees them in All, Pending
 * and Urgent, so a study can be picked up before an assignor routes it; once a doctor locks or is
 * assigned a study it leaves the pool for everyone else. See apps/server/src/modules/worklist/DECISIONS.md.
 */
export const DOCTOR_POOL_STATUSES: readonly TReportStatus[] = ['CREATED', 'HISTORY_CREATED'];

/**
 * One reason a user may see a report row (issue 4 §1 "Who sees what", spec-core §6). A user with
 * several roles holds several grants and sees the union. The server turns each into SQL
 * (`visibleReportRows`); lookups that need other tables (a typist's doctors, a tele user's centers)
 * are subqueries there, so the scope itself needs no database read.
 */
export type TStudyGrant =
  /** Every study of the group. */
  | { kind: 'group' }
  /** The studies of one center (center users, center backup). */
  | { kind: 'center'; centerId: number }
  /**
   * A tele-radiology user's centers: the centers of the center users in their user map (user
   * mappings under ROLE_CENTER); with no such mapping, every center of the group.
   */
  | { kind: 'teleCenters'; userId: number }
  /** Assigned to, or locked by, this doctor. */
  | { kind: 'assignedTo'; userId: number }
  /** Assigned to, or locked by, a doctor in this user's user map (user mappings under ROLE_DOCTOR). */
  | { kind: 'mappedDoctors'; userId: number }
  /** The doctors' pool: unassigned rows in DOCTOR_POOL_STATUSES. */
  | { kind: 'doctorPool' }
  /** Assigned to this auditor for audit. */
  | { kind: 'auditor'; userId: number }
  /** Shared with this referring doctor. */
  | { kind: 'referringDoctor'; userId: number }
  /** The patient's mobile, or a number the report was shared with, is this customer's mobile. */
  | { kind: 'customerMobile'; mobileNumber: string }
  /** The study was shared by e-mail with this viewer account (report_statuses.shared_emails). */
  | { kind: 'sharedEmail'; email: string };

/**
 * Which report rows (and through them, which archive studies) a user may see: the union of the
 * grants, always inside the user's group. No grant = nothing (deny by default).
 */
export interface TStudyScope {
  groupId: number;
  grants: readonly TStudyGrant[];
}

export interface TStudyScopeUser {
  id: number;
  roles: readonly TRole[];
  groupId: number;
  centerId: number | null;
  mobileNumber: string | null;
  /** The account's e-mail (lower-case); viewers see the studies shared with it. */
  email?: string | null;
}

/**
 * The study scope of a user (issue 4 §1 "Who sees what", spec-core §6):
 * - admins, group admins, assignors, verifiers, billers, admin billers: the group;
 * - ROLE_CENTER_SHARE_ALL: the group's studies of every center (what "share all" names: the centers
 *   of the group share their studies with this account);
 * - other center roles (center, center customer, center backup, lab roles, offline hybrid) and any
 *   user attached to a center: that center, deleted and backed-up studies included;
 * - tele-radiology: their centers (their own center when attached to one, else `teleCenters`);
 * - doctors: assigned to or locked by them, their mapped doctors' studies, and the pool;
 * - typists: assigned to or locked by the doctors they work for (no pool: a typist types for a
 *   doctor and does not pick work);
 * - auditors: assigned to them for audit; referring doctors: shared with them; customers: their
 *   mobile number; viewers: shared with their e-mail;
 * - everyone else (sales, dashboard viewers): nothing.
 * A user attached to a center never sees beyond it through a staff role (a misconfigured center
 * account must not open the group), except ROLE_CENTER_SHARE_ALL.
 */
export function studyScopeOf(user: TStudyScopeUser): TStudyScope {
  const { roles, id: userId } = user;
  const grants: TStudyGrant[] = [];
  const add = (grant: TStudyGrant) => grants.push(grant);

  if (hasRole(roles, 'ROLE_CENTER_SHARE_ALL')) add({ kind: 'group' });
  if (user.centerId !== null) {
    const hasCenterRole = hasRole(roles, ...CENTER_ROLES, ...GROUP_STUDY_ROLES, 'ROLE_TELE_RADIOLOGY');
    if (hasCenterRole) add({ kind: 'center', centerId: user.centerId });
  } else {
    if (hasRole(roles, ...GROUP_STUDY_ROLES)) add({ kind: 'group' });
    if (hasRole(roles, 'ROLE_TELE_RADIOLOGY')) add({ kind: 'teleCenters', userId });
  }
  if (hasRole(roles, 'ROLE_DOCTOR')) {
    add({ kind: 'assignedTo', userId });
    add({ kind: 'mappedDoctors', userId });
    add({ kind: 'doctorPool' });
  }
  if (hasRole(roles, 'ROLE_TYPIST')) add({ kind: 'mappedDoctors', userId });
  if (hasRole(roles, 'ROLE_AUDITOR')) add({ kind: 'auditor', userId });
  if (hasRole(roles, 'ROLE_REFERRING_DOCTOR')) add({ kind: 'referringDoctor', userId });
  if (hasRole(roles, 'ROLE_CUSTOMER') && user.mobileNumber) {
    add({ kind: 'customerMobile', mobileNumber: user.mobileNumber });
  }
  // A viewer account reads what was shared with its e-mail (the share dialog's send-email); whether
  // it must pay first is share-info's answer (payments module), checked by the viewer's poll.
  if (hasRole(roles, 'ROLE_VIEWER') && user.email) add({ kind: 'sharedEmail', email: user.email });
  return { groupId: user.groupId, grants: simplifyGrants(grants) };
}

/** Drops duplicates, and everything else when the group grant is present (it holds them all). */
function simplifyGrants(grants: readonly TStudyGrant[]): TStudyGrant[] {
  if (grants.some((g) => g.kind === 'group')) return [{ kind: 'group' }];
  const seen = new Set<string>();
  return grants.filter((g) => {
    const key = JSON.stringify(g);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The scope holds the whole group (no row condition beyond the group). */
export function isGroupWide(scope: TStudyScope): boolean {
  return scope.grants.some((g) => g.kind === 'group');
}
