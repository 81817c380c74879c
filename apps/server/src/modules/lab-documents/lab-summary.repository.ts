import { type SQL, and, asc, desc, eq, gte, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { TLabPaymentMethod, TLabSummarySort } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { labBillTests, labBills, labPatients, labTransactions, users } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { inLab, labOwnerOf } from '../lab-settings/lab-owner.js';

/*
 * The lab summary's queries: bills of the caller's lab whose bill date falls in the range, their
 * lines and payments. Every query starts from inLab(labBills), so another lab's bill never shows.
 */

export interface TLabSummaryQuery {
  from: Date;
  to: Date;
  scheduled: boolean;
  /** The creators' e-mails to keep, or null for all (already forced to the caller for a receptionist). */
  creators: string[] | null;
  sort: TLabSummarySort;
  order: 'ASC' | 'DESC';
}

const creatorName = sql<string>`coalesce(${users.identifier}, ${labBills.createdBy})`;
/** The users who recorded first payments (a second join to users, beside the creator's). */
const recorders = alias(users, 'recorders');
/**
 * The first payment's recorder (by name): what PAYMENT_RECORDED_BY sorts by; bills without one
 * last. Read from the bill's own column (kept with the payment) and not from the ledger, so a month
 * of bills sorts from the date index alone: the ledger looked up once per bill took 1.1 s at 160,000.
 */
const firstRecorder = sql`coalesce(${recorders.identifier}, ${labBills.firstPaymentRecordedBy})`;

export function summaryWhere(auth: TAuth, q: TLabSummaryQuery): SQL {
  const conditions: SQL[] = [
    inLab(labBills, auth),
    gte(labBills.billDate, q.from),
    lt(labBills.billDate, q.to),
    q.scheduled ? eq(labBills.status, 'SCHEDULED') : ne(labBills.status, 'SCHEDULED'),
  ];
  if (q.creators) conditions.push(inArray(labBills.createdBy, q.creators));
  return and(...conditions) as SQL;
}

function orderOf(q: TLabSummaryQuery): SQL[] {
  const dir = q.order === 'ASC' ? asc : desc;
  switch (q.sort) {
    case 'RECEPTIONIST_NAME':
      return [dir(creatorName), dir(labBills.createdAt), dir(labBills.id)];
    case 'PAYMENT_RECORDED_BY':
      return [
        sql`${firstRecorder} ${sql.raw(q.order)} nulls last`,
        dir(labBills.createdAt),
        dir(labBills.id),
      ];
    default:
      return [dir(labBills.createdAt), dir(labBills.id)];
  }
}

const billColumns = {
  id: labBills.id,
  invoiceNumber: labBills.invoiceNumber,
  status: labBills.status,
  billDate: labBills.billDate,
  createdAt: labBills.createdAt,
  patientName: labPatients.name,
  uhidNumber: labPatients.uhidNumber,
  receptionistEmail: labBills.createdBy,
  receptionistName: creatorName,
  totalMinor: labBills.totalMinor,
  discountMinor: labBills.discountMinor,
  finalMinor: labBills.finalMinor,
  advancePaidMinor: labBills.advancePaidMinor,
  dueMinor: labBills.dueMinor,
};

/** Every bill of the range with its patient and creator, in the asked order (the downloads). */
function billsQuery(db: DbOrTx, where: SQL) {
  return (
    db
      .select(billColumns)
      .from(labBills)
      .innerJoin(labPatients, eq(labPatients.id, labBills.patientId))
      // users.email is unique: the join adds the creator's name, never a row.
      .leftJoin(users, eq(users.email, labBills.createdBy))
      .where(where)
  );
}

export type TSummaryBillRow = Awaited<ReturnType<typeof billsQuery>>[number];

/**
 * One page of the range's bills (or all of them: page null), in the asked order. A page is found
 * as ids first, from the bills alone (the creator's name joined only to sort by it), and only its
 * rows are joined to their patients: a month of a busy lab is thousands of bills, and joining each
 * to its patient before the sort and limit cost more than the rest of the call.
 */
export async function findSummaryBills(
  db: DbOrTx,
  auth: TAuth,
  q: TLabSummaryQuery,
  page: { limit: number; offset: number } | null,
): Promise<TSummaryBillRow[]> {
  const where = summaryWhere(auth, q);
  if (!page) {
    let all = billsQuery(db, where).$dynamic();
    if (q.sort === 'PAYMENT_RECORDED_BY') {
      all = all.leftJoin(recorders, eq(recorders.email, labBills.firstPaymentRecordedBy));
    }
    return all.orderBy(...orderOf(q));
  }
  let ids = db.select({ id: labBills.id }).from(labBills).$dynamic();
  if (q.sort === 'RECEPTIONIST_NAME') ids = ids.leftJoin(users, eq(users.email, labBills.createdBy));
  if (q.sort === 'PAYMENT_RECORDED_BY') {
    ids = ids.leftJoin(recorders, eq(recorders.email, labBills.firstPaymentRecordedBy));
  }
  const order = (
    await ids
      .where(where)
      .orderBy(...orderOf(q))
      .limit(page.limit)
      .offset(page.offset)
  ).map((r) => r.id);
  if (order.length === 0) return [];
  const rows = new Map((await billsQuery(db, inArray(labBills.id, order))).map((r) => [r.id, r]));
  return order.flatMap((id) => rows.get(id) ?? []);
}

/** The count and sums of the range; the sums over bills that are not cancelled. */
export async function findSummaryTotals(db: DbOrTx, auth: TAuth, q: TLabSummaryQuery) {
  const live = sql`${labBills.status} <> 'CANCELLED'`;
  const sum = (column: SQL | PgColumn) => sql<string>`coalesce(sum(${column}) filter (where ${live}), 0)`;
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      bills: sql<number>`(count(*) filter (where ${live}))::int`,
      totalMinor: sum(labBills.totalMinor),
      discountMinor: sum(labBills.discountMinor),
      finalMinor: sum(labBills.finalMinor),
      advancePaidMinor: sum(labBills.advancePaidMinor),
      dueMinor: sum(labBills.dueMinor),
    })
    .from(labBills)
    .where(summaryWhere(auth, q));
  return {
    count: row?.count ?? 0,
    bills: row?.bills ?? 0,
    totalMinor: Number(row?.totalMinor ?? 0),
    discountMinor: Number(row?.discountMinor ?? 0),
    finalMinor: Number(row?.finalMinor ?? 0),
    advancePaidMinor: Number(row?.advancePaidMinor ?? 0),
    dueMinor: Number(row?.dueMinor ?? 0),
  };
}

export interface TSummaryTransactionRow {
  billId: number;
  paymentMethod: TLabPaymentMethod;
  transactionId: string | null;
  amountMinor: number;
  recordedBy: string;
  recordedByName: string;
  recordedAt: Date;
}

/** The payments of these bills, oldest first. */
export async function findTransactionsOf(db: DbOrTx, billIds: number[]): Promise<TSummaryTransactionRow[]> {
  if (billIds.length === 0) return [];
  return db
    .select({
      billId: labTransactions.billId,
      paymentMethod: labTransactions.paymentMethod,
      transactionId: labTransactions.transactionId,
      amountMinor: labTransactions.amountMinor,
      recordedBy: labTransactions.recordedBy,
      recordedByName: sql<string>`coalesce(${users.identifier}, ${labTransactions.recordedBy})`,
      recordedAt: labTransactions.recordedAt,
    })
    .from(labTransactions)
    .leftJoin(users, eq(users.email, labTransactions.recordedBy))
    .where(inArray(labTransactions.billId, billIds))
    .orderBy(asc(labTransactions.billId), asc(labTransactions.id));
}

export type TSummaryLineRow = Awaited<ReturnType<typeof findLinesOf>>[number];

/** The test lines of these bills, in bill order (the summaries' and the bill documents' one read). */
export async function findLinesOf(db: DbOrTx, billIds: number[]) {
  if (billIds.length === 0) return [];
  return db
    .select({
      billId: labBillTests.billId,
      testCode: labBillTests.testCode,
      testName: labBillTests.testName,
      labModality: labBillTests.labModality,
      department: labBillTests.department,
      quantity: labBillTests.quantity,
      originalPriceMinor: labBillTests.originalPriceMinor,
      priceMinor: labBillTests.priceMinor,
      refundMinor: labBillTests.refundMinor,
      settlementStatus: labBillTests.settlementStatus,
      appointmentName: labBillTests.appointmentName,
      startTimeOfAppointment: labBillTests.startTimeOfAppointment,
      endTimeOfAppointment: labBillTests.endTimeOfAppointment,
    })
    .from(labBillTests)
    .where(inArray(labBillTests.billId, billIds))
    .orderBy(asc(labBillTests.billId), asc(labBillTests.position), asc(labBillTests.id));
}

/** The AMU day-end figures: lines by modality, payments by method, over the range's live bills. */
export async function findCollectionByModality(db: DbOrTx, auth: TAuth, q: TLabSummaryQuery) {
  const rows = await db
    .select({
      labModality: labBillTests.labModality,
      tests: sql<number>`count(*)::int`,
      quantity: sql<number>`coalesce(sum(${labBillTests.quantity}), 0)::int`,
      grossMinor: sql<string>`coalesce(sum(${labBillTests.originalPriceMinor} * ${labBillTests.quantity}), 0)`,
      refundMinor: sql<string>`coalesce(sum(${labBillTests.refundMinor}), 0)`,
    })
    .from(labBillTests)
    .innerJoin(labBills, eq(labBills.id, labBillTests.billId))
    .where(
      and(
        summaryWhere(auth, q),
        ne(labBills.status, 'CANCELLED'),
        ne(labBillTests.settlementStatus, 'CANCEL'),
      ),
    )
    .groupBy(labBillTests.labModality)
    .orderBy(asc(labBillTests.labModality));
  return rows.map((r) => ({ ...r, grossMinor: Number(r.grossMinor), refundMinor: Number(r.refundMinor) }));
}

export async function findCollectionByMethod(db: DbOrTx, auth: TAuth, q: TLabSummaryQuery) {
  const rows = await db
    .select({
      paymentMethod: labTransactions.paymentMethod,
      payments: sql<number>`count(*)::int`,
      amountMinor: sql<string>`coalesce(sum(${labTransactions.amountMinor}), 0)`,
    })
    .from(labTransactions)
    .innerJoin(labBills, eq(labBills.id, labTransactions.billId))
    .where(and(summaryWhere(auth, q), ne(labBills.status, 'CANCELLED')))
    .groupBy(labTransactions.paymentMethod)
    .orderBy(asc(labTransactions.paymentMethod));
  return rows.map((r) => ({ ...r, amountMinor: Number(r.amountMinor) }));
}

/** The users of the caller's lab: its center's, or the group's without a center (lab-owner.ts). */
function ofLab(auth: TAuth): SQL {
  const owner = labOwnerOf(auth);
  return and(
    eq(users.groupId, auth.user.groupId),
    owner.scope === 'CENTER' ? eq(users.centerId, owner.ownerId) : isNull(users.centerId),
  ) as SQL;
}

/** The lab's users who make bills: active receptionists and supervisors of the lab, by name. */
export async function findLabUsers(db: DbOrTx, auth: TAuth) {
  return db
    .select({ id: users.id, name: users.identifier, email: users.email })
    .from(users)
    .where(
      and(
        ofLab(auth),
        eq(users.active, true),
        sql`${users.roles} && array['ROLE_LABS_RECEPTIONIST', 'ROLE_LABS_SUPERVISOR']::text[]`,
      ),
    )
    .orderBy(asc(users.identifier), asc(users.id));
}

/**
 * The e-mails a supervisor's receptionistName stands for: the lab's users whose e-mail or name it
 * is (case-insensitive), and the text itself as an e-mail (a bill's creator who has left keeps
 * their e-mail on the bill).
 */
export async function findCreatorEmails(db: DbOrTx, auth: TAuth, nameOrEmail: string): Promise<string[]> {
  const wanted = nameOrEmail.toLowerCase();
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(and(ofLab(auth), or(eq(users.email, wanted), eq(sql`lower(${users.identifier})`, wanted))));
  return [...new Set([wanted, ...rows.map((r) => r.email)])];
}
