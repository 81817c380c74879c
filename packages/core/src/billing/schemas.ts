import { z } from 'zod';
import { isLedgerRupees } from './money.js';
import {
  BILLING_DOCUMENT_KINDS,
  BILLING_DOCUMENT_STATUSES,
  BILLING_PAYMENT_MODES,
  LINE_CHARGES,
  PRICE_CHARGES,
} from './vocabulary.js';

/*
 * The calls of Manage Tele Pricing and Manage Tele Invoice (issue 26 §1). Amounts on the wire are
 * rupee numbers with at most two decimals; the store and all arithmetic use integer paise.
 */

const DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
export const ZIsoDate = z
  .string({ error: 'a date (YYYY-MM-DD) is required' })
  .regex(DATE_PATTERN, 'a date must be YYYY-MM-DD')
  .refine(
    (d) =>
      !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    'not a calendar date',
  );

const ZRupees = z
  .number({ error: 'amount must be a number' })
  .refine(isLedgerRupees, 'amount must have at most two decimals');
const ZPositiveRupees = ZRupees.refine((n) => n > 0, 'amount must be greater than 0');
const ZPriceRupees = ZRupees.refine((n) => n >= 0, 'amount must not be negative');

export const ZBillingDocumentIdParams = z.object({ id: z.coerce.number().int().positive() });

// ---- Prices ----

export const ZTelePrice = z.object({
  id: z.number().int(),
  centerId: z.number().int().nullable(),
  modality: z.string(),
  studyPart: z.string(),
  charge: z.enum(PRICE_CHARGES),
  amount: z.number(),
  currency: z.string(),
  effectiveFrom: z.string(),
  createdAt: z.string(),
  /** Whether this row is the one in force today for its (list, modality, part, charge). */
  inForce: z.boolean(),
});
export type TTelePrice = z.infer<typeof ZTelePrice>;

export const ZTelePriceListQuery = z.object({
  /** Absent: the group's default list. */
  centerId: z.coerce.number().int().positive().optional(),
});

export const ZTelePriceList = z.object({
  centers: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** The list's rows, newest effective date first (its history); `inForce` marks today's prices. */
  prices: z.array(ZTelePrice),
  /** The group's study types (study parts to choose from). */
  studyParts: z.array(z.string()),
});
export type TTelePriceList = z.infer<typeof ZTelePriceList>;

export const ZAddTelePriceBody = z.object({
  centerId: z.number().int().positive().nullable().default(null),
  modality: z.string().trim().toUpperCase().min(1, 'modality is required').max(16, 'modality is too long'),
  studyPart: z.string().trim().max(200, 'study part is too long').default(''),
  charge: z.enum(PRICE_CHARGES, { error: 'charge must be READ, ADDENDUM or URGENT' }),
  amount: ZPriceRupees,
  effectiveFrom: ZIsoDate,
});
export type TAddTelePriceBody = z.input<typeof ZAddTelePriceBody>;

export const ZCopyDefaultPricesBody = z.object({
  centerId: z.number().int().positive(),
  effectiveFrom: ZIsoDate,
});
export const ZCopyDefaultPricesResult = z.object({ copied: z.number().int() });

// ---- Invoices ----

export const ZAdjustment = z.object({
  /** Signed: a discount is negative. */
  amount: ZRupees.refine((n) => n !== 0, 'an adjustment must not be 0'),
  reason: z.string().trim().min(1, 'an adjustment needs a reason').max(200),
});

const ZPeriod = {
  periodStart: ZIsoDate,
  periodEnd: ZIsoDate,
};
const periodInOrder = (b: { periodStart: string; periodEnd: string }) => b.periodStart <= b.periodEnd;
const PERIOD_ORDER = { message: 'periodEnd must not be before periodStart', path: ['periodEnd'] };

export const ZTeleInvoiceRequest = z
  .object({
    centerId: z.number().int().positive(),
    ...ZPeriod,
    adjustments: z.array(ZAdjustment).max(20).default([]),
    /** Days from issue to the due date. */
    dueDays: z.number().int().min(0).max(365).default(15),
    note: z.string().trim().max(500).default(''),
  })
  .refine(periodInOrder, PERIOD_ORDER);
export type TTeleInvoiceRequest = z.input<typeof ZTeleInvoiceRequest>;

export const ZInvoiceMonthBody = z.object({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month must be YYYY-MM'),
  dueDays: z.number().int().min(0).max(365).default(15),
});

/** Lines grouped by what they charge (the screen and the PDF print these; the ledger keeps one line per study charge). */
export const ZInvoiceLineGroup = z.object({
  charge: z.enum(LINE_CHARGES),
  modality: z.string(),
  studyPart: z.string(),
  description: z.string(),
  quantity: z.number().int(),
  unit: z.number(),
  amount: z.number(),
});
export type TInvoiceLineGroup = z.infer<typeof ZInvoiceLineGroup>;

const ZFigures = {
  subtotal: z.number(),
  adjustment: z.number(),
  taxPercent: z.number(),
  tax: z.number(),
  total: z.number(),
};

export const ZInvoicePreview = z.object({
  centerId: z.number().int(),
  centerName: z.string(),
  ...ZPeriod,
  studyCount: z.number().int(),
  /** Studies signed off in the period with no price for some part (billed for nothing there). */
  unpricedCount: z.number().int(),
  lines: z.array(ZInvoiceLineGroup),
  ...ZFigures,
  currency: z.string(),
});
export type TInvoicePreview = z.infer<typeof ZInvoicePreview>;

export const ZBillingPaymentOut = z.object({
  id: z.number().int(),
  amount: z.number(),
  mode: z.enum(BILLING_PAYMENT_MODES),
  reference: z.string(),
  receivedOn: z.string(),
  createdAt: z.string(),
});

export const ZBillingDocumentSummary = z.object({
  id: z.number().int(),
  kind: z.enum(BILLING_DOCUMENT_KINDS),
  number: z.string(),
  centerId: z.number().int().nullable(),
  centerName: z.string(),
  ...ZPeriod,
  status: z.enum(BILLING_DOCUMENT_STATUSES),
  ...ZFigures,
  paid: z.number(),
  credited: z.number(),
  outstanding: z.number(),
  currency: z.string(),
  dueDate: z.string().nullable(),
  overdue: z.boolean(),
  creditedDocumentId: z.number().int().nullable(),
  issuedAt: z.string(),
  note: z.string(),
  version: z.number().int(),
});
export type TBillingDocumentSummary = z.infer<typeof ZBillingDocumentSummary>;

export const ZBillingDocumentDetail = ZBillingDocumentSummary.extend({
  lines: z.array(ZInvoiceLineGroup),
  payments: z.array(ZBillingPaymentOut),
  creditNotes: z.array(ZBillingDocumentSummary),
  emailedTo: z.array(z.string()),
});
export type TBillingDocumentDetail = z.infer<typeof ZBillingDocumentDetail>;

export const ZBillingDocumentList = z.object({ documents: z.array(ZBillingDocumentSummary) });
export type TBillingDocumentList = z.infer<typeof ZBillingDocumentList>;

export const ZTeleInvoiceListQuery = z.object({
  centerId: z.coerce.number().int().positive().optional(),
  status: z.enum(BILLING_DOCUMENT_STATUSES).optional(),
  kind: z.enum(['TELE_INVOICE', 'CREDIT_NOTE']).optional(),
  /** Documents whose period overlaps [from, to]. */
  from: ZIsoDate.optional(),
  to: ZIsoDate.optional(),
});

export const ZRecordBillingPaymentBody = z.object({
  amount: ZPositiveRupees,
  mode: z.enum(BILLING_PAYMENT_MODES, { error: 'mode must be CASH, UPI, CARD, BANK_TRANSFER or ONLINE' }),
  reference: z.string().trim().max(100).default(''),
  receivedOn: ZIsoDate,
  /** The document's version the screen showed: a stale one is 409. */
  version: z.number().int().positive(),
});
export type TRecordBillingPaymentBody = z.input<typeof ZRecordBillingPaymentBody>;

export const ZCreditNoteBody = z.object({
  /** The taxable amount credited (positive); the credit note adds the invoice's GST on it. */
  amount: ZPositiveRupees,
  reason: z.string().trim().min(1, 'a credit note needs a reason').max(200),
  version: z.number().int().positive(),
});
export type TCreditNoteBody = z.input<typeof ZCreditNoteBody>;

export const ZEmailInvoiceResult = z.object({ sentTo: z.string() });
