import { z } from 'zod';
import {
  DESK_PAYMENT_MODES,
  PAYMENT_AMOUNT_MAX,
  PAYMENT_CURRENCIES,
  PAYMENT_MODES,
  PAYMENT_REQUEST_STATUSES,
  PROVIDER_PAYMENT_STATUSES,
  STUDY_PAYMENT_STATUSES,
} from './study-payments.js';

/** The API of study payments (apps/server/src/modules/payments/DECISIONS.md). */

export const ZStudyPaymentStatus = z.enum(STUDY_PAYMENT_STATUSES);
export const ZPaymentMode = z.enum(PAYMENT_MODES);

const ZAmount = z
  .number({ error: 'amount must be a number' })
  .positive('amount must be greater than 0')
  .max(PAYMENT_AMOUNT_MAX, `amount must be at most ${PAYMENT_AMOUNT_MAX}`)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'amount has at most 2 decimals');

/** POST /api/report-status/payment/request/{id}: ask for a payment (the provider makes the pay link). */
export const ZRequestPaymentBody = z
  .object({
    amount: ZAmount,
    currency: z.enum(PAYMENT_CURRENCIES).default('INR'),
    /** What the payment is for, shown to the payer. */
    note: z.string().trim().max(200, 'note is at most 200 characters').default(''),
  })
  .meta({ id: 'RequestPaymentBody' });
export type TRequestPaymentBody = z.input<typeof ZRequestPaymentBody>;

/**
 * POST /api/report-status/payment/record/{id}: a payment taken at the desk. With a pending request it
 * settles that request (its amount; `amount`, when given, must match it); without one `amount` is needed.
 */
export const ZRecordDeskPaymentBody = z
  .object({
    mode: z.enum(DESK_PAYMENT_MODES),
    amount: ZAmount.optional(),
    currency: z.enum(PAYMENT_CURRENCIES).default('INR'),
    /** The receipt number or UPI/card transaction id, as the desk noted it. */
    transactionId: z.string().trim().max(60, 'transactionId is at most 60 characters').default(''),
  })
  .meta({ id: 'RecordDeskPaymentBody' });
export type TRecordDeskPaymentBody = z.input<typeof ZRecordDeskPaymentBody>;

/** One payment request of a study (the history). Instants are ISO 8601. */
export const ZStudyPayment = z
  .object({
    id: z.number().int(),
    status: z.enum(PAYMENT_REQUEST_STATUSES),
    mode: ZPaymentMode.nullable(),
    amountMinor: z.number().int(),
    currency: z.string(),
    note: z.string(),
    /** The provider's pay link (online payments); null for a payment recorded at the desk. */
    payUrl: z.string().nullable(),
    providerReference: z.string().nullable(),
    transactionId: z.string(),
    requestedBy: z.string().nullable(),
    paidRecordedBy: z.string().nullable(),
    cancelledBy: z.string().nullable(),
    createdAt: z.string(),
    paidAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
  })
  .meta({ id: 'StudyPayment' });
export type TStudyPayment = z.infer<typeof ZStudyPayment>;

/** GET /api/report-status/payments/{id} and the answer of every payment change. */
export const ZStudyPayments = z
  .object({
    reportStatusId: z.number().int(),
    paymentStatus: ZStudyPaymentStatus,
    paymentMode: ZPaymentMode.nullable(),
    /** Newest first. */
    payments: z.array(ZStudyPayment),
  })
  .meta({ id: 'StudyPayments' });
export type TStudyPayments = z.infer<typeof ZStudyPayments>;

/** The most query parameters a payment-confirm call carries (a provider's callback sends a handful). */
export const PAYMENT_CONFIRM_MAX_PARAMS = 20;

/**
 * POST /api/customer-report/payment-confirm (spec-core §2 Login page, §7): the login page's query
 * parameters (`payment-id` and whatever the provider's return address added) plus password and
 * mobile. Only the provider's answer for `payment-id` decides anything (DECISIONS.md).
 */
export const ZPaymentConfirmRequest = z
  .object({
    'payment-id': z.string().trim().min(1, 'payment-id is required').max(200, 'payment-id is too long'),
    password: z.string().max(200).optional(),
    mobile: z.string().max(20).optional(),
  })
  .catchall(z.string().max(1000, 'a query parameter is too long'))
  .refine((body) => Object.keys(body).length <= PAYMENT_CONFIRM_MAX_PARAMS, 'too many parameters')
  .meta({ id: 'PaymentConfirmRequest' });
export type TPaymentConfirmRequest = z.input<typeof ZPaymentConfirmRequest>;

export const ZPaymentConfirmResponse = z
  .object({ paymentStatus: z.enum(PROVIDER_PAYMENT_STATUSES) })
  .meta({ id: 'PaymentConfirmResponse' });
export type TPaymentConfirmResponse = z.infer<typeof ZPaymentConfirmResponse>;

/** The login page's query parameter that starts the confirmation (spec-core §2). */
export const PAYMENT_ID_PARAM = 'payment-id';

/** A payment due by a viewer account (the payment page lists them). */
export const ZPaymentDue = z
  .object({
    reportStatusId: z.number().int(),
    patientName: z.string(),
    studyName: z.string(),
    amountMinor: z.number().int(),
    currency: z.string(),
    note: z.string(),
    /** The provider's pay link; null when the provider gave none (pay at the desk). */
    payUrl: z.string().nullable(),
    requestedAt: z.string(),
  })
  .meta({ id: 'PaymentDue' });
export type TPaymentDue = z.infer<typeof ZPaymentDue>;

/** What an invoice pay link pays for (modules/invoice-payments). */
export const INVOICE_PAYABLE_KINDS = ['TELE_INVOICE', 'PLATFORM_INVOICE'] as const;
export type TInvoicePayableKind = (typeof INVOICE_PAYABLE_KINDS)[number];

/**
 * POST /api/center-billing/invoices/{id}/pay and /api/group-billing/platform-invoices/{id}/pay: the
 * provider's link for the invoice's outstanding due. `url` null: the provider takes no payment online
 * (pay by bank transfer or UPI; the biller records it).
 */
export const ZInvoicePayLink = z
  .object({ reference: z.string(), url: z.string().nullable(), amount: z.number() })
  .meta({ id: 'InvoicePayLink' });
export type TInvoicePayLink = z.infer<typeof ZInvoicePayLink>;

/**
 * POST /api/invoice-payments/confirm: the invoice page's query parameters after the provider sent
 * the payer back (`payment-id` = our reference, plus the provider's signed parameters).
 */
export const ZInvoicePayConfirmRequest = z
  .object({
    'payment-id': z.string().trim().min(1, 'payment-id is required').max(200, 'payment-id is too long'),
  })
  .catchall(z.string().max(1000, 'a query parameter is too long'))
  .refine((body) => Object.keys(body).length <= PAYMENT_CONFIRM_MAX_PARAMS, 'too many parameters')
  .meta({ id: 'InvoicePayConfirmRequest' });

export const ZInvoicePayConfirm = z
  .object({
    paymentStatus: z.enum(PROVIDER_PAYMENT_STATUSES),
    payable: z.enum(INVOICE_PAYABLE_KINDS),
    invoiceId: z.number().int(),
  })
  .meta({ id: 'InvoicePayConfirm' });
export type TInvoicePayConfirm = z.infer<typeof ZInvoicePayConfirm>;
