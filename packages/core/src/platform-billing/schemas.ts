import { z } from 'zod';
import { PAYMENT_AMOUNT_MAX } from '../payments/study-payments.js';
import {
  PERIOD_PATTERN,
  PLAN_KINDS,
  PLATFORM_INVOICE_KINDS,
  PLATFORM_INVOICE_STATUSES,
  PLATFORM_PAYMENT_MODES,
  SUBSCRIPTION_STATUSES,
} from './rules.js';

/** The API of the platform's billing (apps/server/src/modules/platform-billing/DECISIONS.md). Rupees on the wire. */

export const ZPeriod = z.string().regex(PERIOD_PATTERN, 'period must be a month, YYYY-MM');

const ZRupees = z.number();
const ZId = z.coerce.number().int().positive();

export const ZPlatformPlan = z
  .object({
    id: z.number().int(),
    code: z.string(),
    name: z.string(),
    kind: z.enum(PLAN_KINDS),
    monthlyFee: ZRupees,
    includedStudies: z.number().int(),
    perStudyPrice: ZRupees,
    trialDays: z.number().int(),
    currency: z.string(),
    active: z.boolean(),
  })
  .meta({ id: 'PlatformPlan' });
export type TPlatformPlan = z.infer<typeof ZPlatformPlan>;

/** Rupees of a plan's price: 0 or more, at most 2 decimals. */
const ZPlanRupees = z
  .number({ error: 'a price must be a number' })
  .min(0, 'a price must not be negative')
  .max(PAYMENT_AMOUNT_MAX, `a price must be at most ${PAYMENT_AMOUNT_MAX}`)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'a price has at most 2 decimals');

/**
 * A plan's terms as the admin biller edits them (PUT /platform-billing/plans/{planId}). They apply
 * to invoices issued after the change: an issued invoice keeps the terms it copied.
 */
export const ZPlanTermsBody = z
  .object({
    name: z.string().trim().min(1, 'name is required').max(80),
    monthlyFee: ZPlanRupees,
    includedStudies: z.number().int('includedStudies must be a whole number').min(0).max(10_000_000),
    perStudyPrice: ZPlanRupees,
    /** > 0: a trial of this many days (never invoiced); a trial stays a trial, a paid plan stays paid. */
    trialDays: z.number().int('trialDays must be a whole number').min(0).max(366),
    active: z.boolean().default(true),
  })
  .meta({ id: 'PlanTermsBody' });
export type TPlanTermsBody = z.input<typeof ZPlanTermsBody>;

/** POST /platform-billing/plans: a new plan; its code and kind never change afterwards. */
export const ZCreatePlanBody = ZPlanTermsBody.extend({
  code: z
    .string()
    .trim()
    .regex(/^[A-Z][A-Z0-9_]{1,39}$/, 'code is 2 to 40 capital letters, digits or _, starting with a letter'),
  kind: z.enum(PLAN_KINDS),
}).meta({ id: 'CreatePlanBody' });
export type TCreatePlanBody = z.input<typeof ZCreatePlanBody>;

export const ZPlanIdParams = z.object({ planId: ZId });

export const ZPlatformSubscription = z
  .object({
    planCode: z.string(),
    planName: z.string(),
    planKind: z.enum(PLAN_KINDS),
    /** The stored status, or EXPIRED once the paid-through date passed. */
    status: z.enum(SUBSCRIPTION_STATUSES),
    startedAt: z.string(),
    expiresAt: z.string().nullable(),
    version: z.number().int(),
  })
  .meta({ id: 'PlatformSubscription' });
export type TPlatformSubscription = z.infer<typeof ZPlatformSubscription>;

export const ZPlatformGroup = z
  .object({
    groupId: z.number().int(),
    groupName: z.string(),
    createdAt: z.string(),
    subscription: ZPlatformSubscription.nullable(),
    /** Rupees owed on issued invoices. */
    outstanding: ZRupees,
  })
  .meta({ id: 'PlatformGroup' });
export type TPlatformGroup = z.infer<typeof ZPlatformGroup>;

export const ZPlatformOverview = z
  .object({ plans: z.array(ZPlatformPlan), groups: z.array(ZPlatformGroup) })
  .meta({ id: 'PlatformOverview' });
export type TPlatformOverview = z.infer<typeof ZPlatformOverview>;

export const ZGroupIdParams = z.object({ groupId: ZId });
export const ZInvoiceIdParams = z.object({ invoiceId: ZId });

export const ZChangePlanBody = z
  .object({
    planCode: z.string().trim().min(1, 'planCode is required').max(40),
    /** The subscription's version as read; null when the group has none yet. */
    version: z.number().int().positive().nullable(),
  })
  .meta({ id: 'ChangePlanBody' });
export type TChangePlanBody = z.infer<typeof ZChangePlanBody>;

export const ZExtendSubscriptionBody = z
  .object({
    version: z.number().int().positive(),
    months: z.number().int().min(1, 'months must be 1 to 36').max(36, 'months must be 1 to 36'),
  })
  .meta({ id: 'ExtendSubscriptionBody' });
export const ZExpireSubscriptionBody = z
  .object({ version: z.number().int().positive() })
  .meta({ id: 'ExpireSubscriptionBody' });

export const ZPeriodRangeQuery = z
  .object({ from: ZPeriod, to: ZPeriod })
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['from'] });
export type TPeriodRangeQuery = z.infer<typeof ZPeriodRangeQuery>;

export const ZMonthUsage = z.object({
  period: z.string(),
  received: z.number().int(),
  signedOff: z.number().int(),
});
export const ZGroupUsage = ZMonthUsage.extend({ groupId: z.number().int(), groupName: z.string() });
export const ZPlatformUsage = z.object({ rows: z.array(ZGroupUsage) }).meta({ id: 'PlatformUsage' });
export type TPlatformUsage = z.infer<typeof ZPlatformUsage>;

export const ZIssueInvoicesBody = z.object({ period: ZPeriod }).meta({ id: 'IssuePlatformInvoicesBody' });
export const ZIssueInvoicesAnswer = z
  .object({ period: z.string(), issued: z.number().int(), alreadyIssued: z.number().int() })
  .meta({ id: 'IssuePlatformInvoicesAnswer' });
export type TIssueInvoicesAnswer = z.infer<typeof ZIssueInvoicesAnswer>;

export const ZPlatformInvoice = z
  .object({
    id: z.number().int(),
    number: z.string(),
    kind: z.enum(PLATFORM_INVOICE_KINDS),
    groupId: z.number().int(),
    groupName: z.string(),
    period: z.string(),
    planName: z.string(),
    studiesCounted: z.number().int(),
    studiesCharged: z.number().int(),
    fee: ZRupees,
    usage: ZRupees,
    subtotal: ZRupees,
    gstPercent: z.number(),
    gst: ZRupees,
    total: ZRupees,
    paid: ZRupees,
    due: ZRupees,
    status: z.enum(PLATFORM_INVOICE_STATUSES),
    issuedAt: z.string(),
    dueDate: z.string(),
    overdue: z.boolean(),
    /** A credit note: the invoice it corrects. */
    correctsInvoiceId: z.number().int().nullable(),
  })
  .meta({ id: 'PlatformInvoice' });
export type TPlatformInvoice = z.infer<typeof ZPlatformInvoice>;

export const ZPlatformInvoiceQuery = z.object({
  period: ZPeriod.optional(),
  groupId: ZId.optional(),
  overdue: z.enum(['true', 'false']).optional(),
});
export const ZPlatformInvoiceList = z
  .object({ invoices: z.array(ZPlatformInvoice) })
  .meta({ id: 'PlatformInvoiceList' });

const ZAmount = z
  .number({ error: 'amount must be a number' })
  .positive('amount must be greater than 0')
  .max(PAYMENT_AMOUNT_MAX, `amount must be at most ${PAYMENT_AMOUNT_MAX}`)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'amount has at most 2 decimals');

export const ZRecordPlatformPaymentBody = z
  .object({
    groupId: z.number().int().positive(),
    /** The invoice the payment settles (optional: a prepayment only extends the subscription). */
    invoiceId: z.number().int().positive().nullable().default(null),
    amount: ZAmount,
    mode: z.enum(PLATFORM_PAYMENT_MODES),
    reference: z.string().trim().min(1, 'reference is required').max(100),
    provider: z.string().trim().min(1).max(40).default('MANUAL'),
  })
  .meta({ id: 'RecordPlatformPaymentBody' });
export type TRecordPlatformPaymentBody = z.input<typeof ZRecordPlatformPaymentBody>;

export const ZPlatformPayment = z
  .object({
    id: z.number().int(),
    groupId: z.number().int(),
    invoiceId: z.number().int().nullable(),
    amount: ZRupees,
    mode: z.enum(PLATFORM_PAYMENT_MODES),
    reference: z.string(),
    provider: z.string(),
    receivedAt: z.string(),
    recordedBy: z.string(),
    subscription: ZPlatformSubscription.nullable(),
  })
  .meta({ id: 'PlatformPayment' });
export type TPlatformPayment = z.infer<typeof ZPlatformPayment>;
export const ZPlatformPaymentList = z
  .object({ payments: z.array(ZPlatformPayment.omit({ subscription: true })) })
  .meta({ id: 'PlatformPaymentList' });

export const ZPlatformCreditNoteBody = z
  .object({ reason: z.string().trim().min(1, 'reason is required').max(300) })
  .meta({ id: 'PlatformCreditNoteBody' });

export const ZPlatformDashboard = z
  .object({
    from: z.string(),
    to: z.string(),
    revenueByMonth: z.array(z.object({ period: z.string(), invoiced: ZRupees, collected: ZRupees })),
    groupsByPlan: z.array(z.object({ planCode: z.string(), planName: z.string(), groups: z.number().int() })),
    usageByMonth: z.array(ZMonthUsage),
    signUpsByMonth: z.array(z.object({ period: z.string(), groups: z.number().int() })),
    overdue: z.object({ count: z.number().int(), amount: ZRupees, invoices: z.array(ZPlatformInvoice) }),
    expiredGroups: z.number().int(),
  })
  .meta({ id: 'PlatformDashboard' });
export type TPlatformDashboard = z.infer<typeof ZPlatformDashboard>;
