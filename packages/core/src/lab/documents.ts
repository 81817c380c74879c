import { z } from 'zod';
import { ZPageResponse } from '../common/schemas.js';
import { SUMMARY_MESSAGES } from '../summaries/range.js';
import {
  BILL_STATUSES,
  LAB_LIMITS,
  LAB_PAYMENT_METHODS,
  LAB_SUMMARY_SORTS,
  type TLabSummarySort,
} from './entities.js';

/**
 * The lab's documents and summaries (spec-lab §2 /lab/summary and the print-option chooser, §5
 * "Downloads need both start and end dates", §6 supervisor, §7 the summary and print calls, §8
 * loading and error messages). Rules the screen and the server share live here; the server module
 * is apps/server/src/modules/lab-documents (its DECISIONS.md).
 */

/** Every message of the summary screen and the print calls, word for word where the spec has one. */
export const LAB_DOCUMENT_MESSAGES = {
  /** spec-lab §5 and §8: a download (or search) without both dates. */
  selectDate: SUMMARY_MESSAGES.selectDate,
  /** spec-lab §8: the bill or slip PDF could not be opened. */
  errorDownloadingPdf: 'Error downloading PDF',
  downloadingCsv: 'Downloading csv',
  downloadingPdf: 'Downloading pdf',
  downloadingTestsExcel: 'Downloading tests excel',
  /** spec-lab §6: the receptionist picker begins with it. */
  allReceptionists: 'All Receptionists',
  /** spec-lab §8 empty state of a bill's payments. */
  noTransactions: 'No Transactions Yet',
  /** Printed across a cancelled bill (issue 25 §5). */
  cancelled: 'CANCELLED',
  /** A receptionist may not filter by, or list, other receptionists; nor download the tests Excel. */
  supervisorOnly: 'Only a lab supervisor may do this',
  /** The AMU PDF outside amuSpecialCustomization. */
  amuOff: 'The AMU summary is not enabled for this group',
  /** The summary PDF outside enableSummaryPdfRIS. */
  summaryPdfOff: 'The summary PDF is not enabled for this group',
  /** An appointment slip for a bill none of whose tests has an appointment. */
  noAppointment: 'This bill has no appointment',
} as const;

// ---- the print-option chooser (spec-lab §2 dialogs: invoice only, appointment slip only, both, cancel) ----

export const PRINT_OPTIONS = ['INVOICE', 'APPOINTMENT_SLIP', 'BOTH'] as const;
export type TPrintOption = (typeof PRINT_OPTIONS)[number];
export const PRINT_OPTION_LABELS: Readonly<Record<TPrintOption, string>> = {
  INVOICE: 'Invoice only',
  APPOINTMENT_SLIP: 'Appointment slip only',
  BOTH: 'Both',
};
export type TPrintDocument = 'INVOICE' | 'APPOINTMENT_SLIP';

/**
 * A bill line the appointment slip lists: booked (it has a start) and not cancelled. The server's
 * slip and the chooser's options read this one rule.
 */
export function isAppointmentLine(line: {
  startTimeOfAppointment: unknown;
  settlementStatus: string;
}): boolean {
  return line.startTimeOfAppointment != null && line.settlementStatus !== 'CANCEL';
}

/** The chooser's options for a bill: the appointment slip only when a line has an appointment. */
export function printOptionsOf(
  lines: readonly { startTimeOfAppointment: unknown; settlementStatus: string }[],
): readonly TPrintOption[] {
  return lines.some(isAppointmentLine) ? PRINT_OPTIONS : ['INVOICE'];
}

/** The documents a chosen option opens, invoice first. */
export function documentsOfPrintOption(option: TPrintOption): TPrintDocument[] {
  if (option === 'BOTH') return ['INVOICE', 'APPOINTMENT_SLIP'];
  return [option];
}

/** The address of each document of a bill (spec-lab §2: /api/lab/bill/print/{id} in a new tab). */
export function labDocumentPath(document: TPrintDocument, billId: number): string {
  return document === 'INVOICE'
    ? `/api/lab/bill/print/${billId}`
    : `/api/lab/appointment-slip/print/${billId}`;
}

// ---- GST (BILLING_DETAILS gst percentage) ----

export interface TGstSplit {
  /** The amount before tax. */
  taxableMinor: number;
  /** The tax inside the amount; cgst + sgst = gst. */
  gstMinor: number;
  cgstMinor: number;
  sgstMinor: number;
}

/**
 * The GST inside an amount that includes it. Lab prices are what the patient pays (the bill's Net
 * Payable is the stored final amount; Indian retail prices include GST), so the invoice shows the
 * tax contained in the final amount: taxable = final × 100 / (100 + rate), rounded to the paisa;
 * GST = final − taxable; split half CGST, half SGST (an intra-state supply), the odd paisa to CGST.
 * A rate of 0 (no GST set) gives no tax.
 */
export function gstSplit(amountMinor: number, percentage: number): TGstSplit {
  if (!(percentage > 0) || amountMinor <= 0) {
    return { taxableMinor: Math.max(amountMinor, 0), gstMinor: 0, cgstMinor: 0, sgstMinor: 0 };
  }
  const taxableMinor = Math.round((amountMinor * 100) / (100 + percentage));
  const gstMinor = amountMinor - taxableMinor;
  const sgstMinor = Math.floor(gstMinor / 2);
  return { taxableMinor, gstMinor, cgstMinor: gstMinor - sgstMinor, sgstMinor };
}

/** ₹ amount of paise as the documents print it: '₹1,234.50' (Indian digit grouping). */
export function formatRupees(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  const text = (abs / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${sign}₹${text}`;
}

// ---- the lab summary (spec-lab §2 /lab/summary, §6, §7) ----

export const LAB_SUMMARY_SORT_LABELS: Readonly<Record<TLabSummarySort, string>> = {
  DATE_CREATED_AT: 'Created at',
  RECEPTIONIST_NAME: 'Receptionist',
  PAYMENT_RECORDED_BY: 'Payment recorded by',
};

/**
 * POST /api/lab/summary/search and the downloads' body. `startTime` and `endTime` are days
 * (yyyy-MM-dd) of the group's display time zone, the end included (the summaries' rule, at most
 * 180 days); a missing one is a 400 'Please select date'. `receptionistName` (a supervisor only):
 * the e-mail or name of the lab user who created the bills, as GET /api/lab/get-lab-users lists them;
 * empty = all. `scheduled`: true = appointments (SCHEDULED bills) only, false = the other bills.
 */
export const ZLabSummaryRequest = z
  .object({
    startTime: z.string().max(32).nullish(),
    endTime: z.string().max(32).nullish(),
    sortType: z.enum(LAB_SUMMARY_SORTS).default('DATE_CREATED_AT'),
    sortOrder: z.enum(['ASC', 'DESC']).default('DESC'),
    receptionistName: z.string().trim().max(200).nullish(),
    scheduled: z.boolean().default(false),
    page: z.number().int().min(0).default(0),
    size: z.number().int().min(1).max(LAB_LIMITS.pageSizeMax).default(20),
  })
  .meta({ id: 'LabSummaryRequest' });
export type TLabSummaryRequest = z.input<typeof ZLabSummaryRequest>;

/** POST /api/lab/summary/amu-summary-pdf: only the days. */
export const ZLabAmuSummaryRequest = z
  .object({ startTime: z.string().max(32).nullish(), endTime: z.string().max(32).nullish() })
  .meta({ id: 'LabAmuSummaryRequest' });

export const ZLabSummaryTransaction = z.object({
  paymentMethod: z.enum(LAB_PAYMENT_METHODS),
  transactionId: z.string().nullable(),
  amount: z.number(),
  recordedBy: z.string(),
  recordedByName: z.string(),
  recordedAt: z.string(),
});
export type TLabSummaryTransaction = z.infer<typeof ZLabSummaryTransaction>;

export const ZLabSummaryRow = z.object({
  id: z.number().int(),
  invoiceNumber: z.string(),
  status: z.enum(BILL_STATUSES),
  billDate: z.string(),
  createdAt: z.string(),
  patientName: z.string(),
  uhidNumber: z.string(),
  receptionistEmail: z.string(),
  receptionistName: z.string(),
  /** The tests as the billing list shows them: 'CT: CT01 CT Head (1500)'. */
  tests: z.array(z.string()),
  totalAmount: z.number(),
  discountAmount: z.number(),
  finalAmount: z.number(),
  advancePaid: z.number(),
  dueAmount: z.number(),
  labTransactions: z.array(ZLabSummaryTransaction),
});
export type TLabSummaryRow = z.infer<typeof ZLabSummaryRow>;

/** The range's sums over bills that are not cancelled (a cancelled bill collects nothing). */
export const ZLabSummaryTotals = z.object({
  bills: z.number().int(),
  totalAmount: z.number(),
  discountAmount: z.number(),
  finalAmount: z.number(),
  advancePaid: z.number(),
  dueAmount: z.number(),
});
export type TLabSummaryTotals = z.infer<typeof ZLabSummaryTotals>;

export const ZLabSummaryPage = ZPageResponse(ZLabSummaryRow)
  .extend({ totals: ZLabSummaryTotals })
  .meta({ id: 'LabSummaryPage' });
export type TLabSummaryPage = z.infer<typeof ZLabSummaryPage>;

/** GET /api/lab/get-lab-users: the lab's users who make bills (receptionists and supervisors). */
export const ZLabUser = z.object({ id: z.number().int(), name: z.string(), email: z.string() });
export type TLabUser = z.infer<typeof ZLabUser>;
export const ZLabUsers = z.array(ZLabUser).meta({ id: 'LabUsers' });

/** A test line as the billing list and the summary show it (spec-lab §2: modality: code name (price)). */
export function billTestLabel(line: {
  labModality: string;
  testCode: string;
  testName: string;
  price: number;
}) {
  return `${line.labModality}: ${line.testCode} ${line.testName} (${line.price})`;
}
