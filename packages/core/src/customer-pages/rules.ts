import { type TRole, hasRole } from '../identity/roles.js';
import type { TStudyPaymentStatus } from '../payments/study-payments.js';

/**
 * The patient's own page and the center customer's patient page (issue 26 §4). Decisions:
 * apps/server/src/modules/customer-pages/DECISIONS.md.
 */

export const CUSTOMER_PAGE_MESSAGES = {
  noReports: 'No reports yet',
  noPatients: 'No patients yet',
  /** 403 for the center customer's calls while the group's doNotSendWhatsappMessage is on. */
  managePatientOff: 'Managing patients is turned off for this group',
  /** 409: the mobile the screen showed is not the row's any more (someone changed it meanwhile). */
  mobileChanged: "The patient's mobile number was changed meanwhile. Reload and try again.",
  /** 400: nothing to send to. */
  noMobile: 'The patient has no mobile number on record',
  /** 409: the report is sent once it is signed off. */
  notSignedOff: 'The report is not signed off yet',
} as const;

/**
 * A customer session: the account reads studies as the patient (ROLE_CUSTOMER), with no role that
 * sees them as staff (a viewer role may sit beside it). Staff never pay to read.
 */
export function isCustomerSession(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_CUSTOMER') && roles.every((r) => r === 'ROLE_CUSTOMER' || r === 'ROLE_VIEWER');
}

/**
 * Per study, not per session (unlike a viewer account, spec-core §4): a customer may not have the
 * report, the PDF or the images of a study whose payment is pending (spec-core §4 Viewer payment:
 * 'Payment needed' before the images); their other studies stay open.
 */
export function customerMustPayFirst(
  roles: readonly TRole[],
  paymentStatus: TStudyPaymentStatus | null | undefined,
): boolean {
  return paymentStatus === 'PENDING' && isCustomerSession(roles);
}

/**
 * spec-core §2: "CENTER_CUSTOMER: Manage patient for center /manage-patient (unless
 * doNotSendWhatsappMessage)" — the same condition as the menu item (identity/menus.ts).
 */
export function canManageCenterPatients(input: {
  roles: readonly TRole[];
  flags: { doNotSendWhatsappMessage: boolean };
}): boolean {
  return hasRole(input.roles, 'ROLE_CENTER_CUSTOMER') && !input.flags.doNotSendWhatsappMessage;
}
