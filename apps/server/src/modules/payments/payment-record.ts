import { desc, eq, inArray } from 'drizzle-orm';
import {
  type TReportStatus,
  type TStudyEventPayloads,
  type TStudyPayments,
  studyPaymentOf,
} from '@radflow/core';
import type { DbOrTx, Tx } from '../../db/client.js';
import { reportStatuses, studyPayments, users } from '../../db/schema.js';
import { type TStudyEventActor, recordStudyEvent } from '../study-events/record-study-event.js';

/** The payment timeline events (core study-events). */
export type TPaymentEvent = 'PAYMENT_REQUESTED' | 'PAYMENT_RECORDED' | 'PAYMENT_PAID' | 'PAYMENT_CANCELLED';

/**
 * Locks the report row for a payment change (every change of a study's payments takes it first, so
 * two changes of one study run one after the other) and answers its workflow status, or null when
 * the row is gone.
 */
export async function lockReportRow(tx: Tx, reportStatusId: number) {
  const [row] = await tx
    .select({ status: reportStatuses.status })
    .from(reportStatuses)
    .where(eq(reportStatuses.id, reportStatusId))
    .for('update');
  return row ?? null;
}

/**
 * Sets the row's paymentStatus / paymentMode from its requests (core studyPaymentOf) and writes the
 * timeline row of the change, in the caller's transaction.
 */
export async function settleRow<T extends TPaymentEvent>(
  tx: Tx,
  change: {
    reportStatusId: number;
    workflowStatus: TReportStatus;
    eventType: T;
    actor: { userId: number } | { label: string };
    /** The event's detail but the row's payment status and mode, which this adds. */
    detail: Omit<TStudyEventPayloads[T], 'paymentStatus' | 'paymentMode'>;
    at: Date;
  },
) {
  const history = await tx
    .select({ status: studyPayments.status, mode: studyPayments.mode })
    .from(studyPayments)
    .where(eq(studyPayments.reportStatusId, change.reportStatusId))
    .orderBy(desc(studyPayments.id));
  const payment = studyPaymentOf(history);
  await tx
    .update(reportStatuses)
    .set({ ...payment, updatedAt: change.at })
    .where(eq(reportStatuses.id, change.reportStatusId));
  const actor: TStudyEventActor = change.actor;
  await recordStudyEvent(tx, {
    reportStatusId: change.reportStatusId,
    type: change.eventType,
    actor,
    // The workflow status does not move; the payment's own change is in the detail.
    fromStatus: change.workflowStatus,
    toStatus: change.workflowStatus,
    payload: {
      ...change.detail,
      paymentStatus: payment.paymentStatus,
      paymentMode: payment.paymentMode,
    } as TStudyEventPayloads[T],
    at: change.at,
  });
  return payment;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The row's payment status with its requests, newest first, as the API answers it. */
export async function readStudyPayments(db: DbOrTx, reportStatusId: number): Promise<TStudyPayments> {
  const [row] = await db
    .select({ paymentStatus: reportStatuses.paymentStatus, paymentMode: reportStatuses.paymentMode })
    .from(reportStatuses)
    .where(eq(reportStatuses.id, reportStatusId));
  const payments = await db
    .select()
    .from(studyPayments)
    .where(eq(studyPayments.reportStatusId, reportStatusId))
    .orderBy(desc(studyPayments.id));
  const userIds = [
    ...new Set(payments.flatMap((p) => [p.requestedByUserId, p.paidRecordedByUserId, p.cancelledByUserId])),
  ].filter((id): id is number => id !== null);
  const people =
    userIds.length === 0
      ? []
      : await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, userIds));
  const emailOf = (id: number | null) =>
    id === null ? null : (people.find((u) => u.id === id)?.email ?? null);
  return {
    reportStatusId,
    paymentStatus: row?.paymentStatus ?? 'NOT_REQUIRED',
    paymentMode: row?.paymentMode ?? null,
    payments: payments.map((p) => ({
      id: p.id,
      status: p.status,
      mode: p.mode,
      amountMinor: p.amountMinor,
      currency: p.currency,
      note: p.note,
      payUrl: p.payUrl,
      providerReference: p.providerReference,
      transactionId: p.transactionId,
      requestedBy: emailOf(p.requestedByUserId),
      paidRecordedBy: emailOf(p.paidRecordedByUserId),
      cancelledBy: emailOf(p.cancelledByUserId),
      createdAt: p.createdAt.toISOString(),
      paidAt: iso(p.paidAt),
      cancelledAt: iso(p.cancelledAt),
    })),
  };
}
