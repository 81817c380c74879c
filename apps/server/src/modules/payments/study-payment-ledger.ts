import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { studyPayments } from '../../db/schema.js';
import type { TPaidOutcome, TProviderPaidRecord } from './payable-kinds.js';
import { lockReportRow, settleRow } from './payment-record.js';

/**
 * The one way a provider-confirmed (ONLINE) study payment is recorded, whether the payer's return
 * (payment-confirm) or the provider's webhook says so: in the caller's transaction, the request
 * PAID with mode ONLINE, the row's paymentStatus and the timeline row `PAYMENT_PAID`. A request
 * staff cancelled meanwhile is recorded too (the money was taken; the history shows both). Once
 * paid, a second confirmation changes nothing (ALREADY_PAID): the report row is locked first and
 * the update only takes a request that is not PAID, so the return and the webhook arriving together
 * record it once.
 */
export async function recordStudyPaymentPaid(tx: Tx, paid: TProviderPaidRecord): Promise<TPaidOutcome> {
  const [payment] = await tx
    .select({
      id: studyPayments.id,
      reportStatusId: studyPayments.reportStatusId,
      amountMinor: studyPayments.amountMinor,
      currency: studyPayments.currency,
    })
    .from(studyPayments)
    .where(
      and(eq(studyPayments.provider, paid.provider), eq(studyPayments.providerReference, paid.reference)),
    );
  if (!payment) return 'UNKNOWN_REFERENCE';
  if (
    paid.amount &&
    (paid.amount.minor !== payment.amountMinor || paid.amount.currency !== payment.currency)
  ) {
    return 'AMOUNT_MISMATCH';
  }
  const locked = await lockReportRow(tx, payment.reportStatusId);
  if (!locked) return 'UNKNOWN_REFERENCE';
  const [done] = await tx
    .update(studyPayments)
    .set({
      status: 'PAID',
      mode: 'ONLINE',
      paidAt: paid.at,
      ...(paid.providerPaymentId ? { transactionId: paid.providerPaymentId } : {}),
    })
    .where(and(eq(studyPayments.id, payment.id), inArray(studyPayments.status, ['PENDING', 'CANCELLED'])))
    .returning({ amountMinor: studyPayments.amountMinor, currency: studyPayments.currency });
  if (!done) return 'ALREADY_PAID';
  await settleRow(tx, {
    reportStatusId: payment.reportStatusId,
    workflowStatus: locked.status,
    eventType: 'PAYMENT_PAID',
    actor: { label: 'Payment provider' },
    detail: { paymentId: payment.id, ...done, mode: 'ONLINE', provider: paid.provider },
    at: paid.at,
  });
  return 'RECORDED';
}
