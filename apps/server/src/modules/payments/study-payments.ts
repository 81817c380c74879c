import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  AppError,
  type TStudyPayments,
  type ZRecordDeskPaymentBody,
  type ZRequestPaymentBody,
  canManageStudyPayment,
  formatPaymentAmount,
  formatDicomText,
  formatPersonName,
  toMinorUnits,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { reportStatuses, studyPayments, users } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';
import { loadVisibleReportRow } from '../studies/visible-row.js';
import { lockReportRow, readStudyPayments, settleRow } from './payment-record.js';

export interface TPaymentsDeps {
  /** The providers too (ctx.payment, ctx.email). */
  ctx: AppContext;
  /** Where users reach us (config PUBLIC_URL), else the address of the request. */
  publicUrl: string;
}

export const MESSAGE_PAYMENT_PENDING = 'A payment is already pending for this study';
export const MESSAGE_NO_PAYMENT_PENDING = 'No payment is pending for this study';

/** The study, visible to the caller (404) and theirs to handle payments for (core canManageStudyPayment, 403). */
async function loadPayableRow(ctx: AppContext, auth: TAuth, reportStatusId: number) {
  const row = await loadVisibleReportRow(ctx.db, auth, reportStatusId, {
    id: reportStatuses.id,
    groupId: reportStatuses.groupId,
    centerId: reportStatuses.centerId,
    status: reportStatuses.status,
    paymentStatus: reportStatuses.paymentStatus,
    patientName: reportStatuses.patientName,
    studyName: reportStatuses.studyName,
    sharedEmails: reportStatuses.sharedEmails,
  });
  if (!canManageStudyPayment({ roles: auth.roles, row, userCenterId: auth.user.centerId })) {
    throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
  }
  return row;
}

function describeStudy(row: { id: number; patientName: string; studyName: string }): string {
  const parts = [formatPersonName(row.patientName), formatDicomText(row.studyName)].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : `study ${row.id}`;
}

/** GET /report-status/payments/{id}: the payment status and every request of the study. */
export async function listStudyPayments(ctx: AppContext, auth: TAuth, reportStatusId: number) {
  const row = await loadPayableRow(ctx, auth, reportStatusId);
  return readStudyPayments(ctx.db, row.id);
}

/**
 * POST /report-status/payment/request/{id}: asks the provider for a pay link, records the request
 * PENDING (the row's paymentStatus with it, and the timeline row, in one transaction), then e-mails
 * the link to the viewer accounts the study is shared with. One open request per study (409).
 */
export async function requestPayment(
  deps: TPaymentsDeps,
  auth: TAuth,
  reportStatusId: number,
  input: z.output<typeof ZRequestPaymentBody>,
): Promise<TStudyPayments> {
  const { ctx } = deps;
  const row = await loadPayableRow(ctx, auth, reportStatusId);
  if (row.paymentStatus === 'PENDING') throw new AppError('CONFLICT', MESSAGE_PAYMENT_PENDING);
  const amountMinor = toMinorUnits(input.amount);
  const description = input.note || `Report and images of ${describeStudy(row)}`;
  const now = ctx.now();
  let paymentId: number;
  try {
    paymentId = await ctx.db.transaction(async (tx) => {
      const locked = await lockReportRow(tx, row.id);
      if (!locked) throw new AppError('NOT_FOUND', 'Not found', 'id');
      const [payment] = await tx
        .insert(studyPayments)
        .values({
          reportStatusId: row.id,
          groupId: row.groupId,
          amountMinor,
          currency: input.currency,
          note: input.note,
          provider: deps.ctx.payment.name,
          requestedByUserId: auth.user.id,
          createdAt: now,
        })
        .returning({ id: studyPayments.id });
      if (!payment) throw new Error('payment insert returned no row');
      await settleRow(tx, {
        reportStatusId: row.id,
        workflowStatus: locked.status,
        eventType: 'PAYMENT_REQUESTED',
        actor: { userId: auth.user.id },
        detail: { paymentId: payment.id, amountMinor, currency: input.currency, note: input.note },
        at: now,
      });
      return payment.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', MESSAGE_PAYMENT_PENDING);
    throw error;
  }

  // The gateway is asked after commit (no transaction waits on the network); a refusal withdraws the
  // request again, so no study stays PENDING with nothing to pay through.
  let link: { reference: string; url: string | null };
  try {
    link = await deps.ctx.payment.createPaymentLink({
      payable: 'STUDY_PAYMENT',
      paymentId,
      amountMinor,
      currency: input.currency,
      description,
      returnUrl: `${deps.publicUrl}/login-page`,
    });
  } catch (error) {
    await withdraw(deps.ctx, row.id, paymentId, { label: 'Payment provider' }, 'The provider made no link');
    throw new AppError('UPSTREAM_FAILED', 'The payment provider could not make a pay link', String(error));
  }
  await ctx.db
    .update(studyPayments)
    .set({ providerReference: link.reference, payUrl: link.url })
    .where(eq(studyPayments.id, paymentId));

  await emailPayers(deps, row, {
    subject: `Payment requested: ${describeStudy(row)}`,
    body:
      `A payment of ${formatPaymentAmount(amountMinor, input.currency)} is requested for ${describeStudy(row)}` +
      `${input.note ? ` (${input.note})` : ''}.\n\n` +
      (link.url
        ? `Pay here: ${link.url}\n\n`
        : 'Please pay at the center; it will record your payment.\n\n') +
      'Until it is paid, the report and images shared with you cannot be opened.\n',
  });
  return readStudyPayments(ctx.db, row.id);
}

/** The viewer accounts of the group a study is shared with by e-mail (they are the ones asked to pay). */
async function emailPayers(
  deps: TPaymentsDeps,
  row: { id: number; groupId: number; sharedEmails: string[] },
  message: { subject: string; body: string },
) {
  if (row.sharedEmails.length === 0) return;
  const payers = await deps.ctx.db
    .select({ email: users.email })
    .from(users)
    .where(
      and(
        eq(users.groupId, row.groupId),
        eq(users.active, true),
        inArray(users.email, row.sharedEmails),
        sql`'ROLE_VIEWER' = any(${users.roles})`,
      ),
    );
  for (const payer of payers) {
    try {
      await deps.ctx.email.send({ to: payer.email, ...message, reportStatusId: row.id });
    } catch {
      // The request stands: a refused e-mail is recorded FAILED in the outbox (the study's delivery
      // list shows it) and the link is on the payer's payment page all the same.
    }
  }
}

async function withdraw(
  ctx: AppContext,
  reportStatusId: number,
  paymentId: number,
  actor: { userId: number } | { label: string },
  reason: string,
) {
  await ctx.db.transaction(async (tx) => {
    const locked = await lockReportRow(tx, reportStatusId);
    if (!locked) return;
    const now = ctx.now();
    const [cancelled] = await tx
      .update(studyPayments)
      .set({
        status: 'CANCELLED',
        cancelledAt: now,
        cancelledByUserId: 'userId' in actor ? actor.userId : null,
      })
      .where(and(eq(studyPayments.id, paymentId), eq(studyPayments.status, 'PENDING')))
      .returning({ id: studyPayments.id });
    if (!cancelled) return;
    await settleRow(tx, {
      reportStatusId,
      workflowStatus: locked.status,
      eventType: 'PAYMENT_CANCELLED',
      actor,
      detail: { paymentId, reason },
      at: now,
    });
  });
}

/**
 * POST /report-status/payment/cancel/{id}: withdraws the pending request; the row returns to what its
 * earlier requests say (PAID when one was paid, else NOT_REQUIRED). 409 when nothing is pending.
 */
export async function cancelPayment(ctx: AppContext, auth: TAuth, reportStatusId: number) {
  const row = await loadPayableRow(ctx, auth, reportStatusId);
  const [pending] = await ctx.db
    .select({ id: studyPayments.id })
    .from(studyPayments)
    .where(and(eq(studyPayments.reportStatusId, row.id), eq(studyPayments.status, 'PENDING')));
  if (!pending) throw new AppError('CONFLICT', MESSAGE_NO_PAYMENT_PENDING);
  await withdraw(ctx, row.id, pending.id, { userId: auth.user.id }, 'Cancelled by staff');
  return readStudyPayments(ctx.db, row.id);
}

/**
 * POST /report-status/payment/record/{id}: a payment taken at the desk (CASH, UPI, CARD). It settles
 * the pending request (an `amount`, when given, must be that request's), or without one records a
 * paid request of `amount` (400 when missing). The row becomes PAID with that mode.
 */
export async function recordDeskPayment(
  ctx: AppContext,
  auth: TAuth,
  reportStatusId: number,
  input: z.output<typeof ZRecordDeskPaymentBody>,
): Promise<TStudyPayments> {
  const row = await loadPayableRow(ctx, auth, reportStatusId);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const locked = await lockReportRow(tx, row.id);
    if (!locked) throw new AppError('NOT_FOUND', 'Not found', 'id');
    const [pending] = await tx
      .select({
        id: studyPayments.id,
        amountMinor: studyPayments.amountMinor,
        currency: studyPayments.currency,
      })
      .from(studyPayments)
      .where(and(eq(studyPayments.reportStatusId, row.id), eq(studyPayments.status, 'PENDING')));
    const paid = {
      status: 'PAID' as const,
      mode: input.mode,
      transactionId: input.transactionId,
      paidRecordedByUserId: auth.user.id,
      paidAt: now,
    };
    let payment: { id: number; amountMinor: number; currency: string };
    if (pending) {
      if (input.amount !== undefined && toMinorUnits(input.amount) !== pending.amountMinor) {
        throw new AppError(
          'BAD_REQUEST',
          `amount is not the pending request's ${formatPaymentAmount(pending.amountMinor, pending.currency)}`,
          'amount',
        );
      }
      await tx.update(studyPayments).set(paid).where(eq(studyPayments.id, pending.id));
      payment = pending;
    } else {
      if (input.amount === undefined) {
        throw new AppError('BAD_REQUEST', 'amount is required when no payment is pending', 'amount');
      }
      const [inserted] = await tx
        .insert(studyPayments)
        .values({
          reportStatusId: row.id,
          groupId: row.groupId,
          amountMinor: toMinorUnits(input.amount),
          currency: input.currency,
          requestedByUserId: auth.user.id,
          createdAt: now,
          ...paid,
        })
        .returning({
          id: studyPayments.id,
          amountMinor: studyPayments.amountMinor,
          currency: studyPayments.currency,
        });
      if (!inserted) throw new Error('payment insert returned no row');
      payment = inserted;
    }
    await settleRow(tx, {
      reportStatusId: row.id,
      workflowStatus: locked.status,
      eventType: 'PAYMENT_RECORDED',
      actor: { userId: auth.user.id },
      detail: {
        paymentId: payment.id,
        amountMinor: payment.amountMinor,
        currency: payment.currency,
        mode: input.mode,
        transactionId: input.transactionId,
      },
      at: now,
    });
  });
  return readStudyPayments(ctx.db, row.id);
}
