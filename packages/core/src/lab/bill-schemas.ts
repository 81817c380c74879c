import { z } from 'zod';
import {
  BILL_CATEGORY_TYPES,
  BILL_STATUSES,
  LAB_LIMITS,
  LAB_PAYMENT_METHODS,
  LAB_REPORT_STATUSES,
  LAB_TABS,
  SETTLEMENT_STATUSES,
} from './entities.js';
import { ALL_LAB_MODALITIES } from '../studies/upload-schemas.js';
import { isDiscountPercent } from './bill-money.js';
import { isRupeeAmount } from './money.js';

/**
 * The bill contract (spec-lab §3 Bill, §4 states, §5 Bill rules, §7 Lab calls). Amounts are rupees on
 * the wire (≤ 2 decimals, money.ts); the server turns them into paise and recomputes every total with
 * bill-money.ts. Instants are ISO 8601 with an offset ("2026-11-27T10:30:00+05:30" or "…Z").
 */

const rupees = (field: string) =>
  z
    .number({ error: `${field} must be an amount in rupees` })
    .refine(isRupeeAmount, `${field} must be an amount of 0 or more with at most 2 decimals`);

const instant = (field: string) =>
  z.iso.datetime({ offset: true, error: `${field} must be a date and time (ISO 8601)` });

const remark = (field: string) =>
  z.string().max(LAB_LIMITS.remarkLength, `${field} must be at most ${LAB_LIMITS.remarkLength} characters`);

const id = z.number().int().positive();

// ---- bill lines ----

/**
 * The film size and contrast chosen for an imaging line (spec-lab §3 "attributes", a JSON object):
 * the names of entries of the lab's MODALITY_BASED_FILM_SIZE / MODALITY_BASED_CONTRAST definitions.
 * Their prices are added to the line's unit price by the server (bill-money attributePricePaise).
 */
export const ZBillLineAttributes = z
  .object({
    filmSize: z.string().trim().min(1).max(64).nullish(),
    contrastVolume: z.string().trim().min(1).max(64).nullish(),
  })
  .loose();
export type TBillLineAttributes = z.infer<typeof ZBillLineAttributes>;

/**
 * A line of a bill as the screen sends it. `id` names an existing line on PUT (absent: a new line).
 * The server takes code, name, modality, department and price from the test catalogue; a line's
 * refund is recomputed from its settlement status (bill-money settleLine), `refundAmount` matters
 * only for PARTIAL_REFUND. An appointment is all three fields or none.
 */
export const ZBillLineInput = z
  .object({
    id: id.optional(),
    labTestId: id,
    quantity: z.number({ error: 'quantity must be a whole number of 1 or more' }).int().min(1).max(1000),
    settlementStatus: z.enum(SETTLEMENT_STATUSES).default('FULL_PRICE'),
    refundAmount: rupees('refundAmount').default(0),
    attributes: ZBillLineAttributes.default({}),
    appointmentName: z.string().trim().min(1).max(100).nullish(),
    startTimeOfAppointment: instant('startTimeOfAppointment').nullish(),
    endTimeOfAppointment: instant('endTimeOfAppointment').nullish(),
  })
  .refine(
    (line) =>
      [line.appointmentName, line.startTimeOfAppointment, line.endTimeOfAppointment].every(
        (v) => v == null,
      ) ||
      [line.appointmentName, line.startTimeOfAppointment, line.endTimeOfAppointment].every((v) => v != null),
    { message: 'Select slot and date before submitting', path: ['startTimeOfAppointment'] },
  );
export type TBillLineInput = z.infer<typeof ZBillLineInput>;

/** A chosen category or priority (spec-lab §3 labBillCategories); the discount comes from the setting. */
export const ZBillCategoryInput = z.object({
  name: z.string().trim().min(1).max(100),
  type: z.enum(BILL_CATEGORY_TYPES),
});
export type TBillCategoryInput = z.infer<typeof ZBillCategoryInput>;

// ---- POST / PUT /api/lab/bill ----

const billFields = {
  patientId: id,
  referringDoctorId: id.nullish(),
  labBillTests: z.array(ZBillLineInput).min(1, 'Add at least one test').max(100),
  labBillCategories: z.array(ZBillCategoryInput).max(2).default([]),
  /**
   * Which discount field the receptionist typed (the other is derived). Absent: PERCENTAGE when
   * discountPercentage is sent, else AMOUNT when discountAmount is sent, else no discount. Ignored
   * when a PATIENT_CATEGORY is chosen (its discount applies).
   */
  discountBy: z.enum(['PERCENTAGE', 'AMOUNT']).optional(),
  discountPercentage: z
    .number()
    .refine(isDiscountPercent, 'discountPercentage must be between 0 and 100 with at most 2 decimals')
    .nullish(),
  discountAmount: rupees('discountAmount').nullish(),
  /** Discount remark (spec-lab §5: at most 255 characters). */
  remark: remark('remark').nullish(),
  /** Absent: now. Changing it on PUT needs isLabAdmin. */
  billDate: instant('billDate').optional(),
  paymentMethod: z.enum(LAB_PAYMENT_METHODS).optional(),
  transactionId: z.string().trim().max(100).nullish(),
  /**
   * Client totals: checked, never stored. When sent and not what the server computes, 400 names the
   * field. advancePaid on POST is the payment taken now (one ledger transaction when above 0); on
   * PUT it must equal the ledger's sum (payments are added by update-transaction).
   */
  totalPrice: rupees('totalPrice').optional(),
  finalAmount: rupees('finalAmount').optional(),
  advancePaid: rupees('advancePaid').optional(),
  dueAmount: rupees('dueAmount').optional(),
};

export const ZBillCreate = z.object(billFields).meta({ id: 'LabBillCreate' });
export type TBillCreate = z.infer<typeof ZBillCreate>;

export const ZBillUpdate = z
  .object({ ...billFields, id, version: z.number().int().min(1) })
  .meta({ id: 'LabBillUpdate' });
export type TBillUpdate = z.infer<typeof ZBillUpdate>;

// ---- the bill answer ----

export const ZBillLine = z.object({
  id,
  labTestId: id,
  testCode: z.string(),
  testName: z.string(),
  labModality: z.string(),
  department: z.string(),
  quantity: z.number().int(),
  /** Unit price: the catalogue price at billing plus the attribute prices. */
  originalPrice: z.number(),
  /** The line's value: originalPrice × quantity − refundAmount. */
  price: z.number(),
  refundAmount: z.number(),
  settlementStatus: z.enum(SETTLEMENT_STATUSES),
  attributes: z.record(z.string(), z.unknown()),
  appointmentName: z.string().nullable(),
  startTimeOfAppointment: z.string().nullable(),
  endTimeOfAppointment: z.string().nullable(),
  /** DICOM SH (≤ 16 characters), unique: what the modality worklist hands the scanner. */
  accessionNumber: z.string(),
  studyId: z.number().int().nullable(),
  uploadedThroughWorkList: z.boolean(),
});
export type TBillLine = z.infer<typeof ZBillLine>;

export const ZBillTransaction = z.object({
  id: z.number().int(),
  paymentMethod: z.enum(LAB_PAYMENT_METHODS),
  transactionId: z.string().nullable(),
  amount: z.number(),
  recordedBy: z.string(),
  recordedAt: z.string(),
});
export type TBillTransaction = z.infer<typeof ZBillTransaction>;

export const ZBillCategory = z.object({
  name: z.string(),
  type: z.enum(BILL_CATEGORY_TYPES),
  discount: z.number(),
});

/**
 * The bill's patient and doctor as the bill answers them: what the pickers show (patientLabel,
 * referringDoctorLabel). A patient or doctor the pickers find (TLabPatient, TReferringDoctor) is one.
 */
export const ZBillPatient = z.object({
  id,
  uhidNumber: z.string(),
  name: z.string(),
  mobileNumber: z.string().nullable(),
  gender: z.string(),
  designation: z.string(),
  ageString: z.string(),
});
export type TBillPatient = z.infer<typeof ZBillPatient>;

export const ZBillDoctor = z.object({
  id,
  name: z.string(),
  mobileNumber: z.string().nullable(),
  department: z.string().nullable(),
});
export type TBillDoctor = z.infer<typeof ZBillDoctor>;

export const ZBill = z
  .object({
    id,
    version: z.number().int(),
    status: z.enum(BILL_STATUSES),
    invoiceNumber: z.string(),
    billDate: z.string(),
    initialBillDate: z.string(),
    patientId: id,
    patient: ZBillPatient,
    referringDoctorId: id.nullable(),
    referringDoctor: ZBillDoctor.nullable(),
    labBillTests: z.array(ZBillLine),
    labBillCategories: z.array(ZBillCategory),
    labTransactions: z.array(ZBillTransaction),
    totalPrice: z.number(),
    discountPercentage: z.number(),
    discountAmount: z.number(),
    finalAmount: z.number(),
    advancePaid: z.number(),
    /** spec-lab §4: true when the final amount exceeds the advance paid. */
    due: z.boolean(),
    dueAmount: z.number(),
    paymentMethod: z.enum(LAB_PAYMENT_METHODS),
    remark: z.string().nullable(),
    cancellationRemark: z.string().nullable(),
    createdBy: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'LabBill' });
export type TBill = z.infer<typeof ZBill>;

// ---- payments, cancel, undo ----

/**
 * PUT /api/lab/bill/update-transaction: the payments taken now (appended to the ledger; each above
 * 0; together never more than the due amount). Answers the bill.
 */
export const ZBillTransactionUpdate = z
  .object({
    id,
    labTransactions: z
      .array(
        z.object({
          paymentMethod: z.enum(LAB_PAYMENT_METHODS).default('UPI'),
          transactionId: z.string().trim().max(100).nullish(),
          amount: z
            .number()
            .refine(isRupeeAmount, 'amount must be an amount with at most 2 decimals')
            .refine((v) => v > 0, 'The amount must be greater than 0'),
        }),
      )
      .min(1, 'Add a payment')
      .max(10),
  })
  .meta({ id: 'LabBillTransactionUpdate' });
export type TBillTransactionUpdate = z.infer<typeof ZBillTransactionUpdate>;

/** PUT /api/lab/cancel-status (spec-lab §5: cancellation remark at most 255 characters). */
export const ZBillCancel = z.object({
  id,
  cancellationRemark: remark('cancellationRemark').trim().min(1, 'Give a reason for the cancellation'),
});
export type TBillCancel = z.infer<typeof ZBillCancel>;

/** PUT /api/lab/undo-cancel-status; answers true. */
export const ZBillUndoCancel = z.object({ id });
export type TBillUndoCancel = z.infer<typeof ZBillUndoCancel>;

// ---- POST /api/lab/bill/search: the billing list ----

/** The billing list is ordered by bill date (then id), the order its index keeps. */
export const BILL_SEARCH_ORDERING = ['billDate'] as const;

/**
 * The billing list counts matching bills up to this many; beyond, totalElements is this and
 * totalRelation 'gte' (a count of millions of bills would cost more than the page itself).
 */
export const BILL_LIST_COUNT_LIMIT = 1_000;

/**
 * The billing list's search. labBillingStatuses defaults to the Active tab's (spec-lab §2); the
 * bill-date range is of calendar days (yyyy-MM-dd) in the group's display time zone, both ends
 * included.
 */
export const ZBillSearch = z
  .object({
    labBillingStatuses: z
      .array(z.enum(BILL_STATUSES))
      .min(1)
      .default([...LAB_TABS.Active]),
    startTime: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'startTime must be a day (yyyy-MM-dd)')
      .nullish(),
    endTime: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'endTime must be a day (yyyy-MM-dd)')
      .nullish(),
    page: z.number().int().min(0).max(1_000_000).default(0),
    size: z.number().int().min(1).max(LAB_LIMITS.pageSizeMax).default(20),
    orderingCriteria: z.enum(BILL_SEARCH_ORDERING).default('billDate'),
    sortOrder: z.enum(['ASC', 'DESC']).default('DESC'),
    /** Bills with a test of this modality (spec-lab §3 Bill testModality: the modality filter column). */
    testModality: z.enum(ALL_LAB_MODALITIES).nullish(),
    /**
     * Bills with a test whose report is in one of these (spec-lab §3 Bill labReportStatuses; PENDING:
     * no study yet). Empty: any.
     */
    labReportStatuses: z.array(z.enum(LAB_REPORT_STATUSES)).max(LAB_REPORT_STATUSES.length).default([]),
  })
  .meta({ id: 'LabBillSearch' });
export type TBillSearch = z.infer<typeof ZBillSearch>;

export const ZBillListRow = z.object({
  id,
  version: z.number().int(),
  status: z.enum(BILL_STATUSES),
  invoiceNumber: z.string(),
  uhidNumber: z.string(),
  patientName: z.string(),
  mobileNumber: z.string().nullable(),
  referringDoctorName: z.string().nullable(),
  /** 'modality: code name (price)', one per line (price: the line's value in rupees). */
  tests: z.array(z.string()),
  /** The lines' modalities, once each (the modality filter column). */
  modalities: z.array(z.string()),
  /**
   * Each test's report status in the lab's words (the report statuses column), in line order; a
   * signed-off one carries what opens its report (/report-edit/{studyInstanceUid}/{reportStatusId}).
   */
  reportStatuses: z.array(
    z.object({
      testCode: z.string(),
      status: z.enum(LAB_REPORT_STATUSES),
      studyInstanceUid: z.string().nullable(),
      reportStatusId: z.number().int().nullable(),
    }),
  ),
  categories: z.array(z.string()),
  priorities: z.array(z.string()),
  totalPrice: z.number(),
  finalAmount: z.number(),
  dueAmount: z.number(),
  billDate: z.string(),
  createdAt: z.string(),
});
export type TBillListRow = z.infer<typeof ZBillListRow>;

export const ZBillListPage = z
  .object({
    content: z.array(ZBillListRow),
    totalElements: z.number().int(),
    /** 'gte' when the count stopped at BILL_LIST_COUNT_LIMIT. */
    totalRelation: z.enum(['eq', 'gte']),
    page: z.number().int(),
    size: z.number().int(),
  })
  .meta({ id: 'LabBillListPage' });
export type TBillListPage = z.infer<typeof ZBillListPage>;

// ---- appointments: POST /api/lab/get-all-slot, /api/lab/get-slot ----

/** spec-lab §9: a slot lookup covers at most 8 days per request. */
export const SLOT_LOOKUP_MAX_DAYS = 8;

export const ZSlotRange = z.object({
  startTime: instant('startTime'),
  endTime: instant('endTime'),
});

/** POST /api/lab/get-all-slot: every slot occurrence of the lab in the range. */
export const ZGetAllSlots = ZSlotRange.meta({ id: 'LabGetAllSlots' });
export type TGetAllSlots = z.infer<typeof ZGetAllSlots>;

/** One occurrence of a slot on a day: its window, limit, bookings and whether the day is blocked. */
export const ZSlotOccurrence = z.object({
  appointmentName: z.string(),
  labModality: z.string(),
  /** yyyy-MM-dd in the group's display time zone. */
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  appointmentLimit: z.number().int(),
  booked: z.number().int(),
  /** limit − booked, never below 0 ("Available x / limit"). */
  available: z.number().int(),
  blocked: z.boolean(),
});
export type TSlotOccurrence = z.infer<typeof ZSlotOccurrence>;

export const ZAllSlots = z
  .object({ slots: z.array(ZSlotOccurrence), blockedDays: z.record(z.string(), z.array(z.string())) })
  .meta({ id: 'LabAllSlots' });
export type TAllSlots = z.infer<typeof ZAllSlots>;

/** POST /api/lab/get-slot: bookings of one slot in the range. */
export const ZGetSlot = ZSlotRange.extend({
  appointmentName: z.string().trim().min(1).max(100),
}).meta({ id: 'LabGetSlot' });
export type TGetSlot = z.infer<typeof ZGetSlot>;

/** testCount keyed by slot start time (ISO, as in the occurrences), plus the occurrences themselves. */
export const ZSlotCounts = z
  .object({ testCount: z.record(z.string(), z.number().int()), slots: z.array(ZSlotOccurrence) })
  .meta({ id: 'LabSlotCounts' });
export type TSlotCounts = z.infer<typeof ZSlotCounts>;
