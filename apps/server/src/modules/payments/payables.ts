import type { Tx } from '../../db/client.js';
import type { TPaidOutcome, TPayableKind, TProviderPaidRecord } from './payable-kinds.js';
import { recordStudyPaymentPaid } from './study-payment-ledger.js';

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
 * routed by the kind the link was made for. The study payment is the first; each invoice ledger
 * of issue 26 adds its kind to PAYABLE_KINDS and its entry here (the type makes both go together).
 */
export const PAYABLE_LEDGERS: { readonly [K in TPayableKind]: PayableLedger } = {
  STUDY_PAYMENT: { recordProviderPaid: recordStudyPaymentPaid },
};
