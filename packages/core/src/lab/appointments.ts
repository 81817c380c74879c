import { z } from 'zod';
import { DEFAULT_DISPLAY_TIME_ZONE } from '../display/display-time.js';
import {
  SUMMARY_MESSAGES,
  daysInRange,
  isCalendarDay,
  nextCalendarDay,
  summaryRangeInstants,
} from '../summaries/range.js';
import { BILL_STATUSES, LAB_LIMITS, LAB_REPORT_STATUSES, type TBillStatus } from './entities.js';

/**
 * The appointment views of the front desk (spec-lab §2 "appointment cards view for today", §3
 * Appointment data, §4 appointment states, §5 the summary's custom range, §8 messages, §9 the
 * default time filter). An appointment is a live bill line holding a slot window: the line is not
 * cancelled (settlement CANCEL) and its bill is not CANCELLED, the same lines that hold a seat.
 */

export const APPOINTMENT_MESSAGES = {
  loading: 'Loading appointments...',
  fetching: 'Fetching all appointments',
  noSlots: 'No appointment slots for selected time ranges',
  noSummaryData: 'No appointment data found for the selected date range.',
  customRangeRequiresDates: 'Custom range requires start and end dates',
  customRangeTooLong: `Custom range must not be more than ${LAB_LIMITS.appointmentRangeDays} days`,
} as const;

// ---- the state of an appointment ----

/** spec-lab §4: scheduled (the bill is not yet generated), paid (fully), or partially paid. */
export const APPOINTMENT_STATES = ['SCHEDULED', 'PAID', 'PARTIALLY_PAID'] as const;
export type TAppointmentState = (typeof APPOINTMENT_STATES)[number];
export const APPOINTMENT_STATE_LABELS: Readonly<Record<TAppointmentState, string>> = {
  SCHEDULED: 'Scheduled',
  PAID: 'Paid',
  PARTIALLY_PAID: 'Partially paid',
};

/**
 * The spec's two flags of an appointment from its bill: `scheduled` is the bill's SCHEDULED status
 * (lab-bills DECISIONS.md: an appointment booked with nothing paid, the bill not yet generated);
 * `paid` is nothing left due.
 */
export function appointmentFlagsOf(bill: { status: TBillStatus; dueMinor: number }): {
  scheduled: boolean;
  paid: boolean;
} {
  return { scheduled: bill.status === 'SCHEDULED', paid: bill.dueMinor <= 0 };
}

/**
 * spec-lab §4: "An appointment is a bill not yet generated while scheduled is true; paid means fully
 * paid; not scheduled and not paid means partially paid." Scheduled comes first: a scheduled bill of
 * nothing due (a free test) is still not generated, so it is not yet "paid".
 */
export function appointmentStateOf(flags: { scheduled: boolean; paid: boolean }): TAppointmentState {
  if (flags.scheduled) return 'SCHEDULED';
  return flags.paid ? 'PAID' : 'PARTIALLY_PAID';
}

// ---- POST /api/lab/appointments/search ----

const instant = (field: string) =>
  z.iso.datetime({ offset: true, error: `${field} must be a date and time (ISO 8601)` });

/**
 * The appointments whose window starts in [startTime, endTime) (at most 31 days), optionally of one
 * slot name or one modality.
 */
export const ZAppointmentSearch = z
  .object({
    startTime: instant('startTime'),
    endTime: instant('endTime'),
    appointmentName: z.string().trim().min(1).max(100).nullish(),
    modality: z.string().trim().min(1).max(20).nullish(),
  })
  .meta({ id: 'LabAppointmentSearch' });
export type TAppointmentSearch = z.infer<typeof ZAppointmentSearch>;

/** One appointment (spec-lab §3 Appointment data) with what its card shows. */
export const ZAppointment = z.object({
  /** The bill line's id. */
  id: z.number().int(),
  billId: z.number().int(),
  invoiceNumber: z.string(),
  billStatus: z.enum(BILL_STATUSES),
  appointmentName: z.string(),
  labModality: z.string(),
  startTimeOfAppointment: z.string(),
  endTimeOfAppointment: z.string(),
  scheduled: z.boolean(),
  paid: z.boolean(),
  state: z.enum(APPOINTMENT_STATES),
  statusOfReport: z.enum(LAB_REPORT_STATUSES),
  uploadedThroughWorkList: z.boolean(),
  patientName: z.string(),
  uhidNumber: z.string(),
  mobileNumber: z.string().nullable(),
  testCode: z.string(),
  testName: z.string(),
  /** The bill's due, rupees. */
  dueAmount: z.number(),
});
export type TAppointment = z.infer<typeof ZAppointment>;

export const ZAppointmentList = z
  .object({ appointments: z.array(ZAppointment) })
  .meta({ id: 'LabAppointmentList' });
export type TAppointmentList = z.infer<typeof ZAppointmentList>;

/** The problem of a search range, or null: end after start, at most 31 days. */
export function appointmentSearchProblem(range: { startTime: string; endTime: string }): string | null {
  const from = Date.parse(range.startTime);
  const to = Date.parse(range.endTime);
  if (!(to > from)) return 'endTime must be after startTime';
  if (to - from > LAB_LIMITS.appointmentRangeDays * 86_400_000)
    return APPOINTMENT_MESSAGES.customRangeTooLong;
  return null;
}

// ---- the cards: grouping and the time filter ----

/** spec-lab §2: cards are grouped by appointment name, by modality under amuSpecialCustomization. */
export type TAppointmentGrouping = 'appointmentName' | 'labModality';

export function appointmentGroupingOf(flags: { amuSpecialCustomization: boolean }): TAppointmentGrouping {
  return flags.amuSpecialCustomization ? 'labModality' : 'appointmentName';
}

/** The groups in order of their first appointment's start (then name), each in start order. */
export function groupAppointments<
  T extends Pick<TAppointment, 'appointmentName' | 'labModality' | 'startTimeOfAppointment' | 'id'>,
>(appointments: readonly T[], by: TAppointmentGrouping): { key: string; appointments: T[] }[] {
  const sorted = [...appointments].sort(
    (a, b) => Date.parse(a.startTimeOfAppointment) - Date.parse(b.startTimeOfAppointment) || a.id - b.id,
  );
  const groups = new Map<string, T[]>();
  for (const a of sorted) groups.set(a[by], [...(groups.get(a[by]) ?? []), a]);
  return [...groups].map(([key, list]) => ({ key, appointments: list }));
}

/** A slot window as the filter names it: the slot and the instant its window starts. */
export interface TSlotWindowRef {
  appointmentName: string;
  startTime: string;
  endTime: string;
}

export const slotWindowKey = (w: { appointmentName: string; startTime: string }) =>
  `${w.appointmentName}@${new Date(w.startTime).toISOString()}`;

/** spec-lab §9: the default time filter is the slot windows covering the current time. */
export function windowsCovering<T extends TSlotWindowRef>(windows: readonly T[], now: Date): T[] {
  const at = now.getTime();
  return windows.filter((w) => Date.parse(w.startTime) <= at && at < Date.parse(w.endTime));
}

/** The appointments booked in the chosen windows (an appointment holds exactly one window). */
export function inWindows<T extends Pick<TAppointment, 'appointmentName' | 'startTimeOfAppointment'>>(
  appointments: readonly T[],
  windows: readonly TSlotWindowRef[],
): T[] {
  const keys = new Set(windows.map(slotWindowKey));
  return appointments.filter((a) =>
    keys.has(slotWindowKey({ appointmentName: a.appointmentName, startTime: a.startTimeOfAppointment })),
  );
}

// ---- the Detailed Summary ----

export const APPOINTMENT_DATE_TYPES = ['TODAY', 'TOMORROW', 'YESTERDAY', 'CUSTOM'] as const;
export type TAppointmentDateType = (typeof APPOINTMENT_DATE_TYPES)[number];
export const APPOINTMENT_DATE_TYPE_LABELS: Readonly<Record<TAppointmentDateType, string>> = {
  TODAY: 'Today',
  TOMORROW: 'Tomorrow',
  YESTERDAY: 'Yesterday',
  CUSTOM: 'By Custom Range',
};

const DAY_MS = 86_400_000;
const previousCalendarDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) - DAY_MS).toISOString().slice(0, 10);

const day = (field: string) =>
  z.string().trim().refine(isCalendarDay, `${field} must be a date (yyyy-MM-dd)`).nullish();

/** POST /api/lab/appointments/summary: a date type; the custom range's days are yyyy-MM-dd in the group's zone. */
export const ZAppointmentSummaryRequest = z
  .object({
    dateType: z.enum(APPOINTMENT_DATE_TYPES).default('TODAY'),
    startDate: day('startDate'),
    endDate: day('endDate'),
  })
  .meta({ id: 'LabAppointmentSummaryRequest' });
export type TAppointmentSummaryRequest = z.input<typeof ZAppointmentSummaryRequest>;

export type TAppointmentDaysResult =
  | { ok: true; startDay: string; endDay: string }
  | { ok: false; field: 'startDate' | 'endDate'; message: string };

/**
 * The days a summary covers: today, tomorrow or yesterday of `today` (the group zone's calendar day),
 * or the custom range, both ends required and at most 31 days (spec-lab §5, both messages word for
 * word). The screen checks with it before asking; the server refuses with the same message.
 */
export function appointmentSummaryDays(
  request: { dateType: TAppointmentDateType; startDate?: string | null; endDate?: string | null },
  today: string,
): TAppointmentDaysResult {
  switch (request.dateType) {
    case 'TODAY':
      return { ok: true, startDay: today, endDay: today };
    case 'TOMORROW': {
      const tomorrow = nextCalendarDay(today);
      return { ok: true, startDay: tomorrow, endDay: tomorrow };
    }
    case 'YESTERDAY': {
      const yesterday = previousCalendarDay(today);
      return { ok: true, startDay: yesterday, endDay: yesterday };
    }
    case 'CUSTOM': {
      const { startDate, endDate } = request;
      if (!startDate)
        return { ok: false, field: 'startDate', message: APPOINTMENT_MESSAGES.customRangeRequiresDates };
      if (!endDate)
        return { ok: false, field: 'endDate', message: APPOINTMENT_MESSAGES.customRangeRequiresDates };
      if (!isCalendarDay(startDate))
        return { ok: false, field: 'startDate', message: 'startDate must be a date (yyyy-MM-dd)' };
      if (!isCalendarDay(endDate))
        return { ok: false, field: 'endDate', message: 'endDate must be a date (yyyy-MM-dd)' };
      if (endDate < startDate)
        return { ok: false, field: 'endDate', message: SUMMARY_MESSAGES.endBeforeStart };
      if (daysInRange(startDate, endDate) > LAB_LIMITS.appointmentRangeDays)
        return { ok: false, field: 'endDate', message: APPOINTMENT_MESSAGES.customRangeTooLong };
      return { ok: true, startDay: startDate, endDay: endDate };
    }
  }
}

/** The instants of a summary's days in the zone, and the zone's today (what Today means). */
export function appointmentSummaryInstants(
  days: { startDay: string; endDay: string },
  timeZone: string = DEFAULT_DISPLAY_TIME_ZONE,
): { from: Date; to: Date } {
  return summaryRangeInstants(days.startDay, days.endDay, timeZone);
}

export const ZAppointmentCounts = z.object({
  key: z.string(),
  scheduled: z.number().int(),
  paid: z.number().int(),
  partiallyPaid: z.number().int(),
  total: z.number().int(),
});
export type TAppointmentCounts = z.infer<typeof ZAppointmentCounts>;

export const ZAppointmentSummary = z
  .object({
    startDay: z.string(),
    endDay: z.string(),
    /** Counts per appointment name, by name. */
    byAppointmentName: z.array(ZAppointmentCounts),
    /** Counts per modality, by modality. */
    byModality: z.array(ZAppointmentCounts),
    /** Every appointment of the range (key 'Total'). */
    total: ZAppointmentCounts,
  })
  .meta({ id: 'LabAppointmentSummary' });
export type TAppointmentSummary = z.infer<typeof ZAppointmentSummary>;

const emptyCounts = (key: string): TAppointmentCounts => ({
  key,
  scheduled: 0,
  paid: 0,
  partiallyPaid: 0,
  total: 0,
});

function countInto(counts: TAppointmentCounts, state: TAppointmentState): void {
  counts.total += 1;
  if (state === 'SCHEDULED') counts.scheduled += 1;
  else if (state === 'PAID') counts.paid += 1;
  else counts.partiallyPaid += 1;
}

/** The Detailed Summary's counts of appointments, per name, per modality and in all, by state. */
export function summarizeAppointments(
  appointments: readonly Pick<TAppointment, 'appointmentName' | 'labModality' | 'state'>[],
): Pick<TAppointmentSummary, 'byAppointmentName' | 'byModality' | 'total'> {
  const byName = new Map<string, TAppointmentCounts>();
  const byModality = new Map<string, TAppointmentCounts>();
  const total = emptyCounts('Total');
  for (const a of appointments) {
    if (!byName.has(a.appointmentName)) byName.set(a.appointmentName, emptyCounts(a.appointmentName));
    if (!byModality.has(a.labModality)) byModality.set(a.labModality, emptyCounts(a.labModality));
    countInto(byName.get(a.appointmentName)!, a.state);
    countInto(byModality.get(a.labModality)!, a.state);
    countInto(total, a.state);
  }
  const sorted = (m: Map<string, TAppointmentCounts>) =>
    [...m.values()].sort((x, y) => x.key.localeCompare(y.key));
  return { byAppointmentName: sorted(byName), byModality: sorted(byModality), total };
}
