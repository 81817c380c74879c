import { and, asc, desc, eq, sql } from 'drizzle-orm';
import {
  AppError,
  BILLING_DOCUMENT_PREFIXES,
  PAYOUT_MESSAGES as M,
  type TPayoutIssueResult,
  type TPayoutLine,
  type TPayoutPreview,
  type TPayoutStatement,
  type TPayoutStatementDetail,
  type TRecordPayoutPaymentBody,
  ZPayoutPeriodBody,
  ZRecordPayoutPaymentBody,
  canManagePayouts,
  groupFlags,
  payoutCounts,
  toPaise,
  toRupees,
} from '@radflow/core';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import {
  billingAuditEvents,
  billingDocuments,
  billingLines,
  billingPayments,
  billingSequences,
  reportStatuses,
  users,
} from '../../db/schema.js';
import type { AppContext } from '../../context.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { type TPayoutChargeScope, payoutChargesSql, readPayoutCharges } from './payout-charges.js';

/*
 * Payout statements (issue 26 §2): PAYOUT_STATEMENT documents with DOCTOR-side lines. Preview reads
 * the unbilled charges; issue writes them set-based, one statement per doctor and period, numbered
 * gaplessly; a re-run finds nothing new. Decisions: DECISIONS.md.
 */

type TPeriod = z.output<typeof ZPayoutPeriodBody>;

async function chargeScope(db: DbOrTx, groupId: number, period: TPeriod): Promise<TPayoutChargeScope> {
  const { displayTimeZone } = groupFlags(await loadGroupPreferences(db, groupId));
  return { groupId, periodEnd: period.periodEnd, doctorUserId: period.doctorUserId, timeZone: displayTimeZone };
}

/** A doctor of the caller's group (404 otherwise: another group's user is invisible). */
async function checkDoctor(db: DbOrTx, groupId: number, doctorUserId: number | undefined) {
  if (doctorUserId === undefined) return;
  const [row] = await db
    .select({ id: users.id, roles: users.roles })
    .from(users)
    .where(and(eq(users.id, doctorUserId), eq(users.groupId, groupId)));
  if (!row) throw new AppError('NOT_FOUND', M.notADoctor, 'doctorUserId');
  if (!row.roles.includes('ROLE_DOCTOR')) throw new AppError('BAD_REQUEST', M.notADoctor, 'doctorUserId');
}

const doctorNameSql = sql<string>`coalesce(nullif(${users.identifier}, ''), ${users.email})`;

async function doctorNames(db: DbOrTx, groupId: number): Promise<Map<number, string>> {
  const rows = await db
    .select({ id: users.id, name: doctorNameSql })
    .from(users)
    .where(eq(users.groupId, groupId));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The unbilled charges of the period (nothing stored): totals per doctor, lines of priced charges. */
export async function previewPayouts(ctx: AppContext, auth: TAuth, body: TPeriod): Promise<TPayoutPreview> {
  const groupId = auth.user.groupId;
  await checkDoctor(ctx.db, groupId, body.doctorUserId);
  const charges = await readPayoutCharges(ctx.db, await chargeScope(ctx.db, groupId, body));
  const names = await doctorNames(ctx.db, groupId);
  const byDoctor = new Map<number, TPayoutLine[]>();
  let unpriced = 0;
  for (const c of charges) {
    if (c.amountMinor === null) {
      unpriced++;
      continue;
    }
    const lines = byDoctor.get(c.doctorUserId) ?? [];
    lines.push({ ...c, amount: toRupees(c.amountMinor) });
    byDoctor.set(c.doctorUserId, lines);
  }
  let totalMinor = 0;
  const doctors = [...byDoctor].map(([doctorUserId, lines]) => {
    const sum = lines.reduce((s, l) => s + toPaise(l.amount), 0);
    totalMinor += sum;
    return {
      doctorUserId,
      doctorName: names.get(doctorUserId) ?? '',
      counts: payoutCounts(lines),
      total: toRupees(sum),
      lines,
    };
  });
  return { periodStart: body.periodStart, periodEnd: body.periodEnd, doctors, unpriced, total: toRupees(totalMinor) };
}

/**
 * Issues the period's statements: every doctor (or the one named) with priced, unbilled charges up to
 * the period's end and no statement for this period yet gets one, numbered in doctor order. One
 * transaction, under the group's PAYOUT_STATEMENT sequence row (concurrent runs queue there).
 */
export async function issuePayouts(ctx: AppContext, auth: TAuth, body: TPeriod): Promise<TPayoutIssueResult> {
  const groupId = auth.user.groupId;
  await checkDoctor(ctx.db, groupId, body.doctorUserId);
  const scope = await chargeScope(ctx.db, groupId, body);
  const { displayTimeZone } = groupFlags(await loadGroupPreferences(ctx.db, groupId));
  const ids = await ctx.db.transaction(async (tx) => {
    await tx
      .insert(billingSequences)
      .values({ groupId, kind: 'PAYOUT_STATEMENT' })
      .onConflictDoNothing();
    const [seq] = await tx.execute(
      sql`select last_number from billing_sequences where group_id = ${groupId} and kind = 'PAYOUT_STATEMENT' for update`,
    ).then((r) => r.rows);
    const last = Number(seq?.['last_number'] ?? 0);
    const prefix = BILLING_DOCUMENT_PREFIXES.PAYOUT_STATEMENT;
    const year = sql`to_char(now() at time zone ${displayTimeZone}, 'YYYY')`;
    // One statement: the charges once (a CTE used twice is materialised), the new statements, their
    // lines. A doctor who already has this period's statement is left out (the re-run).
    const made = await tx.execute(sql`
      with ch as materialized (
        select * from (${payoutChargesSql(scope)}) x
        where x.amount_minor is not null and not exists (
          select 1 from billing_documents d
          where d.group_id = ${groupId} and d.kind = 'PAYOUT_STATEMENT' and d.doctor_user_id = x.doctor_user_id
            and d.period_start = ${body.periodStart}::date and d.period_end = ${body.periodEnd}::date)
      ),
      per_doctor as (
        select doctor_user_id, sum(amount_minor)::bigint as total_minor,
               ${last} + row_number() over (order by doctor_user_id) as seq
        from ch group by doctor_user_id
      ),
      docs as (
        insert into billing_documents (group_id, kind, number, sequence, doctor_user_id, period_start,
          period_end, subtotal_minor, total_minor, issued_by_user_id)
        select ${groupId}, 'PAYOUT_STATEMENT', ${prefix} || '-' || ${year} || '-' || lpad(seq::text, 4, '0'),
               seq, doctor_user_id, ${body.periodStart}::date, ${body.periodEnd}::date, total_minor, total_minor,
               ${auth.user.id}
        from per_doctor
        returning id, doctor_user_id
      ),
      lines as (
        insert into billing_lines (document_id, group_id, report_status_id, report_id, side, charge, modality,
          study_part, description, quantity, unit_minor, amount_minor, price_id)
        select d.id, ${groupId}, ch.report_status_id, ch.report_id, 'DOCTOR', ch.charge, ch.modality,
               ch.study_part, ch.charged_on, 1, ch.amount_minor, ch.amount_minor, ch.price_id
        from ch join docs d on d.doctor_user_id = ch.doctor_user_id
        returning document_id
      )
      select d.id, (select count(*) from lines l where l.document_id = d.id)::int as line_count
      from docs d order by d.id`);
    const docIds = made.rows.map((r) => Number(r['id']));
    if (docIds.length > 0) {
      await tx
        .update(billingSequences)
        .set({ lastNumber: last + docIds.length })
        .where(and(eq(billingSequences.groupId, groupId), eq(billingSequences.kind, 'PAYOUT_STATEMENT')));
      await tx.insert(billingAuditEvents).values(
        made.rows.map((r) => ({
          groupId,
          entity: 'billing_document',
          entityId: Number(r['id']),
          action: 'PAYOUT_STATEMENT_ISSUED',
          actorUserId: auth.user.id,
          detail: { periodStart: body.periodStart, periodEnd: body.periodEnd, lines: Number(r['line_count']) },
        })),
      );
    }
    return docIds;
  });
  const unpriced = (await readPayoutCharges(ctx.db, scope)).filter((c) => c.amountMinor === null).length;
  const issued = ids.length === 0 ? [] : await listStatements(ctx.db, { groupId, ids });
  return { issued, unpriced };
}

interface TListFilter {
  groupId: number;
  doctorUserId?: number | undefined;
  ids?: number[];
}

/** Statements of the group (newest first), with their read / addendum / urgent counts. */
async function listStatements(db: DbOrTx, f: TListFilter): Promise<TPayoutStatement[]> {
  const d = billingDocuments;
  const rows = await db
    .select({
      doc: d,
      doctorName: doctorNameSql,
      reads: sql<number>`(select count(distinct l.report_status_id)::int from ${billingLines} l where l.document_id = ${d.id} and l.charge = 'READ')`,
      addenda: sql<number>`(select count(*)::int from ${billingLines} l where l.document_id = ${d.id} and l.charge = 'ADDENDUM')`,
      urgent: sql<number>`(select count(*)::int from ${billingLines} l where l.document_id = ${d.id} and l.charge = 'URGENT')`,
    })
    .from(d)
    .innerJoin(users, eq(users.id, d.doctorUserId))
    .where(
      and(
        eq(d.groupId, f.groupId),
        eq(d.kind, 'PAYOUT_STATEMENT'),
        f.doctorUserId === undefined ? undefined : eq(d.doctorUserId, f.doctorUserId),
        f.ids === undefined ? undefined : sql`${d.id} in ${f.ids}`,
      ),
    )
    .orderBy(desc(d.periodEnd), desc(d.id));
  return rows.map((r) => toStatement(r.doc, r.doctorName, { reads: r.reads, addenda: r.addenda, urgent: r.urgent }));
}

function toStatement(
  doc: typeof billingDocuments.$inferSelect,
  doctorName: string,
  counts: { reads: number; addenda: number; urgent: number },
): TPayoutStatement {
  return {
    id: doc.id,
    number: doc.number,
    doctorUserId: doc.doctorUserId ?? 0,
    doctorName,
    periodStart: doc.periodStart,
    periodEnd: doc.periodEnd,
    status: doc.status,
    counts: { reads: Number(counts.reads), addenda: Number(counts.addenda), urgent: Number(counts.urgent) },
    total: toRupees(doc.totalMinor),
    paid: toRupees(doc.paidMinor),
    due: toRupees(doc.totalMinor - doc.paidMinor),
    issuedAt: doc.issuedAt.toISOString(),
    version: doc.version,
  };
}

/** Whose statements the caller reads: a manager any doctor's of the group, a doctor only their own. */
function readerScope(auth: TAuth, doctorUserId?: number): { groupId: number; doctorUserId?: number | undefined } {
  if (canManagePayouts(auth.roles)) return { groupId: auth.user.groupId, doctorUserId };
  return { groupId: auth.user.groupId, doctorUserId: auth.user.id };
}

export async function listPayoutStatements(ctx: AppContext, auth: TAuth, doctorUserId?: number) {
  return { statements: await listStatements(ctx.db, readerScope(auth, doctorUserId)) };
}

/** One statement with its lines and payments; 404 when not the caller's to see. */
export async function readPayoutStatement(
  db: DbOrTx,
  auth: TAuth,
  id: number,
): Promise<TPayoutStatementDetail> {
  const [statement] = await listStatements(db, { ...readerScope(auth), ids: [id] });
  if (!statement) throw new AppError('NOT_FOUND', M.statementNotFound, 'id');
  const lines = await db
    .select({
      reportStatusId: billingLines.reportStatusId,
      reportId: billingLines.reportId,
      charge: billingLines.charge,
      modality: billingLines.modality,
      studyPart: billingLines.studyPart,
      description: billingLines.description,
      patientName: reportStatuses.patientName,
      amountMinor: billingLines.amountMinor,
    })
    .from(billingLines)
    .innerJoin(reportStatuses, eq(reportStatuses.id, billingLines.reportStatusId))
    .where(eq(billingLines.documentId, id))
    .orderBy(asc(billingLines.id));
  const payments = await db
    .select()
    .from(billingPayments)
    .where(eq(billingPayments.documentId, id))
    .orderBy(asc(billingPayments.id));
  return {
    ...statement,
    lines: lines.map((l) => ({
      reportStatusId: l.reportStatusId ?? 0,
      reportId: l.reportId,
      charge: l.charge as TPayoutLine['charge'],
      modality: l.modality,
      studyPart: l.studyPart,
      patientName: l.patientName,
      // A DOCTOR-side line's description is the day its charge arose (DECISIONS.md).
      chargedOn: l.description,
      amount: toRupees(l.amountMinor),
    })),
    payments: payments.map((p) => ({
      id: p.id,
      amount: toRupees(p.amountMinor),
      mode: p.mode,
      reference: p.reference,
      paidOn: p.receivedOn,
    })),
  };
}

/**
 * Records a payout paid (in part or whole): the statement locked, its version checked (409 when
 * stale), at most what is due (400), the payment row, paid amount, status and version, one audit row.
 */
export async function recordPayoutPayment(
  ctx: AppContext,
  auth: TAuth,
  id: number,
  input: TRecordPayoutPaymentBody,
): Promise<TPayoutStatementDetail> {
  const body = ZRecordPayoutPaymentBody.parse(input);
  const groupId = auth.user.groupId;
  await ctx.db.transaction(async (tx) => {
    const [doc] = await tx
      .select()
      .from(billingDocuments)
      .where(
        and(
          eq(billingDocuments.id, id),
          eq(billingDocuments.groupId, groupId),
          eq(billingDocuments.kind, 'PAYOUT_STATEMENT'),
        ),
      )
      .for('update');
    if (!doc) throw new AppError('NOT_FOUND', M.statementNotFound, 'id');
    if (doc.version !== body.version) throw new AppError('CONFLICT', M.staleStatement, 'version');
    const amountMinor = toPaise(body.amount);
    const paidMinor = doc.paidMinor + amountMinor;
    if (paidMinor > doc.totalMinor) throw new AppError('BAD_REQUEST', M.overpaid, 'amount');
    const [payment] = await tx
      .insert(billingPayments)
      .values({
        documentId: id,
        groupId,
        amountMinor,
        mode: body.mode,
        reference: body.reference,
        receivedOn: body.paidOn,
        recordedByUserId: auth.user.id,
      })
      .returning({ id: billingPayments.id });
    await tx
      .update(billingDocuments)
      .set({
        paidMinor,
        status: paidMinor === doc.totalMinor ? 'PAID' : 'PARTIALLY_PAID',
        version: doc.version + 1,
      })
      .where(eq(billingDocuments.id, id));
    await tx.insert(billingAuditEvents).values({
      groupId,
      entity: 'billing_document',
      entityId: id,
      action: 'PAYOUT_PAID',
      actorUserId: auth.user.id,
      detail: { paymentId: payment?.id, amountMinor, mode: body.mode, paidOn: body.paidOn },
    });
  });
  return readPayoutStatement(ctx.db, auth, id);
}
