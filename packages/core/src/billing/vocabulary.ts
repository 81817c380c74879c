/*
 * The business ledger's words (issue 26 §1 and §2): one ledger for both flows of money of a
 * teleradiology group. The CENTER side is what a center pays the group per study read (tele
 * invoices); the DOCTOR side is what the group pays its radiologists (payout statements). The same
 * signed-off study rows are priced on both sides, so a group's margin is one query over one ledger.
 * apps/server/src/modules/tele-billing/DECISIONS.md has the tables.
 */

/** Which flow a price or a line belongs to. */
export const PRICE_SIDES = ['CENTER', 'DOCTOR'] as const;
export type TPriceSide = (typeof PRICE_SIDES)[number];

/**
 * What is charged for: READ a signed-off study (per study part), ADDENDUM an addendum report,
 * URGENT a surcharge added to the read of a study marked urgent (once per study).
 */
export const PRICE_CHARGES = ['READ', 'ADDENDUM', 'URGENT'] as const;
export type TPriceCharge = (typeof PRICE_CHARGES)[number];

/** An adjustment line on an invoice (a signed amount with a reason) and a credit note's line. */
export const LINE_CHARGES = [...PRICE_CHARGES, 'ADJUSTMENT', 'CREDIT'] as const;
export type TLineCharge = (typeof LINE_CHARGES)[number];

export const PRICE_CHARGE_LABELS: Record<TLineCharge, string> = {
  READ: 'Read',
  ADDENDUM: 'Addendum',
  URGENT: 'Urgent surcharge',
  ADJUSTMENT: 'Adjustment',
  CREDIT: 'Credit',
};

/** The documents of the ledger; each kind is numbered gaplessly per group with its own prefix. */
export const BILLING_DOCUMENT_KINDS = ['TELE_INVOICE', 'CREDIT_NOTE', 'PAYOUT_STATEMENT'] as const;
export type TBillingDocumentKind = (typeof BILLING_DOCUMENT_KINDS)[number];

export const BILLING_DOCUMENT_PREFIXES: Record<TBillingDocumentKind, string> = {
  TELE_INVOICE: 'TI',
  CREDIT_NOTE: 'CN',
  PAYOUT_STATEMENT: 'PO',
};

/**
 * An issued document's state. Only the paid amount and this status ever move after issue:
 * ISSUED → PARTIALLY_PAID → PAID by payments; CANCELLED_BY_CREDIT when credit notes cover the whole
 * total. A credit note itself is ISSUED for ever.
 */
export const BILLING_DOCUMENT_STATUSES = ['ISSUED', 'PARTIALLY_PAID', 'PAID', 'CANCELLED_BY_CREDIT'] as const;
export type TBillingDocumentStatus = (typeof BILLING_DOCUMENT_STATUSES)[number];

export const BILLING_DOCUMENT_STATUS_LABELS: Record<TBillingDocumentStatus, string> = {
  ISSUED: 'Issued',
  PARTIALLY_PAID: 'Partially paid',
  PAID: 'Paid',
  CANCELLED_BY_CREDIT: 'Cancelled by credit',
};

/** How a payment of a ledger document was made (the study payments' modes and a bank transfer). */
export const BILLING_PAYMENT_MODES = ['CASH', 'UPI', 'CARD', 'BANK_TRANSFER', 'ONLINE'] as const;
export type TBillingPaymentMode = (typeof BILLING_PAYMENT_MODES)[number];

export const BILLING_PAYMENT_MODE_LABELS: Record<TBillingPaymentMode, string> = {
  CASH: 'Cash',
  UPI: 'UPI',
  CARD: 'Card',
  BANK_TRANSFER: 'Bank transfer',
  ONLINE: 'Online',
};

/** The currency of the ledger when a price names none. */
export const DEFAULT_BILLING_CURRENCY = 'INR';

/**
 * The dunning label (spec-core §3 `dunningLabels`) an overdue tele invoice puts on every study row of
 * its center; removed when no invoice of the center is overdue any more.
 */
export const INVOICE_OVERDUE_LABEL = 'INVOICE_OVERDUE';
