import type { Tx } from '../../db/client.js';
import { recordPlatformInvoicePaid, recordTeleInvoicePaid } from '../invoice-payments/invoice-pay-links.js';
import type { TPaidOutcome, TPayableKind, TProviderPaidRecord } from '../payments/payable-kinds.js';
import { recordStudyPaymentPaid } from '../payments/study-payment-ledger.js';

/** A ledger a provider's paid notification can be routed to. */
export interface PayableLedger {
  /**
   * Records a payment the provider confirmed for `paid.reference`, in the caller's transaction
   * (the webhook's event row commits with it). Must be idempotent: ALREADY_PAID when it was.
   */
  recordProviderPaid(tx: Tx, paid: TProviderPaidRecord): Promise<TPaidOutcome>;
}

/**
 * Payable kind → its ledger (DECISIONS.md "Payables"): a provider's webhook for a paid link is
 * routed by the kind the link was made for: the study payment, a center's tele invoice, a group's
 * platform invoice (the type makes PAYABLE_KINDS and this table go together).
 */
export const PAYABLE_LEDGERS: { readonly [K in TPayableKind]: PayableLedger } = {
  STUDY_PAYMENT: { recordProviderPaid: recordStudyPaymentPaid },
  TELE_INVOICE: { recordProviderPaid: recordTeleInvoicePaid },
  PLATFORM_INVOICE: { recordProviderPaid: recordPlatformInvoicePaid },
};
