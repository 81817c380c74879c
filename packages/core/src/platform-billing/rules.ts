import { type TRole, SALES_ROLE, hasRole } from '../identity/roles.js';

/**
 * The platform's own billing of the groups (issue 26 §3): plans, one subscription per group, monthly
 * invoices, payments. Amounts are integer paise (minor units) everywhere; rupees only on the wire.
 */

export const PLAN_KINDS = ['PER_STUDY', 'SUBSCRIPTION'] as const;
export type TPlanKind = (typeof PLAN_KINDS)[number];

export const SUBSCRIPTION_STATUSES = ['TRIAL', 'ACTIVE', 'EXPIRED', 'CANCELLED'] as const;
export type TSubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const PLATFORM_INVOICE_KINDS = ['INVOICE', 'CREDIT_NOTE'] as const;
export type TPlatformInvoiceKind = (typeof PLATFORM_INVOICE_KINDS)[number];

export const PLATFORM_INVOICE_STATUSES = ['ISSUED', 'PAID', 'CREDITED'] as const;
export type TPlatformInvoiceStatus = (typeof PLATFORM_INVOICE_STATUSES)[number];

export const PLATFORM_PAYMENT_MODES = ['BANK_TRANSFER', 'UPI', 'CARD', 'CHEQUE', 'CASH', 'ONLINE'] as const;
export type TPlatformPaymentMode = (typeof PLATFORM_PAYMENT_MODES)[number];

/** How a platform payment's mode reads on screen (the tele-billing modes read the same way). */
export const PLATFORM_PAYMENT_MODE_LABELS: Record<TPlatformPaymentMode, string> = {
  BANK_TRANSFER: 'Bank transfer',
  UPI: 'UPI',
  CARD: 'Card',
  CHEQUE: 'Cheque',
  CASH: 'Cash',
  ONLINE: 'Online',
};

/** The plan codes the migration seeds (0040_platform_billing); startTrial gives TRIAL to a new group. */
export const TRIAL_PLAN_CODE = 'TRIAL';
export const DEFAULT_PLAN_CODES = [TRIAL_PLAN_CODE, 'PER_STUDY', 'SUBSCRIPTION'] as const;

/** The platform's GST on its invoices: 18 % (SAC 998314, IT services), in basis points. */
export const PLATFORM_GST_BASIS_POINTS = 1800;
/** Days from issue to due date of a platform invoice. */
export const PLATFORM_PAYMENT_TERMS_DAYS = 15;
/** Months of service one recorded payment adds to a subscription's paid-through date. */
export const MONTHS_PER_PAYMENT = 1;
/** The zone whose calendar months the platform bills and counts (India, as its groups). */
export const PLATFORM_TIME_ZONE = 'Asia/Kolkata';

/** The platform roles that bill the groups (spec-core §2 menus: Admin Billing). */
export const PLATFORM_BILLING_ROLES: readonly TRole[] = ['ROLE_ADMIN_BILLER', SALES_ROLE];

/**
 * Whether a user may use the platform's billing of all groups: one of the platform billing roles AND
 * a member of the platform's operator group. ROLE_ADMIN_BILLER is a role a group admin can hand out
 * inside their own group; without the operator test such a user would read every group's billing.
 */
export function canUsePlatformBilling(roles: readonly TRole[], inOperatorGroup: boolean): boolean {
  return inOperatorGroup && hasRole(roles, ...PLATFORM_BILLING_ROLES);
}

/** Billing Dashboard: the admin biller; Admin Sales Dashboard: the sales role (spec-core §2 menus). */
export function platformDashboardRole(kind: 'billing' | 'sales'): TRole {
  return kind === 'billing' ? 'ROLE_ADMIN_BILLER' : SALES_ROLE;
}

/** What the subscription of a group is at `now`, as the banner and the lists read it. */
export interface TSubscriptionState {
  status: TSubscriptionStatus;
  expiresAt: Date | null;
}

/**
 * The subscription banner's rule (spec-core §2 shell): a subscription is expired when its status says
 * so or its paid-through date has passed (a TRIAL or ACTIVE whose date passed is expired without any
 * job having to flip it). CANCELLED is the group leaving, not a lapse: no banner. A group with no
 * subscription row (groups older than the platform billing) has nothing to warn about.
 */
export function isSubscriptionExpired(sub: TSubscriptionState | null, now: Date): boolean {
  if (!sub) return false;
  if (sub.status === 'EXPIRED') return true;
  if (sub.status === 'CANCELLED') return false;
  return sub.expiresAt !== null && sub.expiresAt.getTime() <= now.getTime();
}

/** The status a list shows: the stored one, or EXPIRED once the date passed. */
export function effectiveSubscriptionStatus(sub: TSubscriptionState, now: Date): TSubscriptionStatus {
  return isSubscriptionExpired(sub, now) ? 'EXPIRED' : sub.status;
}

/** `date` plus whole calendar months (UTC fields; the 31st into a shorter month ends on its last day). */
export function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/**
 * The paid-through date after a payment: MONTHS_PER_PAYMENT from the later of now and the current
 * date, so paying early never loses days and paying late starts from the payment.
 */
export function extendedExpiry(current: Date | null, now: Date, months = MONTHS_PER_PAYMENT): Date {
  const from = current && current.getTime() > now.getTime() ? current : now;
  return addMonths(from, months);
}

/** 'YYYY-MM': a billing period, a calendar month of PLATFORM_TIME_ZONE. */
export const PERIOD_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The period after `period` ('2026-12' → '2027-01'). */
export function nextPeriod(period: string): string {
  const m = PERIOD_PATTERN.exec(period);
  if (!m) throw new Error(`not a period: ${period}`);
  const year = Number(m[1]);
  const month = Number(m[2]);
  return month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`;
}
