import { and, eq, inArray } from 'drizzle-orm';
import { AppError, PAYMENT_ID_PARAM, type TPaymentConfirmResponse } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { studyPayments } from '../../db/schema.js';
import { lockReportRow, settleRow } from './payment-record.js';

export const MESSAGE_PAYMENT_UNKNOWN = 'This payment is not known';

/**
 * POST /customer-report/payment-confirm (spec-core §2 Login page, §7): the login page posts its query
 * parameters (`payment-id` = the provider's reference, plus what the provider added) with password and
 * mobile. Nothing the caller sends is believed: the provider is asked about the reference, and only
 * its PAID records the payment (ONLINE), the row's paymentStatus and the timeline row in one
 * transaction. Repeating the call changes nothing more. Password and mobile are not credentials here
 * and are neither checked nor kept (DECISIONS.md).
 */
export async function confirmPayment(
  ctx: AppContext,
  params: Readonly<Record<string, string | undefined>>,
): Promise<TPaymentConfirmResponse> {
  const provider = ctx.payment;
  const reference = params[PAYMENT_ID_PARAM] ?? '';
  const [payment] = await ctx.db
    .select({
      id: studyPayments.id,
      status: studyPayments.status,
      reportStatusId: studyPayments.reportStatusId,
    })
    .from(studyPayments)
    .where(and(eq(studyPayments.provider, provider.name), eq(studyPayments.providerReference, reference)));
  if (!payment) throw new AppError('NOT_FOUND', MESSAGE_PAYMENT_UNKNOWN, PAYMENT_ID_PARAM);
  if (payment.status === 'PAID') return { paymentStatus: 'PAID' };

  const returnParams: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (key !== 'password' && key !== 'mobile' && value !== undefined) returnParams[key] = value;
  }
  let answer: TPaymentConfirmResponse['paymentStatus'];
  try {
    answer = await provider.verifyPayment(reference, returnParams);
  } catch (error) {
    throw new AppError('UPSTREAM_FAILED', 'The payment provider could not be asked', String(error));
  }
  if (answer !== 'PAID') return { paymentStatus: answer };

  // Paid at the provider: recorded even when staff had cancelled the request meanwhile (the money
  // was taken; the history shows both).
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const locked = await lockReportRow(tx, payment.reportStatusId);
    if (!locked) return;
    const [paid] = await tx
      .update(studyPayments)
      .set({ status: 'PAID', mode: 'ONLINE', paidAt: now })
      .where(and(eq(studyPayments.id, payment.id), inArray(studyPayments.status, ['PENDING', 'CANCELLED'])))
      .returning({ amountMinor: studyPayments.amountMinor, currency: studyPayments.currency });
    if (!paid) return;
    await settleRow(tx, {
      reportStatusId: payment.reportStatusId,
      workflowStatus: locked.status,
      eventType: 'PAYMENT_PAID',
      actor: { label: 'Payment provider' },
      detail: { paymentId: payment.id, ...paid, mode: 'ONLINE', provider: provider.name },
      at: now,
    });
  });
  return { paymentStatus: 'PAID' };
}
