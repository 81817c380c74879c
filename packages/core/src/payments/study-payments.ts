import { type TRole, hasRole, isCenterUser } from '../identity/roles.js';
import { isRowActionsDisabled } from '../worklist/actions.js';
import { type TActorCenter, type TRuleInput, actingRoles } from '../worklist/study-row.js';

/*
 * Payments for shared studies (issue 5 §1; spec-core §2 Login page payment confirm, §3 row
 * paymentStatus / paymentMode, §4 Viewer payment, §7 share-info). The spec names the fields and the
 * calls; the enumerations are "not shown" (§9), so they are ours: apps/server/src/modules/payments/DECISIONS.md.
 */

/**
 * The study row's paymentStatus (spec-core §3):
 * - NOT_REQUIRED: nothing is asked (every study until staff request a payment);
 * - PENDING: a payment was requested and not yet made: the viewer accounts the study is shared with
 *   are sent to the payment page (share-info paymentNotDone);
 * - PAID: the last payment requested was made (online, or taken at the desk).
 */
export const STUDY_PAYMENT_STATUSES = ['NOT_REQUIRED', 'PENDING', 'PAID'] as const;
export type TStudyPaymentStatus = (typeof STUDY_PAYMENT_STATUSES)[number];

/**
 * One payment request's status (the history of a study's payments). CANCELLED: staff withdrew it. A
 * payment the provider reports as failed leaves the request PENDING: the payer may try the link again.
 */
export const PAYMENT_REQUEST_STATUSES = ['PENDING', 'PAID', 'CANCELLED'] as const;
export type TPaymentRequestStatus = (typeof PAYMENT_REQUEST_STATUSES)[number];

/**
 * paymentMode (spec-core §3): how a PAID payment was made. ONLINE through the payment provider's
 * link; CASH, UPI and CARD taken at the desk (the lab module's payment methods, spec-lab §2).
 */
export const PAYMENT_MODES = ['ONLINE', 'CASH', 'UPI', 'CARD'] as const;
export type TPaymentMode = (typeof PAYMENT_MODES)[number];

/** The modes staff may record at the desk (ONLINE is set only by the provider's confirmation). */
export const DESK_PAYMENT_MODES = ['CASH', 'UPI', 'CARD'] as const satisfies readonly TPaymentMode[];
export type TDeskPaymentMode = (typeof DESK_PAYMENT_MODES)[number];

/** What the provider says of a payment when asked (payment-confirm's answer, spec-core §7). */
export const PROVIDER_PAYMENT_STATUSES = ['PAID', 'PENDING', 'FAILED'] as const;
export type TProviderPaymentStatus = (typeof PROVIDER_PAYMENT_STATUSES)[number];

export const PAYMENT_STATUS_LABELS: Record<TStudyPaymentStatus, string> = {
  NOT_REQUIRED: 'Not required',
  PENDING: 'Pending',
  PAID: 'Paid',
};

export const PAYMENT_MODE_LABELS: Record<TPaymentMode, string> = {
  ONLINE: 'Online',
  CASH: 'Cash',
  UPI: 'UPI',
  CARD: 'Card',
};

/** Currencies an amount may be asked in; INR first (the deployment's numbers are +91, spec-core §9). */
export const PAYMENT_CURRENCIES = ['INR', 'USD', 'EUR', 'GBP', 'AED'] as const;
export type TPaymentCurrency = (typeof PAYMENT_CURRENCIES)[number];

/** The largest amount one request may ask (in major units): a typo guard, not a business limit. */
export const PAYMENT_AMOUNT_MAX = 10_000_000;

/**
 * The worklist's 'Payment Status' column (spec-core §2 "payment status and mode"): 'Pending',
 * 'Paid · Cash'; '—' when nothing was ever asked.
 */
export function paymentColumnText(row: {
  paymentStatus?: TStudyPaymentStatus | null | undefined;
  paymentMode?: TPaymentMode | null | undefined;
}): string {
  const status = row.paymentStatus ?? 'NOT_REQUIRED';
  if (status === 'NOT_REQUIRED') return '—';
  const label = PAYMENT_STATUS_LABELS[status];
  return status === 'PAID' && row.paymentMode ? `${label} · ${PAYMENT_MODE_LABELS[row.paymentMode]}` : label;
}

/** Group roles that handle money on any study of their group (decision: the billing staff and admins). */
export const PAYMENT_STAFF_ROLES: readonly TRole[] = [
  'ROLE_ADMIN',
  'ROLE_GROUP',
  'ROLE_BILLER',
  'ROLE_ADMIN_BILLER',
];

/**
 * Who may request a payment for a study, record one taken at the desk, or cancel a request (issue 5
 * §1 "Payment needed"; the spec does not show the staff side). Decision: the group's admins, group
 * administrators and billers on any study of the group, and the study's own center (center users and
 * the lab desk: supervisor, receptionist) — the people who take money. Doctors, typists, assignors,
 * verifiers and the read-only roles do not. Never on a DELETED study (spec-core §4: deleted studies
 * disable all row actions). The server answers 403 with this rule; the browser hides the button.
 */
export function canManageStudyPayment(
  input: Omit<TRuleInput<'status' | 'centerId'>, 'flags'> & TActorCenter,
): boolean {
  if (isRowActionsDisabled(input.row)) return false;
  const roles = actingRoles(input);
  return (
    hasRole(roles, ...PAYMENT_STAFF_ROLES) ||
    isCenterUser(roles) ||
    hasRole(roles, 'ROLE_LABS_SUPERVISOR', 'ROLE_LABS_RECEPTIONIST')
  );
}

/** The payment actions a row offers, by its paymentStatus (the server refuses the others with 409). */
export interface TPaymentActions {
  /** Ask for a payment: not while one is pending (cancel it first). */
  request: boolean;
  /** Record a payment taken at the desk: for the pending request, or without one. */
  recordDesk: boolean;
  /** Withdraw the pending request. */
  cancel: boolean;
}

export function paymentActionsOf(status: TStudyPaymentStatus | null | undefined): TPaymentActions {
  const pending = status === 'PENDING';
  return { request: !pending, recordDesk: true, cancel: pending };
}

/**
 * The row's paymentStatus and paymentMode after a change, from its requests (newest first): the
 * newest request that was not cancelled decides; none → NOT_REQUIRED. So cancelling a second request
 * returns a study to PAID when an earlier one was paid.
 */
export function studyPaymentOf(
  requestsNewestFirst: ReadonlyArray<{ status: TPaymentRequestStatus; mode: TPaymentMode | null }>,
): { paymentStatus: TStudyPaymentStatus; paymentMode: TPaymentMode | null } {
  const current = requestsNewestFirst.find((r) => r.status !== 'CANCELLED');
  if (!current) return { paymentStatus: 'NOT_REQUIRED', paymentMode: null };
  return current.status === 'PAID'
    ? { paymentStatus: 'PAID', paymentMode: current.mode }
    : { paymentStatus: 'PENDING', paymentMode: null };
}

/** An amount in minor units (paise, cents) from major units with at most 2 decimals. */
export function toMinorUnits(amount: number): number {
  return Math.round(amount * 100);
}

/** '₹1,250.00' — an amount in minor units for people to read. */
export function formatPaymentAmount(amountMinor: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-IN', { style: 'currency', currency }).format(amountMinor / 100);
  } catch {
    return `${currency} ${(amountMinor / 100).toFixed(2)}`;
  }
}

/** The login page's payment confirmation (spec-core §2), as the payer reads it. */
export const PAYMENT_CONFIRM_MESSAGES = {
  checking: 'Confirming your payment…',
  paid: 'Payment received. Taking you on…',
  pending:
    'Your payment is not confirmed yet. If you have paid, try again in a minute; otherwise pay again from the payment page.',
  failed: 'The payment did not go through. You can pay again from the payment page.',
  retry: 'Check again',
} as const;
