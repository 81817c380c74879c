import { type TRole, hasRole } from '../identity/roles.js';

/**
 * Who prices tele-radiology reads and invoices centers (spec-core §2: 'Manage Tele Pricing' and
 * 'Manage Tele Invoice' are the menus of ROLE_TELE_RADIOLOGY and ROLE_BILLER), each only in their own
 * group. The group's ROLE_GROUP and ROLE_ADMIN accounts do not have the menus, so they get 403 too:
 * money calls follow the menus (modules/tele-billing/DECISIONS.md "Who").
 */
export function canUseTeleBilling(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_TELE_RADIOLOGY', 'ROLE_BILLER');
}
