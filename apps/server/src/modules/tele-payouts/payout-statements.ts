import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { ZPayoutPeriodBody } from '@radflow/core';
import {
  AppError,
  BILLING_DOCUMENT_PREFIXES,
  PAYOUT_MESSAGES as M,
  type TPayoutIssueResult,
  type TPayoutLine,
  type TPayoutPreview,
  type TPayoutStatement,
  type TPayoutStatementDetail,
  type TRecordBillingPaymentBody,
  ZRecordBillingPaymentBody,
  canManagePayouts,
  documentNumber,
  invoiceStatusOf,
  outstandingMinor,
  payoutCounts,
  rupeesToMinor,
  minorToRupees,
  calendarDayIn,
} from '@radflow/core';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import {
  billingDocuments,
  billingLines,
  billingPayments,
  billingSequences,
  reportStatuses,
  users,
} from '../../db/schema.js';
import type { AppContext } from '../../context.js';
import type { TAuth } from '../../plugins/auth.js';
import {
  auditBilling,
  loadGroupBillingDetails,
  loadGroupBillingFlags,
} from '../tele-billing/ledger-context.js';
import { type TPayoutChargeScope, payoutChargesSql, readPayoutCharges, rowsOf } from './payout-charges.js';

/*
 * Payout statements (issue 26 §2): PAYOUT_STATEMENT documents with DOCTOR-side lines. Preview reads
 * the unbilled charges; issue writes them set-based, one statement per doctor and period, numbered
 * gaplessly; a re-run finds nothing new. Decisions: DECISIONS.md.
 */

type TPeriod = z.output<typeof ZPayoutPeriodBody>;

async function chargeScope(db: DbOrTx, groupId: number, period: TPeriod): Promise<TPayoutChargeScope> {
  const { displayTimeZone } = await loadGroupBillingFlags(db, groupId);
  return {
    groupId,
    periodEnd: period.periodEnd,
    doctorUserId: period.doctorUserId,
    timeZone: displayTimeZone,
  };
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

/**
 * The unbilled charges of the period (nothing stored). For one doctor: their priced lines; for the
 * whole group: per-doctor counts and totals only, aggregated in SQL (a month of a large group is a
 * million lines, too many to send to a screen).
 */
export async function previewPayouts(ctx: AppContext, auth: TAuth, body: TPeriod): Promise<TPayoutPreview> {
  const groupId = auth.user.groupId;
  await checkDoctor(ctx.db, groupId, body.doctorUserId);
  const scope = await chargeScope(ctx.db, groupId, body);
  const names = await doctorNames(ctx.db, groupId);
  const period = { periodStart: body.periodStart, periodEnd: body.periodEnd };
  if (body.doctorUserId === undefined) {
    const rows = await rowsOf(
      ctx.db,
      sql`select doctor_user_id,
            count(distinct report_status_id) filter (where charge = 'READ' and amount_minor is not null)::int as reads,
            count(*) filter (where charge = 'ADDENDUM' and amount_minor is not null)::int as addenda,
            count(*) filter (where charge = 'URGENT' and amount_minor is not null)::int as urgent,
            coalesce(sum(amount_minor), 0)::bigint as total_minor,
            count(*) filter (where amount_minor is null)::int as unpriced
          from (${payoutChargesSql(scope)}) x group by doctor_user_id order by doctor_user_id`,
    );
    const priced = rows.filter((r) => Number(r['reads']) + Number(r['addenda']) + Number(r['urgent']) > 0);
    return {
      ...period,
      doctors: priced.map((r) => ({
        doctorUserId: Number(r['doctor_user_id']),
        doctorName: names.get(Number(r['doctor_user_id'])) ?? '',
        counts: { reads: Number(r['reads']), addenda: Number(r['addenda']), urgent: Number(r['urgent']) },
        total: minorToRupees(Number(r['total_minor'])),
        lines: [],
      })),
      unpriced: rows.reduce((sum, r) => sum + Number(r['unpriced']), 0),
      total: minorToRupees(rows.reduce((sum, r) => sum + Number(r['total_minor']), 0)),
    };
  }
  const charges = await readPayoutCharges(ctx.db, scope);
  const lines: TPayoutLine[] = [];
  let unpriced = 0;
  let totalMinor = 0;
  for (const c of charges) {
    if (c.amountMinor === null) unpriced++;
    else {
      totalMinor += c.amountMinor;
      lines.push({ ...c, amount: minorToRupees(c.amountMinor) });
    }
  }
  const doctors =
    lines.length === 0
      ? []
      : [
          {
            doctorUserId: body.doctorUserId,
            doctorName: names.get(body.doctorUserId) ?? '',
            counts: payoutCounts(lines),
            total: minorToRupees(totalMinor),
            lines,
          },
        ];
  return { ...period, doctors, unpriced, total: minorToRupees(totalMinor) };
}

/**
 * Issues the period's statements: every doctor (or the one named) with priced, unbilled charges up to
 * the period's end and no statement for this period yet gets one, numbered in doctor order. One
 * transaction, under the group's PAYOUT_STATEMENT sequence row (concurrent runs queue there). The
 * charges are read once into a temporary table, so a statement's total is the sum of its lines even
 * while doctors keep signing off.
 */
export async function issuePayouts(ctx: AppContext, auth: TAuth, body: TPeriod): Promise<TPayoutIssueResult> {
  const groupId = auth.user.groupId;
  await checkDoctor(ctx.db, groupId, body.doctorUserId);
  const scope = await chargeScope(ctx.db, groupId, body);
  const { ids, unpriced } = await ctx.db.transaction(async (tx) => {
    await tx.insert(billingSequences).values({ groupId, kind: 'PAYOUT_STATEMENT' }).onConflictDoNothing();
    const [seq] = await tx
      .select({ last: billingSequences.lastNumber })
      .from(billingSequences)
      .where(and(eq(billingSequences.groupId, groupId), eq(billingSequences.kind, 'PAYOUT_STATEMENT')))
      .for('update');
    const last = seq?.last ?? 0;
    // One big statement planned once: PostgreSQL's JIT compiles it for seconds (as tele-billing's run).
    await tx.execute(sql`set local jit = off`);
    await tx.execute(sql`drop table if exists payout_run`);
    await tx.execute(sql`
      create temporary table payout_run on commit drop as
      select * from (${payoutChargesSql(scope)}) x
      where not exists (
        select 1 from billing_documents d
        where d.group_id = ${groupId} and d.kind = 'PAYOUT_STATEMENT' and d.doctor_user_id = x.doctor_user_id
          and d.period_start = ${body.periodStart}::date and d.period_end = ${body.periodEnd}::date)`);
    // Statistics for the joins below (a temporary table has none; without them the planner loops).
    await tx.execute(sql`analyze payout_run`);
    const totals = await rowsOf(
      tx,
      sql`
      select doctor_user_id, sum(amount_minor)::bigint as total_minor, count(*)::int as line_count
      from payout_run where amount_minor is not null group by doctor_user_id order by doctor_user_id`,
    );
    const [unpricedRow] = await rowsOf(
      tx,
      sql`select count(*)::int as n from payout_run where amount_minor is null`,
    );
    const unpriced = Number(unpricedRow?.['n'] ?? 0);
    if (totals.length === 0) return { ids: [], unpriced };
    const year = Number(calendarDayIn(ctx.now(), scope.timeZone).slice(0, 4));
    // The payer's details as they stood at issue (the PDF prints them; a later edit changes no past PDF).
    const billingDetails = await loadGroupBillingDetails(tx, groupId);
    const docs = await tx
      .insert(billingDocuments)
      .values(
        totals.map((r, i) => {
          const totalMinor = Number(r['total_minor']);
          return {
            groupId,
            kind: 'PAYOUT_STATEMENT' as const,
            number: documentNumber(BILLING_DOCUMENT_PREFIXES.PAYOUT_STATEMENT, year, last + i + 1),
            sequence: last + i + 1,
            doctorUserId: Number(r['doctor_user_id']),
            periodStart: body.periodStart,
            periodEnd: body.periodEnd,
            subtotalMinor: totalMinor,
            totalMinor,
            issuedAt: ctx.now(),
            issuedByUserId: auth.user.id,
            billingDetails,
          };
        }),
      )
      .returning({ id: billingDocuments.id, doctorUserId: billingDocuments.doctorUserId });
    const docOf = sql.join(
      docs.map((d) => sql`(${d.doctorUserId}::int, ${d.id}::int)`),
      sql`, `,
    );
    // A DOCTOR-side line's description is the day its charge arose (DECISIONS.md).
    await tx.execute(sql`
      insert into billing_lines (document_id, group_id, report_status_id, report_id, side, charge, modality,
        study_part, description, quantity, unit_minor, amount_minor, price_id)
      select d.document_id, ${groupId}, r.report_status_id, r.report_id, 'DOCTOR', r.charge, r.modality,
             r.study_part, r.charged_on, 1, r.amount_minor, r.amount_minor, r.price_id
      from payout_run r join (values ${docOf}) as d (doctor_user_id, document_id) using (doctor_user_id)
      where r.amount_minor is not null
      order by d.document_id, r.charged_on, r.report_status_id, r.charge, r.study_part, r.report_id`);
    await tx
      .update(billingSequences)
      .set({ lastNumber: last + docs.length })
      .where(and(eq(billingSequences.groupId, groupId), eq(billingSequences.kind, 'PAYOUT_STATEMENT')));
    const lineCount = new Map(totals.map((r) => [Number(r['doctor_user_id']), Number(r['line_count'])]));
    for (const d of docs)
      await auditBilling(tx, {
        groupId,
        entity: 'DOCUMENT',
        entityId: d.id,
        action: 'PAYOUT_STATEMENT_ISSUED',
        actorUserId: auth.user.id,
        detail: {
          periodStart: body.periodStart,
          periodEnd: body.periodEnd,
          doctorUserId: d.doctorUserId,
          lines: lineCount.get(d.doctorUserId ?? 0) ?? 0,
        },
      });
    return { ids: docs.map((d) => d.id), unpriced };
  });
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
  return rows.map((r) =>
    toStatement(r.doc, r.doctorName, { reads: r.reads, addenda: r.addenda, urgent: r.urgent }),
  );
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
    total: minorToRupees(doc.totalMinor),
    paid: minorToRupees(doc.paidMinor),
    due: minorToRupees(outstandingMinor(doc)),
    issuedAt: doc.issuedAt.toISOString(),
    version: doc.version,
  };
}

/** Whose statements the caller reads: a manager any doctor's of the group, a doctor only their own. */
function readerScope(
  auth: TAuth,
  doctorUserId?: number,
): { groupId: number; doctorUserId?: number | undefined } {
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
      amount: minorToRupees(l.amountMinor),
    })),
    payments: payments.map((p) => ({
      id: p.id,
      amount: minorToRupees(p.amountMinor),
      mode: p.mode,
      reference: p.reference,
      receivedOn: p.receivedOn,
      createdAt: p.createdAt.toISOString(),
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
  input: TRecordBillingPaymentBody,
): Promise<TPayoutStatementDetail> {
  const body = ZRecordBillingPaymentBody.parse(input);
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
    const amountMinor = rupeesToMinor(body.amount);
    const paidMinor = doc.paidMinor + amountMinor;
    if (amountMinor > outstandingMinor(doc)) throw new AppError('BAD_REQUEST', M.overpaid, 'amount');
    const [payment] = await tx
      .insert(billingPayments)
      .values({
        documentId: id,
        groupId,
        amountMinor,
        mode: body.mode,
        reference: body.reference,
        receivedOn: body.receivedOn,
        recordedByUserId: auth.user.id,
      })
      .returning({ id: billingPayments.id });
    await tx
      .update(billingDocuments)
      .set({
        paidMinor,
        status: invoiceStatusOf({ ...doc, paidMinor }),
        version: doc.version + 1,
      })
      .where(eq(billingDocuments.id, id));
    await auditBilling(tx, {
      groupId,
      entity: 'PAYMENT',
      entityId: payment?.id ?? 0,
      action: 'PAYOUT_PAID',
      actorUserId: auth.user.id,
      detail: { documentId: id, amountMinor, mode: body.mode, receivedOn: body.receivedOn },
    });
  });
  return readPayoutStatement(ctx.db, auth, id);
}
