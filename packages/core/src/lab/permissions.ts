import type { TRole } from '../identity/roles.js';
import { hasRole } from '../identity/roles.js';

/**
 * Who may use the lab front desk (spec-lab §6 lab menu): the receptionist and the supervisor. Every
 * /api/lab call except the settings ones (prefix, preferences) is theirs alone; others get 403.
 */
export function canUseLab(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_LABS_RECEPTIONIST', 'ROLE_LABS_SUPERVISOR');
}

/**
 * spec-lab §6: "an admin-style check (its definition not shown) gates bill-date editing, per-test
 * settlement status change, test editing, and creating new tests". Here that is the supervisor: the
 * lab's senior user, who also owns the test catalogue (the Lab Test menu is theirs).
 */
export function isLabAdmin(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_LABS_SUPERVISOR');
}

/** spec-lab §6: the supervisor picks a receptionist on the summary and downloads the tests Excel. */
export function canSuperviseLab(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_LABS_SUPERVISOR');
}
