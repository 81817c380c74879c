import { sql } from 'drizzle-orm';
import { INVOICE_OVERDUE_LABEL, type TGroupFlags, formatDisplayTime } from '@radflow/core';
import type { Tx } from '../../db/client.js';
import { studyPayments } from '../../db/schema.js';
import { settleRow } from '../payments/payment-record.js';
import { overdueCentersSql } from './dunning.js';
import { rowsOf } from './ledger-context.js';
import { pricedChargesSql } from './priced-lines.js';

export const RELEASE_HOLD_NOTE = 'Payment due before release: the center has an overdue tele invoice';

/**
 * Payment before release (issue 26 §1; DECISIONS.md "Dunning"). Called by the sign-off, in its
 * transaction, after the row is SIGNED_OFF: with the group switch requirePaymentBeforeReportRelease on
 * and the row's center owing an overdue tele invoice (the row is labelled INVOICE_OVERDUE too), the existing study payment
 * flow takes over — a PENDING request of the study's read price (its parts and urgent surcharge by the
 * price in force, the invoice's own rule), the row's paymentStatus PENDING (the 402 gate holds it from
 * the viewer accounts), a PAYMENT_REQUESTED timeline row. Nothing priced, or a request already open:
 * nothing is held. The desk records the payment as for any study payment.
 */
export async function holdReleaseForDunning(
  tx: Tx,
  input: {
    row: {
      id: number;
      groupId: number;
      centerId: number;
      status: string;
      dunningLabels: string[];
      paymentStatus: string;
    };
    flags: TGroupFlags;
    actorUserId: number;
    now: Date;
  },
): Promise<boolean> {
  const { row, flags, now } = input;
  if (!flags.requirePaymentBeforeReportRelease || row.paymentStatus === 'PENDING') return false;
  const day = formatDisplayTime(now, flags.displayTimeZone, { label: false }).slice(0, 10);
  // The center's invoices decide, not the row's label: a row that arrived since the last sweep has
  // none yet. It gets it here.
  const [owes] = await rowsOf<{ overdue: boolean }>(
    tx,
    sql`select exists (select 1 from (${overdueCentersSql(row.groupId, day)}) c where c.center_id = ${row.centerId}) as overdue`,
  );
  if (!owes?.overdue) return false;
  if (!row.dunningLabels.includes(INVOICE_OVERDUE_LABEL))
    await tx.execute(
      sql`update report_statuses set dunning_labels = array_append(dunning_labels, ${INVOICE_OVERDUE_LABEL}) where id = ${row.id}`,
    );
  const priced = pricedChargesSql({
    groupId: row.groupId,
    centerId: row.centerId,
    excludeCenterIds: [],
    periodStart: day,
    periodEnd: day,
    timeZone: flags.displayTimeZone,
  });
  const [price] = await rowsOf<{ amount: string | number | null }>(
    tx,
    sql`with priced as (${priced})
      select sum(unit_minor)::bigint as amount from priced
      where report_status_id = ${row.id} and charge in ('READ', 'URGENT') and price_id is not null`,
  );
  const amountMinor = Number(price?.amount ?? 0);
  if (amountMinor <= 0) return false;
  const [payment] = await tx
    .insert(studyPayments)
    .values({
      reportStatusId: row.id,
      groupId: row.groupId,
      amountMinor,
      currency: 'INR',
      note: RELEASE_HOLD_NOTE,
      requestedByUserId: input.actorUserId,
      createdAt: now,
    })
    .returning({ id: studyPayments.id });
  await settleRow(tx, {
    reportStatusId: row.id,
    workflowStatus: 'SIGNED_OFF',
    eventType: 'PAYMENT_REQUESTED',
    actor: { userId: input.actorUserId },
    detail: { paymentId: payment!.id, amountMinor, currency: 'INR', note: RELEASE_HOLD_NOTE },
    at: now,
  });
  return true;
}
