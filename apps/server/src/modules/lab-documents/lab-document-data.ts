import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  AppError,
  type TBillingDetailsSetting,
  type TBillStatus,
  type TGroupFlags,
  type TLabPaymentMethod,
  type TSettlementStatus,
  ZBillingDetailsSetting,
  ZContactInfoSetting,
  groupFlags,
} from '@radflow/core';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import {
  centers,
  groups,
  labBills,
  labPatients,
  labReferringDoctors,
  labTransactions,
  preferences,
  users,
} from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { inLab, labOwnerOf } from '../lab-settings/lab-owner.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { resolveImageSrc } from '../report-documents/document-images.js';
import { findLinesOf } from './lab-summary.repository.js';

/*
 * Everything a bill's documents print, read once: the bill of the caller's lab (else 404), its
 * patient, doctor, lines, payments, and the letterhead of the lab (billing details, contact info,
 * name). Money stays in paise as stored; the stored totals are the truth (lab-bills computes them).
 */

export type TContactInfo = z.infer<typeof ZContactInfoSetting>;

export interface TLabLetterhead {
  /** The lab's name: the center's, or the group's for a lab without a center. */
  name: string;
  billing: TBillingDetailsSetting;
  contact: TContactInfo;
  /** The billing logo as a data URL, or null (none set, or not an uploaded png/jpeg). */
  logoDataUrl: string | null;
}

export interface TBillDocumentData {
  bill: {
    id: number;
    invoiceNumber: string;
    status: TBillStatus;
    billDate: Date;
    createdAt: Date;
    createdBy: string;
    categories: { name: string; type: string; discount: number }[];
    totalMinor: number;
    discountBasisPoints: number;
    discountMinor: number;
    finalMinor: number;
    advancePaidMinor: number;
    dueMinor: number;
    remark: string | null;
    cancellationRemark: string | null;
  };
  patient: {
    name: string;
    uhidNumber: string;
    ageString: string;
    gender: string;
    mobileNumber: string | null;
    designation: string;
  };
  doctor: { name: string; mobileNumber: string | null } | null;
  lines: {
    testCode: string;
    testName: string;
    labModality: string;
    department: string;
    quantity: number;
    originalPriceMinor: number;
    priceMinor: number;
    refundMinor: number;
    settlementStatus: TSettlementStatus;
    appointmentName: string | null;
    startTimeOfAppointment: Date | null;
    endTimeOfAppointment: Date | null;
  }[];
  transactions: {
    paymentMethod: TLabPaymentMethod;
    transactionId: string | null;
    amountMinor: number;
    recordedBy: string;
    recordedByName: string;
    recordedAt: Date;
  }[];
  letterhead: TLabLetterhead;
  flags: TGroupFlags;
}

/** The bill `id` of the caller's lab with all its documents print; 404 for any other. */
export async function loadBillDocumentData(
  ctx: AppContext,
  auth: TAuth,
  id: number,
): Promise<TBillDocumentData> {
  const db = ctx.db;
  const [row] = await db
    .select({
      bill: {
        id: labBills.id,
        invoiceNumber: labBills.invoiceNumber,
        status: labBills.status,
        billDate: labBills.billDate,
        createdAt: labBills.createdAt,
        createdBy: labBills.createdBy,
        categories: labBills.categories,
        totalMinor: labBills.totalMinor,
        discountBasisPoints: labBills.discountBasisPoints,
        discountMinor: labBills.discountMinor,
        finalMinor: labBills.finalMinor,
        advancePaidMinor: labBills.advancePaidMinor,
        dueMinor: labBills.dueMinor,
        remark: labBills.remark,
        cancellationRemark: labBills.cancellationRemark,
      },
      patient: {
        name: labPatients.name,
        uhidNumber: labPatients.uhidNumber,
        ageString: labPatients.ageString,
        gender: labPatients.gender,
        mobileNumber: labPatients.mobileNumber,
        designation: labPatients.designation,
      },
      doctorName: labReferringDoctors.name,
      doctorMobile: labReferringDoctors.mobileNumber,
    })
    .from(labBills)
    .innerJoin(labPatients, eq(labPatients.id, labBills.patientId))
    .leftJoin(labReferringDoctors, eq(labReferringDoctors.id, labBills.referringDoctorId))
    .where(and(eq(labBills.id, id), inLab(labBills, auth)));
  if (!row) throw new AppError('NOT_FOUND', 'Bill not found', 'id');

  const lines = await findLinesOf(db, [id]);
  const transactions = await db
    .select({
      paymentMethod: labTransactions.paymentMethod,
      transactionId: labTransactions.transactionId,
      amountMinor: labTransactions.amountMinor,
      recordedBy: labTransactions.recordedBy,
      recordedByName: sql<string>`coalesce(${users.identifier}, ${labTransactions.recordedBy})`,
      recordedAt: labTransactions.recordedAt,
    })
    .from(labTransactions)
    .leftJoin(users, eq(users.email, labTransactions.recordedBy))
    .where(eq(labTransactions.billId, id))
    .orderBy(asc(labTransactions.recordedAt), asc(labTransactions.id));
  const [letterhead, flags] = await Promise.all([loadLabLetterhead(ctx, auth), loadLabFlags(db, auth)]);
  return {
    bill: row.bill,
    patient: row.patient,
    doctor: row.doctorName === null ? null : { name: row.doctorName, mobileNumber: row.doctorMobile },
    lines,
    transactions,
    letterhead,
    flags,
  };
}

/** The caller's group switches (amuSpecialCustomization, enableSummaryPdfRIS, display time zone). */
export async function loadLabFlags(db: DbOrTx, auth: TAuth): Promise<TGroupFlags> {
  return groupFlags(await loadGroupPreferences(db, auth.user.groupId));
}

const LETTERHEAD_SECTIONS = ['BILLING_DETAILS', 'USER_INFORMATION'] as const;

/**
 * The lab's billing details and contact info. Both are per-user sections (core preferenceOwnerOf):
 * BILLING_DETAILS is saved by the group account, billers and tele-radiology users, contact info by
 * center and doctor accounts. A lab bill takes each section whole from the first of: the newest one
 * saved by a user of the lab's center, then the newest one saved by a user of the group without a
 * center (the group's own accounts); else the defaults (blank). A lab without a center (a group lab)
 * has only the group tier. modules/lab-documents/DECISIONS.md.
 */
export async function loadLabLetterhead(ctx: AppContext, auth: TAuth): Promise<TLabLetterhead> {
  const owner = labOwnerOf(auth);
  const centerId = owner.scope === 'CENTER' ? owner.ownerId : null;
  const rows = await ctx.db
    .select({ section: preferences.section, value: preferences.value, centerId: users.centerId })
    .from(preferences)
    .innerJoin(users, and(eq(preferences.scope, 'USER'), eq(users.id, preferences.ownerId)))
    .where(
      and(
        eq(users.groupId, auth.user.groupId),
        inArray(preferences.section, [...LETTERHEAD_SECTIONS]),
        centerId === null ? isNull(users.centerId) : or(eq(users.centerId, centerId), isNull(users.centerId)),
      ),
    )
    // The center's rows first, each tier newest first: the first row of a section wins.
    .orderBy(sql`${users.centerId} is null`, desc(preferences.updatedAt), desc(preferences.id));
  const first = (section: (typeof LETTERHEAD_SECTIONS)[number]) =>
    rows.find((r) => r.section === section)?.value;
  const billing = ZBillingDetailsSetting.safeParse(first('BILLING_DETAILS') ?? {});
  const contact = ZContactInfoSetting.safeParse(first('USER_INFORMATION') ?? {});
  const [place] =
    centerId === null
      ? await ctx.db.select({ name: groups.name }).from(groups).where(eq(groups.id, auth.user.groupId))
      : await ctx.db.select({ name: centers.name }).from(centers).where(eq(centers.id, centerId));
  const billingDetails = billing.success ? billing.data : ZBillingDetailsSetting.parse({});
  return {
    name: place?.name ?? '',
    billing: billingDetails,
    contact: contact.success ? contact.data : ZContactInfoSetting.parse({}),
    logoDataUrl: billingDetails.logo === '' ? null : await resolveImageSrc(ctx, billingDetails.logo),
  };
}
