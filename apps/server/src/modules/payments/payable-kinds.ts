/**
 * What a payment pays for: each kind is one ledger with its own table (DECISIONS.md "Payables").
 * A pay link is asked for one payable (`TPaymentLinkRequest.payable`), the provider keeps the kind
 * with the link, and its paid notification is routed back to that kind's ledger (payables.ts).
 * TELE_INVOICE: a center's tele-radiology invoice; PLATFORM_INVOICE: a group's platform invoice
 * (both modules/invoice-payments, core INVOICE_PAYABLE_KINDS).
 */
export const PAYABLE_KINDS = ['STUDY_PAYMENT', 'TELE_INVOICE', 'PLATFORM_INVOICE'] as const;
export type TPayableKind = (typeof PAYABLE_KINDS)[number];

export const isPayableKind = (value: unknown): value is TPayableKind =>
  (PAYABLE_KINDS as readonly unknown[]).includes(value);

/** A payment the provider confirmed, as a ledger records it (payables.ts). */
export interface TProviderPaidRecord {
  /** The provider's name and our reference of the link (the ledger's row is found by both). */
  provider: string;
  reference: string;
  /** The provider's id of the payment, kept as the transaction id; null when not told. */
  providerPaymentId: string | null;
  /** What was paid: must be the row's amount and currency. Null when not told (the payer's return). */
  amount: { minor: number; currency: string } | null;
  at: Date;
}

/**
 * What recording a confirmed payment did: RECORDED (now paid), ALREADY_PAID (nothing changed),
 * UNKNOWN_REFERENCE (no row of this ledger has it), AMOUNT_MISMATCH (paid another amount or
 * currency than asked: not recorded, for staff to look into).
 */
export type TPaidOutcome = 'RECORDED' | 'ALREADY_PAID' | 'UNKNOWN_REFERENCE' | 'AMOUNT_MISMATCH';
