import { and, desc, eq, sql } from 'drizzle-orm';
import {
  AppError,
  MONTHS_PER_PAYMENT,
  type TPlatformPayment,
  type TRecordPlatformPaymentBody,
  platformInvoiceDueMinor,
  rupeeText,
  toPaise,
  toRupees,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { groupSubscriptions, groups, platformInvoices, platformPayments } from '../../db/schema.js';
import { auditPlatformBilling } from './audit.js';
import { INVOICE_MESSAGES } from './invoices.js';
import { extendSubscription, readSubscription, SUBSCRIPTION_MESSAGES } from './subscriptions.js';

export const PAYMENT_MESSAGES = {
  duplicate: 'This payment reference is already recorded',
  invoiceNotPayable: 'The invoice is not open for payment',
  invoiceOfAnotherGroup: 'The invoice is not of this group',
  moreThanDue: (dueMinor: number) => `amount is more than the invoice's due ${rupeeText(dueMinor)}`,
} as const;

type TPaymentRow = typeof platformPayments.$inferSelect;

const paymentOut = (p: TPaymentRow) => ({
  id: p.id,
  groupId: p.groupId,
  invoiceId: p.invoiceId,
  amount: toRupees(p.amountMinor),
  mode: p.mode,
  reference: p.reference,
  provider: p.provider,
  receivedAt: p.receivedAt.toISOString(),
  recordedBy: p.recordedBy,
});

/**
 * Records a payment a group made (the Idempotency-Key wrapper is the route's). Against an invoice it
 * settles up to the invoice's due; the subscription is extended by MONTHS_PER_PAYMENT when the
 * payment completes its invoice or is an advance without one (DECISIONS.md "What a payment does").
 * The provider's reference is unique per provider: the same payment twice is a 409, never two rows.
 */
export async function recordPlatformPayment(
  tx: DbOrTx,
  input: { body: TRecordPlatformPaymentBody; actorEmail: string; now: Date },
): Promise<TPlatformPayment> {
  const { body, now, actorEmail } = input;
  const amountMinor = toPaise(body.amount);
  const [group] = await tx.select({ id: groups.id }).from(groups).where(eq(groups.id, body.groupId));
  if (!group) throw new AppError('NOT_FOUND', SUBSCRIPTION_MESSAGES.groupNotFound, 'groupId');

  let settlesInvoice = false;
  const invoiceId = body.invoiceId ?? null;
  if (invoiceId !== null) {
    const [inv] = await tx
      .select()
      .from(platformInvoices)
      .where(eq(platformInvoices.id, invoiceId))
      .for('update');
    if (!inv) throw new AppError('NOT_FOUND', INVOICE_MESSAGES.notFound, 'invoiceId');
    if (inv.groupId !== body.groupId) {
      throw new AppError('BAD_REQUEST', PAYMENT_MESSAGES.invoiceOfAnotherGroup, 'invoiceId');
    }
    if (inv.kind !== 'INVOICE' || inv.status !== 'ISSUED') {
      throw new AppError('CONFLICT', PAYMENT_MESSAGES.invoiceNotPayable, 'invoiceId');
    }
    const due = platformInvoiceDueMinor(inv.totalMinor, inv.paidMinor);
    if (amountMinor > due) throw new AppError('BAD_REQUEST', PAYMENT_MESSAGES.moreThanDue(due), 'amount');
    settlesInvoice = amountMinor === due;
    await tx
      .update(platformInvoices)
      .set({
        paidMinor: inv.paidMinor + amountMinor,
        status: settlesInvoice ? 'PAID' : 'ISSUED',
        version: inv.version + 1,
      })
      .where(eq(platformInvoices.id, inv.id));
  }

  const [payment] = await tx
    .insert(platformPayments)
    .values({
      groupId: body.groupId,
      invoiceId,
      amountMinor,
      mode: body.mode,
      reference: body.reference.trim(),
      provider: body.provider ?? 'MANUAL',
      receivedAt: now,
      recordedBy: actorEmail,
    })
    .onConflictDoNothing({ target: [platformPayments.provider, platformPayments.reference] })
    .returning();
  if (!payment) throw new AppError('CONFLICT', PAYMENT_MESSAGES.duplicate, 'reference');
  await auditPlatformBilling(tx, {
    groupId: body.groupId,
    entity: 'PAYMENT',
    entityId: payment.id,
    action: 'RECORDED',
    actorEmail,
    detail: { amountMinor, invoiceId, mode: body.mode, reference: payment.reference },
  });

  const [sub] = await tx
    .select({ id: groupSubscriptions.id })
    .from(groupSubscriptions)
    .where(eq(groupSubscriptions.groupId, body.groupId));
  const extends_ = sub && (invoiceId === null || settlesInvoice);
  const subscription = extends_
    ? await extendSubscription(
        tx,
        { groupId: body.groupId, months: MONTHS_PER_PAYMENT, version: null, actorEmail, now },
        'PAYMENT_EXTENDED',
      )
    : await readSubscription(tx, body.groupId, now);
  return { ...paymentOut(payment), subscription };
}

/** The payments (newest first, at most 500), of one group or all. */
export async function listPlatformPayments(db: DbOrTx, groupId: number | undefined) {
  const rows = await db
    .select()
    .from(platformPayments)
    .where(groupId ? and(eq(platformPayments.groupId, groupId)) : sql`true`)
    .orderBy(desc(platformPayments.id))
    .limit(500);
  return rows.map(paymentOut);
}
