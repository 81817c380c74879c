import { and, asc, eq, inArray } from 'drizzle-orm';
import {
  AppError,
  BILL_MESSAGES,
  MESSAGES,
  type TBill,
  type TBillCancel,
  type TBillCreate,
  type TBillTransactionUpdate,
  type TBillUndoCancel,
  type TBillUpdate,
  type TSlotWindow,
  basisPointsToPercent,
  calendarDayIn,
  slotWindowOn,
  isLabAdmin,
  paymentProblem,
  toPaise,
  toRupees,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import {
  labBillTests,
  labBills,
  labPatients,
  labReferringDoctors,
  labTests,
  labTransactions,
} from '../../db/schema.js';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';
import { recordLabAudit } from '../lab-settings/lab-audit.js';
import { inLab, labOwnerOf, labOwnerValues } from '../lab-settings/lab-owner.js';
import { accessionNumberOf, newLineIds, nextInvoiceNumber } from './bill-numbers.js';
import {
  type TCatalogueTest,
  type TPricedLine,
  type TStoredLine,
  billStatusOf,
  priceBill,
} from './bill-pricing.js';
import { onceForKey } from '../idempotency/idempotency.js';
import { loadLabBillContext } from './lab-bill-context.js';
import { takeSeat } from './slot-bookings.js';

/**
 * The bill's services (spec-lab §3–§5): each guards the bill's state and writes the change, its
 * audit row and (with an Idempotency-Key) its stored answer in one transaction.
 */

const notFound = () => new AppError('NOT_FOUND', MESSAGES.notFound, 'id');
const bad = (message: string, field: string) => new AppError('BAD_REQUEST', message, field);

/** A bill-date more than this far from the clock counts as changed (the screen's clock may lag). */
const BILL_DATE_SLACK_MS = 5 * 60_000;

async function audit(
  tx: DbOrTx,
  auth: TAuth,
  billId: number,
  action: string,
  detail: Record<string, unknown>,
) {
  await recordLabAudit(tx, auth, { entity: 'BILL', entityId: billId, action, detail });
}

/**
 * The patient and doctor must be of the caller's lab; a doctor newly put on a bill must be active.
 * One query: the patient, and the doctor beside it when one is named.
 */
async function checkPeople(tx: DbOrTx, auth: TAuth, body: TBillCreate, storedDoctorId: number | null) {
  const doctorId = body.referringDoctorId ?? null;
  const [row] = await tx
    .select({ patient: labPatients, doctor: labReferringDoctors })
    .from(labPatients)
    .leftJoin(
      labReferringDoctors,
      and(eq(labReferringDoctors.id, doctorId ?? 0), inLab(labReferringDoctors, auth)),
    )
    .where(and(eq(labPatients.id, body.patientId), inLab(labPatients, auth)));
  if (!row) throw bad('patientId names no patient of this lab', 'patientId');
  if (doctorId === null) return { patient: row.patient, doctor: null };
  if (!row.doctor) throw bad('referringDoctorId names no referring doctor of this lab', 'referringDoctorId');
  if (!row.doctor.active && doctorId !== storedDoctorId) {
    throw bad('The referring doctor is inactive and cannot be put on a bill', 'referringDoctorId');
  }
  return row;
}

async function loadCatalogue(tx: DbOrTx, auth: TAuth, ids: number[]): Promise<Map<number, TCatalogueTest>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({
      id: labTests.id,
      testCode: labTests.testCode,
      testName: labTests.testName,
      labModality: labTests.labModality,
      department: labTests.department,
      pricePaise: labTests.priceMinor,
      active: labTests.active,
    })
    .from(labTests)
    .where(and(inArray(labTests.id, [...new Set(ids)]), inLab(labTests, auth)));
  return new Map(rows.map((r) => [r.id, r]));
}

/** Seats for the lines whose appointment is new or moved, one window after another. */
async function bookSeats(tx: DbOrTx, auth: TAuth, lines: readonly TPricedLine[], billId: number | null) {
  const windows: TSlotWindow[] = lines.flatMap((l) => (l.appointment?.changed ? [l.appointment.window] : []));
  for (const window of windows) await takeSeat(tx, auth, window, billId);
}

const lineValues = (line: TPricedLine, position: number) => ({
  position,
  labTestId: line.labTestId,
  testCode: line.testCode,
  testName: line.testName,
  labModality: line.labModality,
  department: line.department,
  quantity: line.quantity,
  originalPriceMinor: line.unitPaise,
  priceMinor: line.valuePaise,
  refundMinor: line.refundPaise,
  settlementStatus: line.settlementStatus,
  attributes: line.attributes,
  appointmentName: line.appointment?.window.appointmentName ?? null,
  startTimeOfAppointment: line.appointment?.window.start ?? null,
  endTimeOfAppointment: line.appointment?.window.end ?? null,
});

function billDateOf(auth: TAuth, sent: string | undefined, current: Date): Date {
  if (sent === undefined) return current;
  const date = new Date(sent);
  if (Math.abs(date.getTime() - current.getTime()) > BILL_DATE_SLACK_MS && !isLabAdmin(auth.roles)) {
    throw new AppError(
      'FORBIDDEN',
      `${MESSAGE_NOT_ALLOWED}: only a lab admin may change the bill date`,
      'billDate',
    );
  }
  return date;
}

// ---- POST /api/lab/bill ----

const namesAttributes = (body: TBillCreate) =>
  body.labBillTests.some((l) => l.attributes.filmSize != null || l.attributes.contrastVolume != null);

export async function createBill(
  app: AppContext,
  auth: TAuth,
  body: TBillCreate,
  idempotencyKey: string | null,
): Promise<TBill> {
  const ctx = await loadLabBillContext(app.db, auth, { attributes: namesAttributes(body) });
  return app.db.transaction((tx) =>
    onceForKey(tx, auth, idempotencyKey, 'CREATE_BILL', async () => {
      const people = await checkPeople(tx, auth, body, null);
      const catalogue = await loadCatalogue(
        tx,
        auth,
        body.labBillTests.map((l) => l.labTestId),
      );
      const priced = priceBill({ auth, ctx, body, catalogue, stored: null });
      await bookSeats(tx, auth, priced.lines, null);
      const now = app.now();
      const billDate = billDateOf(auth, body.billDate, now);
      const invoiceNumber = await nextInvoiceNumber(tx, labOwnerOf(auth), auth.user.email);
      const t = priced.totals;
      const [bill] = await tx
        .insert(labBills)
        .values({
          ...labOwnerValues(auth),
          invoiceNumber,
          status: priced.status,
          billDate,
          initialBillDate: billDate,
          patientId: body.patientId,
          referringDoctorId: body.referringDoctorId ?? null,
          categories: priced.categories,
          totalMinor: t.totalPaise,
          discountBasisPoints: t.discountBasisPoints,
          discountMinor: t.discountPaise,
          finalMinor: t.finalPaise,
          advancePaidMinor: t.advancePaidPaise,
          dueMinor: t.duePaise,
          paymentMethod: body.paymentMethod ?? 'UPI',
          remark: body.remark ?? null,
          createdBy: auth.user.email,
          // The advance below is the bill's first payment.
          firstPaymentRecordedBy: t.advancePaidPaise > 0 ? auth.user.email : null,
        })
        .returning();
      const billId = bill!.id;
      const ids = await newLineIds(tx, priced.lines.length);
      const lines = await tx
        .insert(labBillTests)
        .values(
          priced.lines.map((line, position) => ({
            ...lineValues(line, position),
            id: ids[position]!,
            billId,
            accessionNumber: accessionNumberOf(ids[position]!),
          })),
        )
        .returning();
      const transactions: (typeof labTransactions.$inferSelect)[] = [];
      if (t.advancePaidPaise > 0) {
        const paid = await tx
          .insert(labTransactions)
          .values({
            billId,
            paymentMethod: body.paymentMethod ?? 'UPI',
            transactionId: body.transactionId ?? null,
            amountMinor: t.advancePaidPaise,
            recordedBy: auth.user.email,
          })
          .returning();
        transactions.push(...paid);
      }
      await audit(tx, auth, billId, 'CREATED', {
        invoiceNumber,
        status: priced.status,
        finalAmount: toRupees(t.finalPaise),
      });
      return toBill({ bill: bill!, ...people }, lines, transactions);
    }),
  );
}

// ---- PUT /api/lab/bill ----

async function lockBill(tx: DbOrTx, auth: TAuth, id: number) {
  const [bill] = await tx
    .select()
    .from(labBills)
    .where(and(eq(labBills.id, id), inLab(labBills, auth)))
    .for('update');
  if (!bill) throw notFound();
  return bill;
}

async function storedLines(tx: DbOrTx, billId: number): Promise<TStoredLine[]> {
  const rows = await tx
    .select()
    .from(labBillTests)
    .where(eq(labBillTests.billId, billId))
    .orderBy(asc(labBillTests.position));
  return rows.map((r) => ({
    id: r.id,
    labTestId: r.labTestId,
    testCode: r.testCode,
    testName: r.testName,
    labModality: r.labModality,
    department: r.department,
    quantity: r.quantity,
    unitPaise: r.originalPriceMinor,
    refundPaise: r.refundMinor,
    settlementStatus: r.settlementStatus,
    attributes: r.attributes,
    appointmentName: r.appointmentName,
    start: r.startTimeOfAppointment,
    end: r.endTimeOfAppointment,
    accessionNumber: r.accessionNumber,
  }));
}

async function ledgerOf(tx: DbOrTx, billId: number): Promise<number[]> {
  const rows = await tx
    .select({ amount: labTransactions.amountMinor })
    .from(labTransactions)
    .where(eq(labTransactions.billId, billId));
  return rows.map((r) => r.amount);
}

const stale = () =>
  new AppError(
    'CONFLICT',
    'This bill was changed by someone else since you opened it. Reload it and try again.',
    'version',
  );

export async function updateBill(app: AppContext, auth: TAuth, body: TBillUpdate): Promise<TBill> {
  const ctx = await loadLabBillContext(app.db, auth, { attributes: namesAttributes(body) });
  return app.db.transaction(async (tx) => {
    const bill = await lockBill(tx, auth, body.id);
    if (bill.version !== body.version) throw stale();
    if (bill.status === 'CANCELLED') {
      throw new AppError(
        'CONFLICT',
        'A cancelled bill cannot be changed; undo the cancellation first',
        'status',
      );
    }
    await checkPeople(tx, auth, body, bill.referringDoctorId);
    const lines = await storedLines(tx, bill.id);
    const ledgerPaise = await ledgerOf(tx, bill.id);
    const newTestIds = body.labBillTests.filter((l) => l.id === undefined).map((l) => l.labTestId);
    // spec-lab §5: no test is added while a saved test holds an appointment.
    if (
      newTestIds.length > 0 &&
      lines.some((l) => l.appointmentName !== null && l.settlementStatus !== 'CANCEL')
    ) {
      throw bad(BILL_MESSAGES.noNewTestsWithAppointment, 'labBillTests');
    }
    const catalogue = await loadCatalogue(tx, auth, newTestIds);
    const priced = priceBill({
      auth,
      ctx,
      body,
      catalogue,
      stored: { status: bill.status, lines, ledgerPaise },
    });
    await bookSeats(tx, auth, priced.lines, bill.id);
    const billDate = billDateOf(auth, body.billDate, bill.billDate);
    const t = priced.totals;
    // A COMPLETED bill stays so; SCHEDULED and OPEN follow the appointment and the ledger.
    const status = bill.status === 'COMPLETED' ? 'COMPLETED' : priced.status;
    await tx
      .update(labBills)
      .set({
        status,
        billDate,
        patientId: body.patientId,
        referringDoctorId: body.referringDoctorId ?? null,
        categories: priced.categories,
        totalMinor: t.totalPaise,
        discountBasisPoints: t.discountBasisPoints,
        discountMinor: t.discountPaise,
        finalMinor: t.finalPaise,
        advancePaidMinor: t.advancePaidPaise,
        dueMinor: t.duePaise,
        paymentMethod: body.paymentMethod ?? bill.paymentMethod,
        remark: body.remark === undefined ? bill.remark : body.remark,
        updatedAt: app.now(),
        version: bill.version + 1,
      })
      .where(eq(labBills.id, bill.id));
    const fresh = priced.lines.filter((l) => l.id === null);
    const ids = await newLineIds(tx, fresh.length);
    for (const [position, line] of priced.lines.entries()) {
      if (line.id !== null) {
        await tx.update(labBillTests).set(lineValues(line, position)).where(eq(labBillTests.id, line.id));
      }
    }
    if (fresh.length > 0) {
      await tx.insert(labBillTests).values(
        fresh.map((line, i) => ({
          ...lineValues(line, priced.lines.indexOf(line)),
          id: ids[i]!,
          billId: bill.id,
          accessionNumber: accessionNumberOf(ids[i]!),
        })),
      );
    }
    await audit(tx, auth, bill.id, 'UPDATED', {
      version: bill.version + 1,
      status,
      finalAmount: toRupees(t.finalPaise),
      ...(billDate.getTime() !== bill.billDate.getTime() ? { billDate: billDate.toISOString() } : {}),
    });
    return loadBill(tx, auth, bill.id);
  });
}

// ---- PUT /api/lab/bill/update-transaction ----

export async function addTransactions(
  app: AppContext,
  auth: TAuth,
  body: TBillTransactionUpdate,
  idempotencyKey: string | null,
): Promise<TBill> {
  return app.db.transaction((tx) =>
    onceForKey(tx, auth, idempotencyKey, 'ADD_TRANSACTION', async () => {
      const bill = await lockBill(tx, auth, body.id);
      if (bill.status === 'CANCELLED') {
        throw new AppError('CONFLICT', 'A cancelled bill takes no payment', 'status');
      }
      const amountPaise = body.labTransactions.reduce((sum, p) => sum + toPaise(p.amount), 0);
      const problem = paymentProblem(amountPaise, bill.finalMinor, bill.advancePaidMinor);
      if (problem) throw bad(problem, 'labTransactions');
      await tx.insert(labTransactions).values(
        body.labTransactions.map((p) => ({
          billId: bill.id,
          paymentMethod: p.paymentMethod,
          transactionId: p.transactionId ?? null,
          amountMinor: toPaise(p.amount),
          recordedBy: auth.user.email,
          recordedAt: app.now(),
        })),
      );
      const advance = bill.advancePaidMinor + amountPaise;
      const lines = await storedLines(tx, bill.id);
      const status = bill.status === 'COMPLETED' ? 'COMPLETED' : billStatusOf(lines, [advance]);
      await tx
        .update(labBills)
        .set({
          advancePaidMinor: advance,
          dueMinor: Math.max(0, bill.finalMinor - advance),
          firstPaymentRecordedBy: bill.firstPaymentRecordedBy ?? auth.user.email,
          status,
          updatedAt: app.now(),
          version: bill.version + 1,
        })
        .where(eq(labBills.id, bill.id));
      await audit(tx, auth, bill.id, 'PAYMENT', {
        amount: toRupees(amountPaise),
        methods: body.labTransactions.map((p) => p.paymentMethod),
      });
      return loadBill(tx, auth, bill.id);
    }),
  );
}

// ---- PUT /api/lab/cancel-status, /api/lab/undo-cancel-status ----

export async function cancelBill(app: AppContext, auth: TAuth, body: TBillCancel): Promise<TBill> {
  return app.db.transaction(async (tx) => {
    const bill = await lockBill(tx, auth, body.id);
    if (bill.status === 'CANCELLED')
      throw new AppError('CONFLICT', 'The bill is already cancelled', 'status');
    await tx
      .update(labBills)
      .set({
        status: 'CANCELLED',
        cancellationRemark: body.cancellationRemark,
        updatedAt: app.now(),
        version: bill.version + 1,
      })
      .where(eq(labBills.id, bill.id));
    await audit(tx, auth, bill.id, 'CANCELLED', {
      from: bill.status,
      cancellationRemark: body.cancellationRemark,
    });
    return loadBill(tx, auth, bill.id);
  });
}

/**
 * Undo Cancel: the bill comes back as it was (SCHEDULED or OPEN by its appointment and ledger). Its
 * appointment takes its seat again, so a slot that filled meanwhile refuses the undo (409).
 */
export async function undoCancelBill(app: AppContext, auth: TAuth, body: TBillUndoCancel): Promise<true> {
  const ctx = await loadLabBillContext(app.db, auth);
  return app.db.transaction(async (tx) => {
    const bill = await lockBill(tx, auth, body.id);
    if (bill.status !== 'CANCELLED') throw new AppError('CONFLICT', 'The bill is not cancelled', 'status');
    const lines = await storedLines(tx, bill.id);
    for (const line of lines) {
      if (line.appointmentName === null || line.start === null || line.settlementStatus === 'CANCEL')
        continue;
      const slot = ctx.slots.find((s) => s.name === line.appointmentName);
      const day = calendarDayIn(line.start, ctx.timeZone);
      const window = slot ? slotWindowOn(slot, day, ctx.timeZone) : null;
      await takeSeat(
        tx,
        auth,
        {
          appointmentName: line.appointmentName,
          labModality: line.labModality,
          date: day,
          start: line.start,
          end: line.end ?? line.start,
          // A slot since removed from the settings (or moved) keeps the booking it had: no limit to check.
          appointmentLimit: window?.appointmentLimit ?? Number.MAX_SAFE_INTEGER,
          blocked: false,
        },
        bill.id,
      );
    }
    const ledgerPaise = await ledgerOf(tx, bill.id);
    await tx
      .update(labBills)
      .set({
        status: billStatusOf(lines, ledgerPaise),
        cancellationRemark: null,
        updatedAt: app.now(),
        version: bill.version + 1,
      })
      .where(eq(labBills.id, bill.id));
    await audit(tx, auth, bill.id, 'UNDO_CANCEL', { cancellationRemark: bill.cancellationRemark });
    return true as const;
  });
}

// ---- GET /api/lab/bill/get/{id} ----

export async function loadBill(db: DbOrTx, auth: TAuth, id: number): Promise<TBill> {
  const [row] = await db
    .select({ bill: labBills, patient: labPatients, doctor: labReferringDoctors })
    .from(labBills)
    .innerJoin(labPatients, eq(labPatients.id, labBills.patientId))
    .leftJoin(labReferringDoctors, eq(labReferringDoctors.id, labBills.referringDoctorId))
    .where(and(eq(labBills.id, id), inLab(labBills, auth)));
  if (!row) throw notFound();
  const [lines, transactions] = await Promise.all([
    db.select().from(labBillTests).where(eq(labBillTests.billId, id)).orderBy(asc(labBillTests.position)),
    db.select().from(labTransactions).where(eq(labTransactions.billId, id)).orderBy(asc(labTransactions.id)),
  ]);
  return toBill(row, lines, transactions);
}

type TBillRow = typeof labBills.$inferSelect;
type TLineRow = typeof labBillTests.$inferSelect;
type TTransactionRow = typeof labTransactions.$inferSelect;

/** The answer of every bill call, from the rows (read, or just written). */
function toBill(
  row: {
    bill: TBillRow;
    patient: typeof labPatients.$inferSelect;
    doctor: typeof labReferringDoctors.$inferSelect | null;
  },
  lines: TLineRow[],
  transactions: TTransactionRow[],
): TBill {
  const { bill, patient, doctor } = row;
  return {
    id: bill.id,
    version: bill.version,
    status: bill.status,
    invoiceNumber: bill.invoiceNumber,
    billDate: bill.billDate.toISOString(),
    initialBillDate: bill.initialBillDate.toISOString(),
    patientId: patient.id,
    patient: {
      id: patient.id,
      uhidNumber: patient.uhidNumber,
      name: patient.name,
      mobileNumber: patient.mobileNumber,
      gender: patient.gender,
      designation: patient.designation,
      ageString: patient.ageString,
    },
    referringDoctorId: doctor?.id ?? null,
    referringDoctor: doctor
      ? { id: doctor.id, name: doctor.name, mobileNumber: doctor.mobileNumber, department: doctor.department }
      : null,
    labBillTests: [...lines]
      .sort((a, b) => a.position - b.position)
      .map((l) => ({
        id: l.id,
        labTestId: l.labTestId,
        testCode: l.testCode,
        testName: l.testName,
        labModality: l.labModality,
        department: l.department,
        quantity: l.quantity,
        originalPrice: toRupees(l.originalPriceMinor),
        price: toRupees(l.priceMinor),
        refundAmount: toRupees(l.refundMinor),
        settlementStatus: l.settlementStatus,
        attributes: l.attributes,
        appointmentName: l.appointmentName,
        startTimeOfAppointment: l.startTimeOfAppointment?.toISOString() ?? null,
        endTimeOfAppointment: l.endTimeOfAppointment?.toISOString() ?? null,
        accessionNumber: l.accessionNumber,
        studyId: l.studyId,
        uploadedThroughWorkList: l.uploadedThroughWorkList,
      })),
    labBillCategories: bill.categories,
    labTransactions: transactions.map((tr) => ({
      id: tr.id,
      paymentMethod: tr.paymentMethod,
      transactionId: tr.transactionId,
      amount: toRupees(tr.amountMinor),
      recordedBy: tr.recordedBy,
      recordedAt: tr.recordedAt.toISOString(),
    })),
    totalPrice: toRupees(bill.totalMinor),
    discountPercentage: basisPointsToPercent(bill.discountBasisPoints),
    discountAmount: toRupees(bill.discountMinor),
    finalAmount: toRupees(bill.finalMinor),
    advancePaid: toRupees(bill.advancePaidMinor),
    due: bill.dueMinor > 0,
    dueAmount: toRupees(bill.dueMinor),
    paymentMethod: bill.paymentMethod,
    remark: bill.remark,
    cancellationRemark: bill.cancellationRemark,
    createdBy: bill.createdBy,
    createdAt: bill.createdAt.toISOString(),
  };
}
