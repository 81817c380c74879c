import { eq } from 'drizzle-orm';
import { AppError } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { paymentWebhookEvents } from '../../db/schema.js';
import { type TPaidOutcome, isPayableKind } from '../payments/payable-kinds.js';
import { PAYABLE_LEDGERS } from './payables.js';

export const MESSAGE_NO_WEBHOOK = 'No payment provider of this name takes webhooks here';

/**
 * What a webhook call did: a ledger's outcome for a paid link; IGNORED (not a paid link: the event
 * is acknowledged and logged); UNKNOWN_PAYABLE (the link names no payable kind of ours); REPLAYED
 * (the provider sent this event id before: nothing changes).
 */
export type TWebhookOutcome = TPaidOutcome | 'IGNORED' | 'UNKNOWN_PAYABLE' | 'REPLAYED';

/**
 * POST /payments/webhook/{provider} (DECISIONS.md "Webhook"). The configured provider reads the
 * call — its signature over the raw body first (401 when missing or wrong, nothing recorded), then
 * the event (400 when unreadable). In one transaction: the event's row (unique provider + event id,
 * so a replay answers REPLAYED and changes nothing), and for a paid link the payable's ledger
 * records the payment (payables.ts: the study payment through the same recorder as payment-confirm).
 * Every other answer is 200, so the provider neither retries nor disables the webhook for an event
 * we have no use for.
 */
export async function handlePaymentWebhook(
  ctx: AppContext,
  providerName: string,
  rawBody: Buffer,
  headers: Readonly<Record<string, string | undefined>>,
): Promise<{ outcome: TWebhookOutcome; eventId: string; type: string }> {
  const provider = ctx.payment;
  if (provider.name !== providerName || !provider.webhook) {
    throw new AppError('NOT_FOUND', MESSAGE_NO_WEBHOOK, 'provider');
  }
  const reading = provider.webhook.read(rawBody, headers);
  if (!reading.ok) {
    throw new AppError(reading.problem === 'SIGNATURE' ? 'UNAUTHORIZED' : 'BAD_REQUEST', reading.message);
  }
  const { event } = reading;
  const { paid } = event;
  const at = ctx.now();
  const outcome = await ctx.db.transaction(async (tx): Promise<TWebhookOutcome> => {
    const [row] = await tx
      .insert(paymentWebhookEvents)
      .values({
        provider: provider.name,
        eventId: event.eventId,
        eventType: event.type,
        payableKind: paid?.payable || null,
        reference: paid?.reference ?? null,
        outcome: 'RECEIVED',
        receivedAt: at,
      })
      .onConflictDoNothing({ target: [paymentWebhookEvents.provider, paymentWebhookEvents.eventId] })
      .returning({ id: paymentWebhookEvents.id });
    if (!row) return 'REPLAYED';
    let done: TWebhookOutcome;
    if (!paid) done = 'IGNORED';
    else if (!isPayableKind(paid.payable)) done = 'UNKNOWN_PAYABLE';
    else {
      done = await PAYABLE_LEDGERS[paid.payable].recordProviderPaid(tx, {
        provider: provider.name,
        reference: paid.reference,
        providerPaymentId: paid.providerPaymentId,
        amount: { minor: paid.amountMinor, currency: paid.currency },
        at,
      });
    }
    await tx.update(paymentWebhookEvents).set({ outcome: done }).where(eq(paymentWebhookEvents.id, row.id));
    return done;
  });
  return { outcome, eventId: event.eventId, type: event.type };
}
