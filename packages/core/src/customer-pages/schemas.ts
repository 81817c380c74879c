import { z } from 'zod';
import { MOBILE_PATTERN } from '../common/validation.js';
import { STUDY_PAYMENT_STATUSES } from '../payments/study-payments.js';
import { REPORT_STATUSES } from '../worklist/statuses.js';

/** The API of the patient's page and the center customer's patient page (customer-pages module). */

/** A pending payment of the customer's study: rupees (major units, ≤ 2 decimals) on the wire. */
export const ZCustomerReportPayment = z
  .object({
    status: z.enum(STUDY_PAYMENT_STATUSES),
    /** The open request's amount; null unless PENDING. */
    amount: z.number().nullable(),
    currency: z.string().nullable(),
    note: z.string().nullable(),
    /** The provider's pay link of the open request; null when none (pay at the center). */
    payUrl: z.string().nullable(),
  })
  .meta({ id: 'CustomerReportPayment' });

/** GET /api/customer-report/reports: one signed-off study of the signed-in patient. */
export const ZCustomerReport = z
  .object({
    reportStatusId: z.number().int(),
    studyInstanceUid: z.string(),
    patientName: z.string(),
    studyName: z.string(),
    modality: z.string(),
    /** yyyy-MM-dd, '' when the study has no date. */
    studyDate: z.string(),
    center: z.string(),
    signedOffAt: z.string().nullable(),
    hasImages: z.boolean(),
    payment: ZCustomerReportPayment,
    /** False while a payment is pending: the PDF and the images answer 402 until it is paid. */
    canDownload: z.boolean(),
  })
  .meta({ id: 'CustomerReport' });
export type TCustomerReport = z.infer<typeof ZCustomerReport>;

export const ZCustomerReports = z
  .object({ reports: z.array(ZCustomerReport) })
  .meta({ id: 'CustomerReports' });
export type TCustomerReports = z.infer<typeof ZCustomerReports>;

/** GET /api/manage-patient/patients?search= (patient name, id or mobile; blank: all, newest first). */
export const ZCenterPatientsQuery = z.object({
  search: z.string().trim().max(100, 'search is at most 100 characters').default(''),
});

/** One study of the center customer's center, with what was sent to the patient. */
export const ZCenterPatient = z
  .object({
    reportStatusId: z.number().int(),
    studyInstanceUid: z.string(),
    patientName: z.string(),
    patientId: z.string(),
    studyName: z.string(),
    modality: z.string(),
    studyDate: z.string(),
    status: z.enum(REPORT_STATUSES),
    isSignedOff: z.boolean(),
    mobileNumber: z.string().nullable(),
    /** Messages (SMS, WhatsApp, e-mail) recorded for the study, and the newest one's time. */
    sentCount: z.number().int(),
    lastSentAt: z.string().nullable(),
  })
  .meta({ id: 'CenterPatient' });
export type TCenterPatient = z.infer<typeof ZCenterPatient>;

export const ZCenterPatients = z
  .object({ patients: z.array(ZCenterPatient), limit: z.number().int() })
  .meta({ id: 'CenterPatients' });
export type TCenterPatients = z.infer<typeof ZCenterPatients>;

/**
 * POST /api/manage-patient/mobile/{id}: correct the patient's mobile. `previousMobileNumber` is
 * what the screen showed (null: none): a row changed meanwhile is 409, never overwritten.
 */
export const ZCorrectMobileBody = z
  .object({
    mobileNumber: z
      .string()
      .trim()
      .regex(MOBILE_PATTERN, 'mobileNumber must be 10 digits starting with 6, 7, 8 or 9'),
    previousMobileNumber: z.string().nullable(),
  })
  .meta({ id: 'CorrectMobileBody' });
export type TCorrectMobileBody = z.input<typeof ZCorrectMobileBody>;

export const ZCorrectMobileResponse = z
  .object({ reportStatusId: z.number().int(), mobileNumber: z.string() })
  .meta({ id: 'CorrectMobileResponse' });
