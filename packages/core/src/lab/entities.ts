/**
 * The lab front desk's vocabularies (spec-lab §3 entities, §4 states, §9 constants). Money is kept in
 * integer minor units (paise) everywhere below the screens: `money.ts` holds the arithmetic.
 */

export const PATIENT_GENDERS = ['M', 'F', 'O'] as const;
export type TPatientGender = (typeof PATIENT_GENDERS)[number];

export const PATIENT_DESIGNATIONS = ['MR', 'MRS', 'MISS', 'DR', 'Prof', 'B/O', 'Baby', 'MASTER'] as const;
export type TPatientDesignation = (typeof PATIENT_DESIGNATIONS)[number];

export const LAB_TEST_TYPES = ['NORMAL', 'PACKAGE'] as const;
export type TLabTestType = (typeof LAB_TEST_TYPES)[number];

/** spec-lab §9: the department a test gets when none is named. */
export const DEFAULT_LAB_DEPARTMENT = 'RADIOLOGY';

export const BILL_STATUSES = ['SCHEDULED', 'OPEN', 'CANCELLED', 'COMPLETED'] as const;
export type TBillStatus = (typeof BILL_STATUSES)[number];

/** spec-lab §2 billing list and test dashboard tabs: which statuses each shows. */
export const LAB_TABS = {
  Active: ['SCHEDULED', 'OPEN', 'COMPLETED'],
  Scheduled: ['SCHEDULED'],
  All: ['SCHEDULED', 'OPEN', 'CANCELLED', 'COMPLETED'],
} as const satisfies Record<string, readonly TBillStatus[]>;
export type TLabTab = keyof typeof LAB_TABS;

export const SETTLEMENT_STATUSES = ['FULL_PRICE', 'PARTIAL_REFUND', 'FULL_REFUND', 'CANCEL'] as const;
export type TSettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

export const LAB_PAYMENT_METHODS = ['UPI', 'CASH', 'CARD'] as const;
export type TLabPaymentMethod = (typeof LAB_PAYMENT_METHODS)[number];
export const DEFAULT_LAB_PAYMENT_METHOD: TLabPaymentMethod = 'UPI';

export const BILL_CATEGORY_TYPES = ['PATIENT_CATEGORY', 'PRIORITY'] as const;
export type TBillCategoryType = (typeof BILL_CATEGORY_TYPES)[number];

export const LAB_SUMMARY_SORTS = ['DATE_CREATED_AT', 'RECEPTIONIST_NAME', 'PAYMENT_RECORDED_BY'] as const;
export type TLabSummarySort = (typeof LAB_SUMMARY_SORTS)[number];

/** spec-lab §3: report statuses a bill line is filtered by. */
export const LAB_REPORT_STATUSES = ['PENDING', 'CREATED', 'REPORTED', 'DRAFTED', 'SIGNED_OFF'] as const;
export type TLabReportStatus = (typeof LAB_REPORT_STATUSES)[number];

/** spec-lab §9 limits. */
export const LAB_LIMITS = {
  ageYears: 150,
  ageMonths: 11,
  ageDays: 30,
  remarkLength: 255,
  uhidLength: 20,
  ageStringLength: 10,
  discountPercentMax: 100,
  appointmentRangeDays: 31,
  /** Pages of lab searches hold at most this many rows. */
  pageSizeMax: 100,
} as const;
