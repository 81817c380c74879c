import { z } from 'zod';
import { ZPageResponse } from '../common/schemas.js';
import type { TReportStatus } from '../worklist/statuses.js';
import { ALL_LAB_MODALITIES } from '../studies/upload-schemas.js';
import {
  BILL_STATUSES,
  LAB_TABS,
  LAB_LIMITS,
  LAB_REPORT_STATUSES,
  type TBillStatus,
  type TLabReportStatus,
} from './entities.js';

/**
 * The test-level dashboard (spec-lab §2 /lab/lab-bill-test, §3 RIS row, §7 POST
 * /api/lab/lab-bill-test/search): one row per bill line with its report's status.
 */

/**
 * A line's report status in the lab's words (spec-lab §3: PENDING, CREATED, REPORTED, DRAFTED,
 * SIGNED_OFF) from the linked study's report row: no study yet (or a deleted one) is PENDING; a
 * row not yet reported (created, history sent, locked by a doctor) is CREATED; REPORTED, DRAFTED and
 * SIGNED_OFF are themselves.
 */
export function labReportStatusOf(status: TReportStatus | null | undefined): TLabReportStatus {
  switch (status) {
    case 'CREATED':
    case 'HISTORY_CREATED':
    case 'LOCKED':
      return 'CREATED';
    case 'REPORTED':
    case 'DRAFTED':
    case 'SIGNED_OFF':
      return status;
    default:
      return 'PENDING';
  }
}

/**
 * The report statuses of the study rows behind each lab status (the inverse of
 * {@link labReportStatusOf}, PENDING aside: it is also "no study").
 */
export const REPORT_STATUSES_OF_LAB_STATUS: Readonly<Record<TLabReportStatus, readonly TReportStatus[]>> = {
  PENDING: ['DELETED'],
  CREATED: ['CREATED', 'HISTORY_CREATED', 'LOCKED'],
  REPORTED: ['REPORTED'],
  DRAFTED: ['DRAFTED'],
  SIGNED_OFF: ['SIGNED_OFF'],
};

/**
 * The bill statuses a search shows (spec-lab §2 tabs): `scheduled` the Scheduled tab (SCHEDULED
 * only), `cancelled` the All tab (cancelled bills and cancelled lines too), neither the Active tab.
 */
export function billStatusesOfFilter(filter: {
  scheduled?: boolean;
  cancelled?: boolean;
}): readonly TBillStatus[] {
  if (filter.scheduled) return LAB_TABS.Scheduled;
  if (filter.cancelled) return LAB_TABS.All;
  return LAB_TABS.Active;
}

const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/, 'Dates are yyyy-MM-dd or yyyy-MM-dd HH:mm:ss');

export const ZLabBillTestSearchRequest = z
  .object({
    /** The All tab: cancelled bills and cancelled lines are shown too. */
    cancelled: z.boolean().optional().default(false),
    /** The Scheduled tab: SCHEDULED bills only. */
    scheduled: z.boolean().optional().default(false),
    /** Bill date from (a day of the group's display time zone, inclusive). */
    startTime: day.nullish(),
    /** Bill date to (inclusive day, or an exact time). */
    endTime: day.nullish(),
    /** Report statuses (spec-lab §3); empty: all. */
    statuses: z
      .array(z.enum(LAB_REPORT_STATUSES, { error: 'Unknown report status' }))
      .max(5)
      .optional()
      .default([]),
    /** The line's modality; empty: all. */
    modality: z.union([z.enum(ALL_LAB_MODALITIES, { error: 'Unknown modality' }), z.literal('')]).nullish(),
    page: z.number().int().min(0).default(0),
    size: z.number().int().min(1).max(LAB_LIMITS.pageSizeMax).default(20),
    sortOrder: z.enum(['ASC', 'DESC']).default('DESC'),
  })
  .meta({ id: 'LabBillTestSearchRequest' });
export type TLabBillTestSearchRequest = z.input<typeof ZLabBillTestSearchRequest>;

/** spec-lab §3 RIS row (money in rupees, as on every lab wire). */
export const ZRisRow = z
  .object({
    id: z.number().int(),
    labBillingId: z.number().int(),
    labBillingStatus: z.enum(BILL_STATUSES),
    statusOfReport: z.enum(LAB_REPORT_STATUSES),
    reportStatusId: z.number().int().nullable(),
    studyInstanceId: z.string().nullable(),
    invoiceNumber: z.string(),
    labTestId: z.number().int(),
    testCode: z.string(),
    testName: z.string(),
    labModality: z.string(),
    accessionNumber: z.string(),
    settlementStatus: z.string(),
    uploadedThroughWorkList: z.boolean(),
    billDate: z.string(),
    startTimeOfAppointment: z.string().nullable(),
    patient: z.object({
      id: z.number().int(),
      uhidNumber: z.string(),
      name: z.string(),
      mobileNumber: z.string().nullable(),
      gender: z.string(),
      ageString: z.string(),
    }),
    referringDoctor: z.object({ name: z.string(), mobileNumber: z.string().nullable() }).nullable(),
    labBillCategories: z.array(z.object({ name: z.string(), type: z.string(), discount: z.number() })),
    dueAmount: z.number(),
  })
  .meta({ id: 'RisRow' });
export type TRisRow = z.infer<typeof ZRisRow>;

export const ZRisPage = ZPageResponse(ZRisRow).meta({ id: 'RisPage' });
export type TRisPage = z.infer<typeof ZRisPage>;
