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
