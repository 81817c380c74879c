import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import {
  AppError,
  PLATFORM_PAYMENT_TERMS_DAYS,
  PLATFORM_TIME_ZONE,
  type TIssueInvoicesAnswer,
  type TPlatformInvoice,
  calendarDayIn,
  nextPeriod,
  platformInvoiceAmounts,
  platformInvoiceDueMinor,
  toRupees,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { groups, platformCounters, platformInvoices } from '../../db/schema.js';
import { auditPlatformBilling } from './audit.js';
import { queryRows } from './sql-rows.js';

export const INVOICE_MESSAGES = {
  monthNotEnded: 'The month has not ended yet; a month is invoiced after its last day',
  notFound: 'Invoice not found',
  notAnInvoice: 'A credit note cannot be credited',
  alreadyCredited: 'The invoice is already credited',
  paidCannotBeCredited: 'A paid (or part-paid) invoice cannot be credited',
} as const;

const COUNTER = 'PLATFORM_INVOICE';
const INSERT_CHUNK = 1000;

/** The platform's invoice number: gapless across invoices and credit notes. */
export const invoiceNumberOf = (sequence: number) => `RFP-${String(sequence).padStart(6, '0')}`;

/** [start, end) of a period, as timestamptz: the calendar month of PLATFORM_TIME_ZONE. */
export function periodBounds(period: string): { lo: SQL; hi: SQL } {
  return {
    lo: sql`(${`${period}-01`}::timestamp AT TIME ZONE ${PLATFORM_TIME_ZONE})`,
    hi: sql`(${`${nextPeriod(period)}-01`}::timestamp AT TIME ZONE ${PLATFORM_TIME_ZONE})`,
  };
}

function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Takes `count` numbers of the platform's sequence; the row stays locked until the transaction ends. */
async function takeSequence(tx: DbOrTx, count: number): Promise<number> {
  const [row] = await tx
    .update(platformCounters)
    .set({ value: sql`${platformCounters.value} + ${count}` })
    .where(eq(platformCounters.name, COUNTER))
    .returning({ first: sql<number>`(${platformCounters.value} - ${count} + 1)::bigint` });
  if (!row) throw new Error('platform_counters has no PLATFORM_INVOICE row (migration 0040)');
  return Number(row.first);
}

interface TCandidate {
  group_id: number;
  plan_id: number;
  plan_name: string;
  kind: 'PER_STUDY' | 'SUBSCRIPTION';
  monthly_fee_minor: string | number;
  included_studies: number;
  per_study_minor: string | number;
  studies: number;
}

/**
 * Invoices a month for every group at once (issue 26 §5): each group on a paid plan whose subscription
 * began before the month ended and which has no live invoice for it gets one, counting the studies
 * first signed off in the month. The counter row is locked first, so two runs at once queue and the
 * second finds everything issued; a re-run issues only what is missing (idempotent).
 */
export async function issueMonth(
  tx: DbOrTx,
  input: { period: string; actorEmail: string; now: Date },
): Promise<TIssueInvoicesAnswer> {
  const { period, now } = input;
  const { lo, hi } = periodBounds(period);
  const [ended] = await queryRows<{ ended: boolean }>(
    tx,
    sql`SELECT ${hi} <= ${now.toISOString()}::timestamptz AS ended`,
  );
  if (!ended?.ended) throw new AppError('BAD_REQUEST', INVOICE_MESSAGES.monthNotEnded, 'period');

  // The lock that serialises runs (and keeps the numbers gapless): taken before reading candidates.
  await tx.execute(sql`SELECT value FROM platform_counters WHERE name = ${COUNTER} FOR UPDATE`);
  const candidates = await queryRows<TCandidate>(
    tx,
    sql`
      SELECT s.group_id, p.id AS plan_id, p.name AS plan_name, p.kind, p.monthly_fee_minor,
             p.included_studies, p.per_study_minor,
             (SELECT count(*) FROM report_statuses r
               WHERE r.group_id = s.group_id AND r.first_signed_off_at >= ${lo}
                 AND r.first_signed_off_at < ${hi})::int AS studies
        FROM group_subscriptions s
        JOIN platform_plans p ON p.id = s.plan_id
       WHERE p.trial_days = 0 AND s.status <> 'CANCELLED' AND s.started_at < ${hi}
         AND NOT EXISTS (SELECT 1 FROM platform_invoices i
                          WHERE i.group_id = s.group_id AND i.period = ${period}
                            AND i.kind = 'INVOICE' AND i.status <> 'CREDITED')
       ORDER BY s.group_id`,
  );
  const [already] = await queryRows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM platform_invoices
         WHERE period = ${period} AND kind = 'INVOICE' AND status <> 'CREDITED'`,
  );
  if (candidates.length === 0) return { period, issued: 0, alreadyIssued: already?.n ?? 0 };

  const first = await takeSequence(tx, candidates.length);
  const dueDate = addDays(calendarDayIn(now, PLATFORM_TIME_ZONE), PLATFORM_PAYMENT_TERMS_DAYS);
  const rows = candidates.map((c, i) => {
    const amounts = platformInvoiceAmounts(
      {
        kind: c.kind,
        monthlyFeeMinor: Number(c.monthly_fee_minor),
        includedStudies: c.included_studies,
        perStudyMinor: Number(c.per_study_minor),
      },
      c.studies,
    );
    const sequence = first + i;
    return {
      sequence,
      number: invoiceNumberOf(sequence),
      kind: 'INVOICE' as const,
      groupId: c.group_id,
      period,
      planId: c.plan_id,
      planName: c.plan_name,
      studiesCounted: amounts.studiesCounted,
      studiesCharged: amounts.studiesCharged,
      includedStudies: c.included_studies,
      perStudyMinor: Number(c.per_study_minor),
      feeMinor: amounts.feeMinor,
      usageMinor: amounts.usageMinor,
      subtotalMinor: amounts.subtotalMinor,
      gstBasisPoints: amounts.gstBasisPoints,
      gstMinor: amounts.gstMinor,
      totalMinor: amounts.totalMinor,
      issuedAt: now,
      dueDate,
      issuedBy: input.actorEmail,
    };
  });
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await tx.insert(platformInvoices).values(rows.slice(i, i + INSERT_CHUNK));
  }
  await auditPlatformBilling(tx, {
    groupId: null,
    entity: 'INVOICE_RUN',
    entityId: null,
    action: 'ISSUED',
    actorEmail: input.actorEmail,
    detail: { period, issued: rows.length, first: rows[0]!.number, last: rows.at(-1)!.number },
  });
  return { period, issued: rows.length, alreadyIssued: already?.n ?? 0 };
}

type TInvoiceRow = typeof platformInvoices.$inferSelect;

export function invoiceOut(row: TInvoiceRow, groupName: string, today: string): TPlatformInvoice {
  const dueMinor = row.kind === 'INVOICE' ? platformInvoiceDueMinor(row.totalMinor, row.paidMinor) : 0;
  return {
    id: row.id,
    number: row.number,
    kind: row.kind,
    groupId: row.groupId,
    groupName,
    period: row.period,
    planName: row.planName,
    studiesCounted: row.studiesCounted,
    studiesCharged: row.studiesCharged,
    fee: toRupees(row.feeMinor),
    usage: toRupees(row.usageMinor),
    subtotal: toRupees(row.subtotalMinor),
    gstPercent: row.gstBasisPoints / 100,
    gst: toRupees(row.gstMinor),
    total: toRupees(row.totalMinor),
    paid: toRupees(row.paidMinor),
    due: toRupees(dueMinor),
    status: row.status,
    issuedAt: row.issuedAt.toISOString(),
    dueDate: row.dueDate,
    overdue: row.status === 'ISSUED' && dueMinor > 0 && row.dueDate < today,
    correctsInvoiceId: row.correctsInvoiceId,
  };
}

/** The invoices (newest first, at most 500), by month, group or overdue. */
export async function listInvoices(
  db: DbOrTx,
  query: {
    period?: string | undefined;
    groupId?: number | undefined;
    overdue?: 'true' | 'false' | undefined;
  },
  now: Date,
): Promise<TPlatformInvoice[]> {
  const today = calendarDayIn(now, PLATFORM_TIME_ZONE);
  const where: SQL[] = [];
  if (query.period) where.push(eq(platformInvoices.period, query.period));
  if (query.groupId) where.push(eq(platformInvoices.groupId, query.groupId));
  if (query.overdue === 'true') {
    where.push(eq(platformInvoices.status, 'ISSUED'), lt(platformInvoices.dueDate, today));
  }
  const rows = await db
    .select({ invoice: platformInvoices, groupName: groups.name })
    .from(platformInvoices)
    .innerJoin(groups, eq(groups.id, platformInvoices.groupId))
    .where(and(...where))
    .orderBy(desc(platformInvoices.sequence))
    .limit(500);
  return rows.map((r) => invoiceOut(r.invoice, r.groupName, today));
}

export async function readInvoice(db: DbOrTx, invoiceId: number, now: Date): Promise<TPlatformInvoice> {
  const [row] = await db
    .select({ invoice: platformInvoices, groupName: groups.name })
    .from(platformInvoices)
    .innerJoin(groups, eq(groups.id, platformInvoices.groupId))
    .where(eq(platformInvoices.id, invoiceId));
  if (!row) throw new AppError('NOT_FOUND', INVOICE_MESSAGES.notFound, 'invoiceId');
  return invoiceOut(row.invoice, row.groupName, calendarDayIn(now, PLATFORM_TIME_ZONE));
}

/**
 * Corrects an issued, unpaid invoice: a credit note of the opposite amounts with the next number, and
 * the invoice marked CREDITED (its amounts stay as issued). The month's next run re-issues it.
 */
export async function creditInvoice(
  tx: DbOrTx,
  input: { invoiceId: number; reason: string; actorEmail: string; now: Date },
): Promise<TPlatformInvoice> {
  const [inv] = await tx
    .select()
    .from(platformInvoices)
    .where(eq(platformInvoices.id, input.invoiceId))
    .for('update');
  if (!inv) throw new AppError('NOT_FOUND', INVOICE_MESSAGES.notFound, 'invoiceId');
  if (inv.kind !== 'INVOICE') throw new AppError('BAD_REQUEST', INVOICE_MESSAGES.notAnInvoice, 'invoiceId');
  if (inv.status === 'CREDITED')
    throw new AppError('CONFLICT', INVOICE_MESSAGES.alreadyCredited, 'invoiceId');
  if (inv.paidMinor > 0) throw new AppError('CONFLICT', INVOICE_MESSAGES.paidCannotBeCredited, 'invoiceId');
  const sequence = await takeSequence(tx, 1);
  const [note] = await tx
    .insert(platformInvoices)
    .values({
      sequence,
      number: invoiceNumberOf(sequence),
      kind: 'CREDIT_NOTE',
      groupId: inv.groupId,
      period: inv.period,
      planId: inv.planId,
      planName: inv.planName,
      correctsInvoiceId: inv.id,
      reason: input.reason,
      studiesCounted: inv.studiesCounted,
      studiesCharged: inv.studiesCharged,
      includedStudies: inv.includedStudies,
      perStudyMinor: inv.perStudyMinor,
      feeMinor: -inv.feeMinor,
      usageMinor: -inv.usageMinor,
      subtotalMinor: -inv.subtotalMinor,
      gstBasisPoints: inv.gstBasisPoints,
      gstMinor: -inv.gstMinor,
      totalMinor: -inv.totalMinor,
      status: 'CREDITED',
      issuedAt: input.now,
      dueDate: calendarDayIn(input.now, PLATFORM_TIME_ZONE),
      issuedBy: input.actorEmail,
    })
    .returning({ id: platformInvoices.id });
  await tx
    .update(platformInvoices)
    .set({ status: 'CREDITED', version: inv.version + 1 })
    .where(eq(platformInvoices.id, inv.id));
  await auditPlatformBilling(tx, {
    groupId: inv.groupId,
    entity: 'INVOICE',
    entityId: inv.id,
    action: 'CREDITED',
    actorEmail: input.actorEmail,
    detail: { creditNoteId: note!.id, reason: input.reason },
  });
  return readInvoice(tx, note!.id, input.now);
}
