import { and, eq } from 'drizzle-orm';
import { AppError, PAYMENT_ID_PARAM, type TPaymentConfirmResponse } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { studyPayments } from '../../db/schema.js';
import { recordStudyPaymentPaid } from './study-payment-ledger.js';

export const MESSAGE_PAYMENT_UNKNOWN = 'This payment is not known';

/**
 * POST /customer-report/payment-confirm (spec-core §2 Login page, §7): the login page posts its query
 * parameters (`payment-id` = the provider's reference, plus what the provider added) with password and
 * mobile. Nothing the caller sends is believed: the provider is asked about the reference, and only
 * its PAID records the payment, through the one recorder of a paid online payment
 * (study-payment-ledger.ts). Repeating the call changes nothing more. Password and mobile are not credentials here
 * and are neither checked nor kept (DECISIONS.md).
 */
export async function confirmPayment(
  ctx: AppContext,
  params: Readonly<Record<string, string | undefined>>,
): Promise<TPaymentConfirmResponse> {
  const provider = ctx.payment;
  const reference = params[PAYMENT_ID_PARAM] ?? '';
  const [payment] = await ctx.db
    .select({ status: studyPayments.status })
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

  // The one way a paid online payment is recorded (the webhook records through it too).
  await ctx.db.transaction((tx) =>
    recordStudyPaymentPaid(tx, {
      provider: provider.name,
      reference,
      providerPaymentId: null,
      amount: null,
      at: ctx.now(),
    }),
  );
  return { paymentStatus: 'PAID' };
}
