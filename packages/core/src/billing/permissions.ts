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
 * Who pays which invoices online (modules/invoice-payments/DECISIONS.md): the one table that the
 * server's guards (canPayTeleInvoice, canPayPlatformInvoice) and the drawer menu both read, so a
 * role outside it gets 403 and no menu item.
 * - tele: a center's tele-radiology invoices, at /center-invoices: the center's own account
 *   (ROLE_CENTER), each only its own center's. The other center variants (customer, backup,
 *   share-all) and the lab desk do not handle the center's bills.
 * - platform: the group's platform invoices, at /platform-invoices: the group's administrators
 *   (ROLE_ADMIN, ROLE_GROUP), each only their own group's. The platform's billers record payments;
 *   they do not pay.
 */
export const INVOICE_PAYER_ROLES: Readonly<Record<'tele' | 'platform', readonly TRole[]>> = {
  tele: ['ROLE_CENTER'],
  platform: ['ROLE_ADMIN', 'ROLE_GROUP'],
};

/** May see and pay their center's tele-radiology invoices (INVOICE_PAYER_ROLES.tele). */
export function canPayTeleInvoice(roles: readonly TRole[]): boolean {
  return hasRole(roles, ...INVOICE_PAYER_ROLES.tele);
}

/** May see and pay their group's platform invoices (INVOICE_PAYER_ROLES.platform). */
export function canPayPlatformInvoice(roles: readonly TRole[]): boolean {
  return hasRole(roles, ...INVOICE_PAYER_ROLES.platform);
}
