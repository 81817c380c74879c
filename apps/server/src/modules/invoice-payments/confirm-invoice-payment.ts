import { AppError, PAYMENT_ID_PARAM, type TInvoicePayConfirm } from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { TAuth } from '../../plugins/auth.js';
import {
  PAY_LINK_MESSAGES,
  isPayerOf,
  payLinkOf,
  recordPlatformInvoicePaid,
  recordTeleInvoicePaid,
} from './invoice-pay-links.js';

/**
 * POST /invoice-payments/confirm: the invoice page after the provider sent the payer back with
 * `payment-id` (our reference) and its signed parameters. Only the provider's answer counts
 * (`verifyPayment`); PAID records through the payable's ledger — the very function the webhook
 * calls (payment-webhook/payables.ts) — so the return and the webhook together record the payment once. A reference that is not
 * the caller's to pay is 404.
 */
export async function confirmInvoicePayment(
  ctx: AppContext,
  auth: TAuth,
  params: Readonly<Record<string, string>>,
): Promise<TInvoicePayConfirm> {
  const reference = params[PAYMENT_ID_PARAM] ?? '';
  const link = await payLinkOf(ctx, ctx.payment.name, reference);
  if (!link || !(await isPayerOf(ctx, auth, link))) {
    throw new AppError('NOT_FOUND', PAY_LINK_MESSAGES.unknownReference, PAYMENT_ID_PARAM);
  }
  const invoiceId = (link.billingDocumentId ?? link.platformInvoiceId)!;
  const answer = { payable: link.payableKind, invoiceId };
  if (link.paidAt) return { paymentStatus: 'PAID', ...answer };
  const status = await ctx.payment.verifyPayment(reference, params);
  if (status !== 'PAID') return { paymentStatus: status, ...answer };
  const at = ctx.now();
  const outcome = await ctx.db.transaction((tx) =>
    (link.payableKind === 'TELE_INVOICE' ? recordTeleInvoicePaid : recordPlatformInvoicePaid)(tx, {
      provider: link.provider,
      reference,
      providerPaymentId: null,
      amount: null,
      at,
    }),
  );
  // AMOUNT_MISMATCH: the money was taken but the invoice no longer owes it (paid meanwhile): not
  // recorded; staff see the link unpaid and refund. The payer is told it is pending.
  return { paymentStatus: outcome === 'AMOUNT_MISMATCH' ? 'PENDING' : 'PAID', ...answer };
}
