import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import {
  AppError,
  BILLING_DOCUMENT_PREFIXES,
  PRICE_CHARGE_LABELS,
  type TBillingDocumentDetail,
  type TBillingDocumentSummary,
  type TInvoiceLineGroup,
  type TInvoicePreview,
  type TLineCharge,
  type ZCreditNoteBody,
  type ZRecordBillingPaymentBody,
  type ZTeleInvoiceListQuery,
  type ZTeleInvoiceRequest,
  documentNumber,
  invoiceFigures,
  invoiceStatusOf,
  minorToRupees,
  monthPeriod,
  outstandingMinor,
  percentToBasisPoints,
  rupeesToMinor,
  calendarDayIn,
} from '@radflow/core';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import {
  billingDocuments,
  billingLines,
  billingPayments,
  billingSequences,
  centers,
  messageOutbox,
} from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { refreshDunning } from './dunning.js';
import {
  addDays,
  auditBilling,
  loadGroupBillingDetails,
  loadGroupBillingFlags,
  rowsOf,
} from './ledger-context.js';
import { pricedChargesSql } from './priced-lines.js';
import { centerOfGroup } from './prices.js';

/*
 * Manage Tele Invoice (issue 26 §1): preview, issue (one center or every center of a month, the same
 * set-based path), list, detail, credit notes and payments. DECISIONS.md has the rules.
 */

type TDocRow = typeof billingDocuments.$inferSelect;
type TRequest = z.output<typeof ZTeleInvoiceRequest>;

const NOTHING_TO_INVOICE = 'Nothing to invoice: no priced signed-off studies of this center in the period';
const DOCUMENT_NOT_FOUND = 'Invoice not found';
const STALE = 'This invoice was changed by someone else; reload it and try again';

function summaryOf(row: TDocRow, centerName: string, today: string): TBillingDocumentSummary {
  const outstanding = row.kind === 'TELE_INVOICE' ? outstandingMinor(row) : 0;
  return {
    id: row.id,
    kind: row.kind,
    number: row.number,
    centerId: row.centerId,
    centerName,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    status: row.status,
    subtotal: minorToRupees(row.subtotalMinor),
    adjustment: minorToRupees(row.adjustmentMinor),
    taxPercent: row.taxBasisPoints / 100,
    tax: minorToRupees(row.taxMinor),
    total: minorToRupees(row.totalMinor),
    paid: minorToRupees(row.paidMinor),
    credited: minorToRupees(row.creditedMinor),
    outstanding: minorToRupees(outstanding),
    currency: row.currency,
    dueDate: row.dueDate,
    overdue: outstanding > 0 && row.dueDate !== null && row.dueDate < today,
    creditedDocumentId: row.creditedDocumentId,
    issuedAt: row.issuedAt.toISOString(),
    note: row.note,
    version: row.version,
  };
}

/** A line group's printed description: 'CT · HEAD · Read'. */
export function lineDescription(g: {
  charge: TLineCharge;
  modality: string;
  studyPart: string;
  description: string;
}) {
  if (g.charge === 'ADJUSTMENT' || g.charge === 'CREDIT') return g.description;
  return [g.modality, g.studyPart, PRICE_CHARGE_LABELS[g.charge]].filter((s) => s !== '').join(' · ');
}

type TRawGroup = {
  charge: TLineCharge;
  modality: string;
  study_part: string;
  description: string;
  quantity: number | string;
  unit_minor: number | string;
  amount_minor: number | string;
};

function groupOut(r: TRawGroup): TInvoiceLineGroup & { unitMinor: number; amountMinor: number } {
  const base = {
    charge: r.charge,
    modality: r.modality,
    studyPart: r.study_part,
    description: r.description,
  };
  const unitMinor = Number(r.unit_minor);
  const amountMinor = Number(r.amount_minor);
  return {
    ...base,
    description: lineDescription(base),
    quantity: Number(r.quantity),
    unit: minorToRupees(unitMinor),
    amount: minorToRupees(amountMinor),
    unitMinor,
    amountMinor,
  };
}

const CHARGE_ORDER = sql`case charge when 'READ' then 1 when 'URGENT' then 2 when 'ADDENDUM' then 3 when 'ADJUSTMENT' then 4 else 5 end`;

/** A document's lines grouped as the screen and the PDF print them (the sums are the ledger's lines). */
export async function documentLineGroups(db: DbOrTx, documentId: number) {
  const result = await rowsOf<TRawGroup>(
    db,
    sql`
    select charge, modality, study_part, case when report_status_id is null then description else '' end as description,
      count(*)::int as quantity, unit_minor, sum(amount_minor)::bigint as amount_minor
    from billing_lines where document_id = ${documentId}
    group by charge, modality, study_part, unit_minor, case when report_status_id is null then id else 0 end,
      case when report_status_id is null then description else '' end
    order by ${CHARGE_ORDER}, modality, study_part, unit_minor`,
  );
  return result.map(groupOut);
}

async function periodContext(ctx: AppContext, groupId: number) {
  const [flags, billing] = await Promise.all([
    loadGroupBillingFlags(ctx.db, groupId),
    loadGroupBillingDetails(ctx.db, groupId),
  ]);
  return {
    zone: flags.displayTimeZone,
    billing,
    taxBasisPoints: percentToBasisPoints(billing.gstPercentage),
  };
}

export async function previewTeleInvoice(
  ctx: AppContext,
  auth: TAuth,
  body: TRequest,
): Promise<TInvoicePreview> {
  const groupId = auth.user.groupId;
  const center = await centerOfGroup(ctx.db, groupId, body.centerId);
  const { zone, taxBasisPoints } = await periodContext(ctx, groupId);
  const priced = pricedChargesSql({
    groupId,
    centerId: center.id,
    excludeCenterIds: [],
    periodStart: body.periodStart,
    periodEnd: body.periodEnd,
    timeZone: zone,
  });
  const result = await rowsOf<TRawGroup & { unpriced: boolean }>(
    ctx.db,
    sql`
    with priced as (${priced})
    select charge, modality, study_part, '' as description, count(*)::int as quantity,
      coalesce(unit_minor, 0)::bigint as unit_minor, coalesce(sum(unit_minor), 0)::bigint as amount_minor,
      bool_or(price_id is null) as unpriced
    from priced group by charge, modality, study_part, unit_minor
    order by ${CHARGE_ORDER}, modality, study_part, unit_minor`,
  );
  const counts = await rowsOf<{ studies: number; unpriced: number }>(
    ctx.db,
    sql`
    with priced as (${priced})
    select count(distinct report_status_id) filter (where price_id is not null)::int as studies,
      count(distinct report_status_id) filter (where price_id is null)::int as unpriced from priced`,
  );
  const groups = result.filter((r) => !r.unpriced).map(groupOut);
  const adjustments = body.adjustments.map((a) => ({ minor: rupeesToMinor(a.amount), reason: a.reason }));
  const figures = invoiceFigures(
    groups.map((g) => g.amountMinor),
    adjustments.map((a) => a.minor),
    taxBasisPoints,
  );
  const lines = [
    ...groups.map(({ unitMinor: _u, amountMinor: _a, ...g }) => g),
    ...adjustments.map((a) => ({
      charge: 'ADJUSTMENT' as const,
      modality: '',
      studyPart: '',
      description: a.reason,
      quantity: 1,
      unit: minorToRupees(a.minor),
      amount: minorToRupees(a.minor),
    })),
  ];
  return {
    centerId: center.id,
    centerName: center.name,
    periodStart: body.periodStart,
    periodEnd: body.periodEnd,
    studyCount: Number(counts[0]?.studies ?? 0),
    unpricedCount: Number(counts[0]?.unpriced ?? 0),
    lines,
    subtotal: minorToRupees(figures.subtotalMinor),
    adjustment: minorToRupees(figures.adjustmentMinor),
    taxPercent: taxBasisPoints / 100,
    tax: minorToRupees(figures.taxMinor),
    total: minorToRupees(figures.totalMinor),
    currency: 'INR',
  };
}

/** Takes `count` gapless numbers of a kind: the row is locked until the transaction ends. */
async function takeSequence(
  tx: DbOrTx,
  groupId: number,
  kind: TDocRow['kind'],
  count: number,
): Promise<number> {
  await tx.insert(billingSequences).values({ groupId, kind }).onConflictDoNothing();
  const [row] = await tx
    .update(billingSequences)
    .set({ lastNumber: sql`${billingSequences.lastNumber} + ${count}` })
    .where(and(eq(billingSequences.groupId, groupId), eq(billingSequences.kind, kind)))
    .returning({ last: billingSequences.lastNumber });
  if (!row) throw new Error('billing_sequences row vanished');
  return row.last - count; // the last number given before this call
}

interface TIssueScope {
  groupId: number;
  centerId: number | null;
  periodStart: string;
  periodEnd: string;
  dueDays: number;
  note: string;
  adjustments: Array<{ minor: number; reason: string }>;
}

/**
 * Issues the invoices of a period, set-based (DECISIONS.md "Invoicing in SQL"): the sequence row is
 * locked first (one invoicing run of a group at a time), centers already invoiced for the period are
 * answered as they are, the rest get one document each and their lines in one INSERT … SELECT.
 */
async function issueInvoices(ctx: AppContext, auth: TAuth, scope: TIssueScope): Promise<number[]> {
  const { zone, billing, taxBasisPoints } = await periodContext(ctx, scope.groupId);
  const today = calendarDayIn(ctx.now(), zone);
  return ctx.db.transaction(async (tx) => {
    // One big statement planned once: PostgreSQL's JIT compiled it for 2.5 s of a 5 s SELECT
    // (DECISIONS.md "Invoicing in SQL").
    await tx.execute(sql`set local jit = off`);
    // The run's hashes and its sort of a million lines in memory, not spilled to temp files (4 MB
    // default); SET LOCAL: this transaction only.
    await tx.execute(sql`set local work_mem = '128MB'`);
    await tx
      .insert(billingSequences)
      .values({ groupId: scope.groupId, kind: 'TELE_INVOICE' })
      .onConflictDoNothing();
    await tx.execute(
      sql`select 1 from billing_sequences where group_id = ${scope.groupId} and kind = 'TELE_INVOICE' for update`,
    );
    const existing = await tx
      .select({ id: billingDocuments.id, centerId: billingDocuments.centerId })
      .from(billingDocuments)
      .where(
        and(
          eq(billingDocuments.groupId, scope.groupId),
          eq(billingDocuments.kind, 'TELE_INVOICE'),
          eq(billingDocuments.periodStart, scope.periodStart),
          eq(billingDocuments.periodEnd, scope.periodEnd),
          ...(scope.centerId === null ? [] : [eq(billingDocuments.centerId, scope.centerId)]),
        ),
      );
    if (scope.centerId !== null && existing.length > 0) return existing.map((e) => e.id);
    await tx.execute(sql`drop table if exists tele_invoice_lines`);
    await tx.execute(sql`create temp table tele_invoice_lines on commit drop as
      select * from (${pricedChargesSql({
        groupId: scope.groupId,
        centerId: scope.centerId,
        excludeCenterIds: existing.map((e) => e.centerId ?? 0),
        periodStart: scope.periodStart,
        periodEnd: scope.periodEnd,
        timeZone: zone,
      })}) priced where price_id is not null`);
    const totals = await rowsOf<{ center_id: number; subtotal: string | number }>(
      tx,
      sql`
      select center_id, sum(unit_minor)::bigint as subtotal from tele_invoice_lines group by center_id order by center_id`,
    );
    const rows = totals.map((r) => ({ centerId: Number(r.center_id), subtotal: Number(r.subtotal) }));
    if (scope.centerId !== null && rows.length === 0 && scope.adjustments.length > 0)
      rows.push({ centerId: scope.centerId, subtotal: 0 });
    if (rows.length === 0) return existing.map((e) => e.id);
    const last = await takeSequence(tx, scope.groupId, 'TELE_INVOICE', rows.length);
    const year = Number(today.slice(0, 4));
    const adjustmentMinors = scope.adjustments.map((a) => a.minor);
    const made = await tx
      .insert(billingDocuments)
      .values(
        rows.map((r, i) => {
          const f = invoiceFigures(
            [r.subtotal],
            scope.centerId === null ? [] : adjustmentMinors,
            taxBasisPoints,
          );
          const sequence = last + i + 1;
          return {
            groupId: scope.groupId,
            kind: 'TELE_INVOICE' as const,
            number: documentNumber(BILLING_DOCUMENT_PREFIXES.TELE_INVOICE, year, sequence),
            sequence,
            centerId: r.centerId,
            periodStart: scope.periodStart,
            periodEnd: scope.periodEnd,
            subtotalMinor: f.subtotalMinor,
            adjustmentMinor: f.adjustmentMinor,
            taxBasisPoints: f.taxBasisPoints,
            taxMinor: f.taxMinor,
            totalMinor: f.totalMinor,
            currency: 'INR',
            dueDate: addDays(today, scope.dueDays),
            issuedAt: ctx.now(),
            issuedByUserId: auth.user.id,
            billingDetails: billing as unknown as Record<string, unknown>,
            note: scope.note,
          };
        }),
      )
      .returning({
        id: billingDocuments.id,
        centerId: billingDocuments.centerId,
        number: billingDocuments.number,
      });
    const ids = made.map((m) => m.id);
    await tx.execute(sql`
      insert into billing_lines (document_id, group_id, report_status_id, report_id, side, charge, modality, study_part, quantity, unit_minor, amount_minor, price_id)
      select d.id, ${scope.groupId}::int, l.report_status_id, l.report_id, 'CENTER', l.charge, l.modality, l.study_part, 1, l.unit_minor, l.unit_minor, l.price_id
      from tele_invoice_lines l join billing_documents d on d.center_id = l.center_id
      where d.id = any(${`{${ids.join(',')}}`}::int[])
      -- A document's lines side by side in the table (its PDF reads ~100 pages, not 10,000) and each
      -- index filled in key order.
      order by d.id, l.report_status_id, l.charge, l.study_part`);
    if (scope.centerId !== null && scope.adjustments.length > 0) {
      await tx.insert(billingLines).values(
        scope.adjustments.map((a) => ({
          documentId: ids[0]!,
          groupId: scope.groupId,
          side: 'CENTER' as const,
          charge: 'ADJUSTMENT' as const,
          description: a.reason,
          unitMinor: a.minor,
          amountMinor: a.minor,
        })),
      );
    }
    await tx.execute(sql`
      insert into billing_audit_events (group_id, entity, entity_id, action, actor_user_id, detail)
      select ${scope.groupId}::int, 'DOCUMENT', d.id, 'INVOICE_ISSUED', ${auth.user.id}::int,
        jsonb_build_object('number', d.number, 'centerId', d.center_id, 'totalMinor', d.total_minor)
      from billing_documents d where d.id = any(${`{${ids.join(',')}}`}::int[])`);
    return [...existing.map((e) => e.id), ...ids];
  });
}

async function summariesOf(
  ctx: AppContext,
  groupId: number,
  ids: number[],
): Promise<TBillingDocumentSummary[]> {
  if (ids.length === 0) return [];
  const { zone } = { zone: (await loadGroupBillingFlags(ctx.db, groupId)).displayTimeZone };
  const today = calendarDayIn(ctx.now(), zone);
  const rows = await ctx.db
    .select({ doc: billingDocuments, centerName: centers.name })
    .from(billingDocuments)
    .leftJoin(centers, eq(centers.id, billingDocuments.centerId))
    .where(and(eq(billingDocuments.groupId, groupId), inArray(billingDocuments.id, ids)))
    .orderBy(asc(billingDocuments.sequence), asc(billingDocuments.id));
  return rows.map((r) => summaryOf(r.doc, r.centerName ?? '', today));
}

export async function issueTeleInvoice(
  ctx: AppContext,
  auth: TAuth,
  body: TRequest,
): Promise<TBillingDocumentDetail> {
  const groupId = auth.user.groupId;
  await centerOfGroup(ctx.db, groupId, body.centerId);
  const ids = await issueInvoices(ctx, auth, {
    groupId,
    centerId: body.centerId,
    periodStart: body.periodStart,
    periodEnd: body.periodEnd,
    dueDays: body.dueDays,
    note: body.note,
    adjustments: body.adjustments.map((a) => ({ minor: rupeesToMinor(a.amount), reason: a.reason })),
  });
  if (ids.length === 0) throw new AppError('BAD_REQUEST', NOTHING_TO_INVOICE);
  return teleInvoiceDetail(ctx, auth, ids[0]!);
}

export async function invoiceMonth(
  ctx: AppContext,
  auth: TAuth,
  body: { month: string; dueDays: number },
): Promise<{ documents: TBillingDocumentSummary[] }> {
  const groupId = auth.user.groupId;
  const period = monthPeriod(body.month);
  const ids = await issueInvoices(ctx, auth, {
    groupId,
    centerId: null,
    ...period,
    dueDays: body.dueDays,
    note: '',
    adjustments: [],
  });
  return { documents: await summariesOf(ctx, groupId, ids) };
}

export async function listTeleInvoices(
  ctx: AppContext,
  auth: TAuth,
  q: z.output<typeof ZTeleInvoiceListQuery>,
): Promise<{ documents: TBillingDocumentSummary[] }> {
  const groupId = auth.user.groupId;
  const today = calendarDayIn(ctx.now(), (await loadGroupBillingFlags(ctx.db, groupId)).displayTimeZone);
  const rows = await ctx.db
    .select({ doc: billingDocuments, centerName: centers.name })
    .from(billingDocuments)
    .leftJoin(centers, eq(centers.id, billingDocuments.centerId))
    .where(
      and(
        eq(billingDocuments.groupId, groupId),
        q.kind
          ? eq(billingDocuments.kind, q.kind)
          : inArray(billingDocuments.kind, ['TELE_INVOICE', 'CREDIT_NOTE']),
        q.centerId === undefined ? undefined : eq(billingDocuments.centerId, q.centerId),
        q.status === undefined ? undefined : eq(billingDocuments.status, q.status),
        q.from === undefined ? undefined : gte(billingDocuments.periodEnd, q.from),
        q.to === undefined ? undefined : lte(billingDocuments.periodStart, q.to),
      ),
    )
    .orderBy(desc(billingDocuments.issuedAt), desc(billingDocuments.id))
    .limit(500);
  return { documents: rows.map((r) => summaryOf(r.doc, r.centerName ?? '', today)) };
}

/** A tele invoice or credit note of the caller's group, or 404. */
async function documentOfGroup(db: DbOrTx, groupId: number, id: number, lock = false): Promise<TDocRow> {
  const query = db
    .select()
    .from(billingDocuments)
    .where(
      and(
        eq(billingDocuments.id, id),
        eq(billingDocuments.groupId, groupId),
        inArray(billingDocuments.kind, ['TELE_INVOICE', 'CREDIT_NOTE']),
      ),
    );
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw new AppError('NOT_FOUND', DOCUMENT_NOT_FOUND);
  return row;
}

export async function teleInvoiceDetail(
  ctx: AppContext,
  auth: TAuth,
  id: number,
): Promise<TBillingDocumentDetail> {
  const groupId = auth.user.groupId;
  const doc = await documentOfGroup(ctx.db, groupId, id);
  const today = calendarDayIn(ctx.now(), (await loadGroupBillingFlags(ctx.db, groupId)).displayTimeZone);
  const [center] = doc.centerId
    ? await ctx.db
        .select({ name: centers.name, email: centers.email })
        .from(centers)
        .where(eq(centers.id, doc.centerId))
    : [];
  const [groups, payments, credits, mails] = await Promise.all([
    documentLineGroups(ctx.db, id),
    ctx.db
      .select()
      .from(billingPayments)
      .where(eq(billingPayments.documentId, id))
      .orderBy(asc(billingPayments.id)),
    ctx.db
      .select()
      .from(billingDocuments)
      .where(and(eq(billingDocuments.creditedDocumentId, id), eq(billingDocuments.groupId, groupId)))
      .orderBy(asc(billingDocuments.id)),
    ctx.db
      .select({ to: messageOutbox.recipient })
      .from(messageOutbox)
      .where(and(eq(messageOutbox.billingDocumentId, doc.id), eq(messageOutbox.channel, 'EMAIL')))
      .orderBy(asc(messageOutbox.createdAt), asc(messageOutbox.id)),
  ]);
  return {
    ...summaryOf(doc, center?.name ?? '', today),
    lines: groups.map(({ unitMinor: _u, amountMinor: _a, ...g }) => g),
    payments: payments.map((p) => ({
      id: p.id,
      amount: minorToRupees(p.amountMinor),
      mode: p.mode,
      reference: p.reference,
      receivedOn: p.receivedOn,
      createdAt: p.createdAt.toISOString(),
    })),
    creditNotes: credits.map((c) => summaryOf(c, center?.name ?? '', today)),
    emailedTo: mails.map((m) => m.to),
  };
}

export function invoiceEmailSubject(number: string): string {
  return `Invoice ${number}`;
}

function checkVersion(doc: TDocRow, version: number) {
  if (doc.version !== version) throw new AppError('CONFLICT', STALE);
}

/**
 * A credit note against an issued invoice (the invoice itself is never edited; only its credited
 * amount and status move): one CREDIT line of −amount, GST at the invoice's rate by the one rounding
 * rule, numbered CN-… gaplessly. Credits may not exceed what the invoice still has uncredited.
 */
export async function addCreditNote(
  ctx: AppContext,
  auth: TAuth,
  invoiceId: number,
  body: z.output<typeof ZCreditNoteBody>,
): Promise<TBillingDocumentDetail> {
  const groupId = auth.user.groupId;
  const today = calendarDayIn(ctx.now(), (await loadGroupBillingFlags(ctx.db, groupId)).displayTimeZone);
  await ctx.db.transaction(async (tx) => {
    const invoice = await documentOfGroup(tx, groupId, invoiceId, true);
    if (invoice.kind !== 'TELE_INVOICE')
      throw new AppError('BAD_REQUEST', 'A credit note is made against an invoice');
    checkVersion(invoice, body.version);
    const amountMinor = rupeesToMinor(body.amount);
    const figures = invoiceFigures([-amountMinor], [], invoice.taxBasisPoints);
    if (invoice.creditedMinor - figures.totalMinor > invoice.totalMinor)
      throw new AppError('BAD_REQUEST', 'The credit is more than the invoice has left to credit', 'amount');
    const last = await takeSequence(tx, groupId, 'CREDIT_NOTE', 1);
    const [note] = await tx
      .insert(billingDocuments)
      .values({
        groupId,
        kind: 'CREDIT_NOTE',
        number: documentNumber(BILLING_DOCUMENT_PREFIXES.CREDIT_NOTE, Number(today.slice(0, 4)), last + 1),
        sequence: last + 1,
        centerId: invoice.centerId,
        periodStart: invoice.periodStart,
        periodEnd: invoice.periodEnd,
        subtotalMinor: figures.subtotalMinor,
        taxBasisPoints: figures.taxBasisPoints,
        taxMinor: figures.taxMinor,
        totalMinor: figures.totalMinor,
        currency: invoice.currency,
        creditedDocumentId: invoice.id,
        issuedAt: ctx.now(),
        issuedByUserId: auth.user.id,
        billingDetails: invoice.billingDetails,
        note: body.reason,
      })
      .returning();
    if (!note) throw new Error('credit note not inserted');
    await tx.insert(billingLines).values({
      documentId: note.id,
      groupId,
      side: 'CENTER',
      charge: 'CREDIT',
      description: body.reason,
      unitMinor: -amountMinor,
      amountMinor: -amountMinor,
    });
    const creditedMinor = invoice.creditedMinor - figures.totalMinor;
    await tx
      .update(billingDocuments)
      .set({
        creditedMinor,
        status: invoiceStatusOf({ ...invoice, creditedMinor }),
        version: invoice.version + 1,
      })
      .where(eq(billingDocuments.id, invoice.id));
    await auditBilling(tx, {
      groupId,
      entity: 'DOCUMENT',
      entityId: note.id,
      action: 'CREDIT_NOTE_ISSUED',
      actorUserId: auth.user.id,
      detail: {
        invoiceId: invoice.id,
        number: note.number,
        totalMinor: note.totalMinor,
        reason: body.reason,
      },
    });
    await refreshDunning(tx, groupId, today);
  });
  return teleInvoiceDetail(ctx, auth, invoiceId);
}

/** A payment (partial or full) of an invoice: never more than is outstanding; a stale version is 409. */
export async function recordInvoicePayment(
  tx: DbOrTx,
  auth: TAuth,
  invoiceId: number,
  body: z.output<typeof ZRecordBillingPaymentBody>,
  today: string,
): Promise<void> {
  await recordTeleInvoicePayment(
    tx,
    { groupId: auth.user.groupId, userId: auth.user.id, provider: null },
    invoiceId,
    body,
    today,
  );
}

/** Who records a tele invoice payment: a user of the group, or a payment provider (no user). */
export interface TTeleInvoicePayer {
  groupId: number;
  userId: number | null;
  /** The provider that reported the payment (its reference is then unique), null for a manual one. */
  provider: string | null;
}

/**
 * The one recorder of a tele invoice payment, manual (recordInvoicePayment) or online (the
 * provider's confirmation, modules/invoice-payments): never more than is outstanding (400), a stale
 * version 409 (`version` null: the provider's confirmation, which saw no screen), the status by core
 * invoiceStatusOf, the audit row and the dunning labels in the caller's transaction.
 */
export async function recordTeleInvoicePayment(
  tx: DbOrTx,
  payer: TTeleInvoicePayer,
  invoiceId: number,
  body: Omit<z.output<typeof ZRecordBillingPaymentBody>, 'version'> & { version: number | null },
  today: string,
): Promise<void> {
  const { groupId } = payer;
  const invoice = await documentOfGroup(tx, groupId, invoiceId, true);
  if (invoice.kind !== 'TELE_INVOICE')
    throw new AppError('BAD_REQUEST', 'Payments are recorded against an invoice');
  if (body.version !== null) checkVersion(invoice, body.version);
  const amountMinor = rupeesToMinor(body.amount);
  if (amountMinor > outstandingMinor(invoice))
    throw new AppError('BAD_REQUEST', 'The payment is more than the invoice has outstanding', 'amount');
  const [payment] = await tx
    .insert(billingPayments)
    .values({
      documentId: invoice.id,
      groupId,
      amountMinor,
      mode: body.mode,
      reference: body.reference,
      provider: payer.provider,
      receivedOn: body.receivedOn,
      recordedByUserId: payer.userId,
    })
    .returning({ id: billingPayments.id });
  const paidMinor = invoice.paidMinor + amountMinor;
  await tx
    .update(billingDocuments)
    .set({ paidMinor, status: invoiceStatusOf({ ...invoice, paidMinor }), version: invoice.version + 1 })
    .where(eq(billingDocuments.id, invoice.id));
  await auditBilling(tx, {
    groupId,
    entity: 'PAYMENT',
    entityId: payment!.id,
    action: 'PAYMENT_RECORDED',
    actorUserId: payer.userId,
    detail: {
      invoiceId: invoice.id,
      amountMinor,
      mode: body.mode,
      reference: body.reference,
      ...(payer.provider ? { provider: payer.provider } : {}),
    },
  });
  await refreshDunning(tx, groupId, today);
}
