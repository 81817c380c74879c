import { type TRole, hasRole } from '../identity/roles.js';

/**
 * Who prices tele-radiology reads, invoices centers and pays radiologists: the roles of 'Manage Tele
 * Pricing' and 'Manage Tele Invoice' (spec-core §2: ROLE_TELE_RADIOLOGY and ROLE_BILLER), and the
 * group admin (ROLE_GROUP), each only in their own group. The group admin is ours: it is the group's
 * owner (sign-up makes it), already sets the billing details every invoice prints (spec-lab §6) and
 * pays the platform's invoices; without it a new group could not price its first read without
 * making a second account. ROLE_ADMIN (the group's operations) is not (modules/tele-billing/
 * DECISIONS.md "Who").
 */
export function canUseTeleBilling(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_TELE_RADIOLOGY', 'ROLE_BILLER', 'ROLE_GROUP');
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
