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

/**
 * Who sees and pays a center's tele-radiology invoices online (modules/invoice-payments/DECISIONS.md):
 * the center's own account (ROLE_CENTER), each only the invoices of their own center. The other
 * center variants (customer, backup, share-all) and the lab desk do not handle the center's bills.
 * Everyone else answers 403, and has no menu item.
 */
export function canPayTeleInvoice(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_CENTER');
}
