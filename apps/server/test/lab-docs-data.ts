import { randomBytes } from 'node:crypto';
import type { TBillStatus, TLabPaymentMethod, TSettlementStatus } from '@radflow/core';
import type { Db } from '../src/db/client.js';
import {
  labBillTests,
  labBills,
  labPatients,
  labReferringDoctors,
  labTests,
  labTransactions,
} from '../src/db/schema.js';

/*
 * Lab rows for the documents and summary tests, written straight into the tables (the calls that
 * make them belong to other parts of issue 25). Money in paise, as stored. A lab is a center
 * (scope CENTER) or a group without a center (scope GROUP), as modules/lab-settings/lab-owner.ts.
 */

export interface TLabPlace {
  groupId: number;
  /** null: the group's own lab. */
  centerId: number | null;
}

const ownerOf = (lab: TLabPlace) => ({
  groupId: lab.groupId,
  labScope: lab.centerId === null ? ('GROUP' as const) : ('CENTER' as const),
  labOwnerId: lab.centerId ?? lab.groupId,
});

const tag = () => randomBytes(4).toString('hex');

export interface TLineInput {
  testCode?: string;
  testName?: string;
  labModality?: string;
  department?: string;
  quantity?: number;
  /** Unit price, paise. */
  priceMinor: number;
  refundMinor?: number;
  settlementStatus?: TSettlementStatus;
  appointment?: { name: string; start: Date; end: Date };
}

export interface TBillInput {
  lab: TLabPlace;
  createdBy: string;
  patient?: { name?: string; gender?: 'M' | 'F' | 'O'; ageString?: string; mobileNumber?: string | null };
  doctor?: string | null;
  status?: TBillStatus;
  invoiceNumber?: string;
  billDate?: Date;
  createdAt?: Date;
  categories?: { name: string; type: 'PATIENT_CATEGORY' | 'PRIORITY'; discount: number }[];
  /** Percent discount in basis points (1250 = 12.5%); the discount is taken off the total. */
  discountBasisPoints?: number;
  discountMinor?: number;
  lines: TLineInput[];
  payments?: {
    method: TLabPaymentMethod;
    amountMinor: number;
    transactionId?: string;
    by?: string;
    at?: Date;
  }[];
  cancellationRemark?: string;
}

export interface TBuiltBill {
  id: number;
  invoiceNumber: string;
  patientName: string;
  uhidNumber: string;
  totalMinor: number;
  discountMinor: number;
  finalMinor: number;
  advancePaidMinor: number;
  dueMinor: number;
}

/**
 * A bill with its patient, doctor, catalogue tests, lines and payments. The stored totals are
 * written the way the bill screen keeps them (total = Σ original × quantity − refund; final =
 * total − discount; advance = Σ payments; due = final − advance when above 0): the documents read
 * them as they are, they do not recompute them.
 */
export async function insertBill(db: Db, input: TBillInput): Promise<TBuiltBill> {
  const owner = ownerOf(input.lab);
  const t = tag();
  const [patient] = await db
    .insert(labPatients)
    .values({
      ...owner,
      uhidNumber: `UH-${t}`,
      name: input.patient?.name ?? `Patient ${t}`,
      mobileNumber: input.patient?.mobileNumber === undefined ? '9876543210' : input.patient.mobileNumber,
      gender: input.patient?.gender ?? 'F',
      designation: 'MRS',
      ageString: input.patient?.ageString ?? '34 Y',
      ageYears: 34,
      createdBy: input.createdBy,
    })
    .returning();
  let doctorId: number | null = null;
  if (input.doctor !== null) {
    const [doctor] = await db
      .insert(labReferringDoctors)
      .values({ ...owner, name: input.doctor ?? `Dr Ref ${t}`, createdBy: input.createdBy })
      .returning();
    doctorId = doctor!.id;
  }
  const lines = input.lines.map((l, i) => ({
    testCode: l.testCode ?? `T${i}-${t}`,
    testName: l.testName ?? `Test ${i} ${t}`,
    labModality: l.labModality ?? 'CT',
    department: l.department ?? 'RADIOLOGY',
    quantity: l.quantity ?? 1,
    originalPriceMinor: l.priceMinor,
    refundMinor: l.refundMinor ?? 0,
    settlementStatus: l.settlementStatus ?? 'FULL_PRICE',
    appointment: l.appointment,
  }));
  const totalMinor = lines.reduce((a, l) => a + l.originalPriceMinor * l.quantity - l.refundMinor, 0);
  const discountMinor =
    input.discountMinor ?? Math.round((totalMinor * (input.discountBasisPoints ?? 0)) / 10_000);
  const finalMinor = Math.round((totalMinor - discountMinor) / 100) * 100;
  const advancePaidMinor = (input.payments ?? []).reduce((a, p) => a + p.amountMinor, 0);
  const dueMinor = Math.max(finalMinor - advancePaidMinor, 0);
  const billDate = input.billDate ?? new Date();
  const invoiceNumber = input.invoiceNumber ?? `INV-${t}`;
  const [bill] = await db
    .insert(labBills)
    .values({
      ...owner,
      invoiceNumber,
      status: input.status ?? 'OPEN',
      billDate,
      initialBillDate: billDate,
      patientId: patient!.id,
      referringDoctorId: doctorId,
      categories: input.categories ?? [],
      totalMinor,
      discountBasisPoints: input.discountBasisPoints ?? 0,
      discountMinor,
      finalMinor,
      advancePaidMinor,
      dueMinor,
      paymentMethod: input.payments?.[0]?.method ?? 'UPI',
      cancellationRemark: input.cancellationRemark ?? null,
      createdBy: input.createdBy,
      firstPaymentRecordedBy: input.payments?.[0] ? (input.payments[0].by ?? input.createdBy) : null,
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    })
    .returning();
  const billId = bill!.id;
  for (const [i, l] of lines.entries()) {
    const [test] = await db
      .insert(labTests)
      .values({
        ...owner,
        testCode: l.testCode,
        testName: l.testName,
        testType: 'NORMAL',
        labModality: l.labModality,
        department: l.department,
        priceMinor: l.originalPriceMinor,
        createdBy: input.createdBy,
      })
      .returning();
    await db.insert(labBillTests).values({
      billId,
      position: i,
      labTestId: test!.id,
      testCode: l.testCode,
      testName: l.testName,
      labModality: l.labModality,
      department: l.department,
      quantity: l.quantity,
      originalPriceMinor: l.originalPriceMinor,
      priceMinor: l.originalPriceMinor * l.quantity - l.refundMinor,
      refundMinor: l.refundMinor,
      settlementStatus: l.settlementStatus,
      appointmentName: l.appointment?.name ?? null,
      startTimeOfAppointment: l.appointment?.start ?? null,
      endTimeOfAppointment: l.appointment?.end ?? null,
      accessionNumber: `ACC-${billId}-${i}-${t}`,
    });
  }
  for (const p of input.payments ?? []) {
    await db.insert(labTransactions).values({
      billId,
      paymentMethod: p.method,
      transactionId: p.transactionId ?? null,
      amountMinor: p.amountMinor,
      recordedBy: p.by ?? input.createdBy,
      ...(p.at ? { recordedAt: p.at } : {}),
    });
  }
  return {
    id: billId,
    invoiceNumber,
    patientName: patient!.name,
    uhidNumber: patient!.uhidNumber,
    totalMinor,
    discountMinor,
    finalMinor,
    advancePaidMinor,
    dueMinor,
  };
}
