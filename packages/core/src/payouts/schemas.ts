import { z } from 'zod';
import { ZAddTelePriceBody, ZBillingPaymentOut, ZIsoDate } from '../billing/schemas.js';
import { BILLING_DOCUMENT_STATUSES, PRICE_CHARGES } from '../billing/vocabulary.js';
import { PAYOUT_MESSAGES as M } from './rules.js';

/*
 * The API of the radiologist's payout (issue 26 §2; apps/server/src/modules/tele-payouts/DECISIONS.md):
 * doctor rates (the DOCTOR side of tele_prices), payout statements (PAYOUT_STATEMENT documents) and
 * the margin over both sides of the one ledger. Amounts are rupee numbers (≤ 2 decimals) on the wire,
 * paise in the store; dates are calendar days (YYYY-MM-DD).
 */

const ZDay = ZIsoDate;

/** A doctor rate as listed (a DOCTOR-side tele_prices row). */
export const ZDoctorRate = z
  .object({
    id: z.number().int(),
    /** null: the group's default doctor rate. */
    doctorUserId: z.number().int().nullable(),
    doctorName: z.string().nullable(),
    modality: z.string(),
    /** '' = the modality's base rate. */
    studyPart: z.string(),
    charge: z.enum(PRICE_CHARGES),
    amount: z.number(),
    effectiveFrom: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'DoctorRate' });
export type TDoctorRate = z.infer<typeof ZDoctorRate>;

export const ZDoctorRateList = z
  .object({
    rates: z.array(ZDoctorRate),
    /** The group's doctors (ROLE_DOCTOR users), for the rate form and the statements. */
    doctors: z.array(z.object({ id: z.number().int(), name: z.string(), email: z.string() })),
  })
  .meta({ id: 'DoctorRateList' });
export type TDoctorRateList = z.infer<typeof ZDoctorRateList>;

/** GET /api/tele-payout/rates?doctorUserId= : one doctor's own rates with the defaults (none: all). */
export const ZDoctorRateQuery = z.object({ doctorUserId: z.coerce.number().int().positive().optional() });

/** POST /api/tele-payout/rates: a new rate (a change is a new row with a later effectiveFrom). */
export const ZAddDoctorRateBody = ZAddTelePriceBody.omit({ centerId: true })
  .extend({ doctorUserId: z.number().int().positive().nullable() })
  .meta({ id: 'AddDoctorRateBody' });
export type TAddDoctorRateBody = z.input<typeof ZAddDoctorRateBody>;

/** The period of a payout run: calendar days, both included. */
export const ZPayoutPeriodBody = z
  .object({
    periodStart: ZDay,
    periodEnd: ZDay,
    /** One doctor only (none: every doctor of the group with charges). */
    doctorUserId: z.number().int().positive().optional(),
  })
  .refine((b) => b.periodStart <= b.periodEnd, { message: M.badPeriod, path: ['periodEnd'] })
  .meta({ id: 'PayoutPeriodBody' });
export type TPayoutPeriodBody = z.input<typeof ZPayoutPeriodBody>;

/** A line of a statement or a preview: one charge of one study row. */
export const ZPayoutLine = z
  .object({
    reportStatusId: z.number().int(),
    reportId: z.number().int().nullable(),
    charge: z.enum(PRICE_CHARGES),
    modality: z.string(),
    studyPart: z.string(),
    patientName: z.string(),
    /** The day the charge arose (the read's first sign-off, the addendum's signature). */
    chargedOn: z.string(),
    amount: z.number(),
  })
  .meta({ id: 'PayoutLine' });
export type TPayoutLine = z.infer<typeof ZPayoutLine>;

const ZCounts = z.object({ reads: z.number().int(), addenda: z.number().int(), urgent: z.number().int() });

/** One doctor's charges of a preview (nothing stored). */
export const ZPayoutPreviewDoctor = z.object({
  doctorUserId: z.number().int(),
  doctorName: z.string(),
  counts: ZCounts,
  total: z.number(),
  lines: z.array(ZPayoutLine),
});

export const ZPayoutPreview = z
  .object({
    periodStart: z.string(),
    periodEnd: z.string(),
    doctors: z.array(ZPayoutPreviewDoctor),
    /** Charges that have no rate in force (not billed until a rate is added). */
    unpriced: z.number().int(),
    total: z.number(),
  })
  .meta({ id: 'PayoutPreview' });
export type TPayoutPreview = z.infer<typeof ZPayoutPreview>;

export const ZPayoutStatement = z
  .object({
    id: z.number().int(),
    number: z.string(),
    doctorUserId: z.number().int(),
    doctorName: z.string(),
    periodStart: z.string(),
    periodEnd: z.string(),
    status: z.enum(BILLING_DOCUMENT_STATUSES),
    counts: ZCounts,
    total: z.number(),
    paid: z.number(),
    due: z.number(),
    issuedAt: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'PayoutStatement' });
export type TPayoutStatement = z.infer<typeof ZPayoutStatement>;

export const ZPayoutStatementDetail = ZPayoutStatement.extend({
  lines: z.array(ZPayoutLine),
  payments: z.array(ZBillingPaymentOut),
}).meta({ id: 'PayoutStatementDetail' });
export type TPayoutStatementDetail = z.infer<typeof ZPayoutStatementDetail>;

export const ZPayoutIssueResult = z
  .object({
    /** The statements this run made (a re-run makes none for charges already on a statement). */
    issued: z.array(ZPayoutStatement),
    unpriced: z.number().int(),
  })
  .meta({ id: 'PayoutIssueResult' });
export type TPayoutIssueResult = z.infer<typeof ZPayoutIssueResult>;

export const ZPayoutStatementList = z
  .object({ statements: z.array(ZPayoutStatement) })
  .meta({ id: 'PayoutStatementList' });
export type TPayoutStatementList = z.infer<typeof ZPayoutStatementList>;

export const ZPayoutStatementListQuery = z.object({
  doctorUserId: z.coerce.number().int().positive().optional(),
});

export const ZPayoutStatementParams = z.object({ id: z.coerce.number().int().positive() });

export const ZMarginQuery = z
  .object({ from: ZDay, to: ZDay })
  .refine((q) => q.from <= q.to, { message: M.badPeriod, path: ['to'] });

const ZMarginRow = z.object({
  key: z.string(),
  label: z.string(),
  /** Study rows signed off in the period. */
  studies: z.number().int(),
  invoiced: z.number(),
  paidOut: z.number(),
  margin: z.number(),
});
export type TMarginRow = z.infer<typeof ZMarginRow>;

export const ZMarginReport = z
  .object({
    from: z.string(),
    to: z.string(),
    byCenter: z.array(ZMarginRow),
    byDoctor: z.array(ZMarginRow),
    byModality: z.array(ZMarginRow),
    total: ZMarginRow,
    /** Rows read in the period with no read on a center invoice yet / on no payout statement yet. */
    notInvoiced: z.number().int(),
    notPaidOut: z.number().int(),
    /** Adjustments and credit notes (pre-tax; credits negative) of the invoices of periods within [from, to]: whole-invoice amounts, outside the per-row margin. */
    centerAdjustments: z.number(),
  })
  .meta({ id: 'MarginReport' });
export type TMarginReport = z.infer<typeof ZMarginReport>;
