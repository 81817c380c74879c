import { DEFAULT_DISPLAY_TIME_ZONE, startOfDayIn } from '../display/display-time.js';

/**
 * The date range of the summaries, the report search and the dashboards (issue 24; spec-core §2
 * Summary screen, §9 "date filters use time zone +05:30", "windows 180 days and 1/7/30 days").
 * Days are calendar days of the group's display time zone; a range is [start of the first day,
 * start of the day after the last), so a study shown as uploaded on the 6th is counted on the 6th.
 */

/** Which time of a study a summary's range is about (spec-core §2: upload, signed-off, study time). */
export const SUMMARY_DATE_TYPES = ['UPLOAD_TIME', 'SIGNED_OFF_TIME', 'STUDY_TIME'] as const;
export type TSummaryDateType = (typeof SUMMARY_DATE_TYPES)[number];
export const SUMMARY_DATE_TYPE_LABELS: Readonly<Record<TSummaryDateType, string>> = {
  UPLOAD_TIME: 'Upload time',
  SIGNED_OFF_TIME: 'Signed-off time',
  STUDY_TIME: 'Study time',
};

/** The longest range one summary, search or dashboard call covers (spec-core §9). */
export const SUMMARY_MAX_WINDOW_DAYS = 180;
/** The rolling windows the advanced summary aggregates besides the custom range (spec-core §7). */
export const SUMMARY_ROLLING_WINDOWS_DAYS = [1, 7, 30] as const;
/** Search-index page size and aggregation bucket size (spec-core §9). */
export const REPORT_SEARCH_PAGE_SIZE_DEFAULT = 20;
export const REPORT_SEARCH_PAGE_SIZES = [20, 50] as const;
export const SUMMARY_AGGREGATION_BUCKET_SIZE = 1000;
/** spec-core §2 Report search page: the preset keyword suggestions, in the spec's order. */
export const REPORT_SEARCH_KEYWORD_SUGGESTIONS = [
  'Meningioma',
  'Interstitial lung disease',
  'COVID',
  'Hepatocellular carcinoma',
  'Liver abscess',
  'Acute pancreatitis',
  'Aneurysm',
  'A V malformation',
  'Anterior cruciate ligament tear',
  'Meniscus tear',
  'Osteochondroma',
] as const;

export const SUMMARY_MESSAGES = {
  /** spec-core §2 and §9: both dates are needed to search or download. */
  selectDate: 'Please select date',
  /** spec-core §2: hideSummaryPage, or a tele-medicine-customised assignor or center. */
  notAllowed: 'You are not allowed to view this page',
  endBeforeStart: 'End date must not be before start date',
  windowTooLong: `The date range must not be longer than ${SUMMARY_MAX_WINDOW_DAYS} days`,
  notADay: 'must be a date (yyyy-MM-dd)',
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether the text is a real calendar day written yyyy-MM-dd. */
export function isCalendarDay(text: string): boolean {
  if (!DAY.test(text)) return false;
  const at = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === text;
}

/** The day after a calendar day (yyyy-MM-dd). */
export function nextCalendarDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** Days from the first to the last, both counted (the same day is 1). */
export function daysInRange(startDay: string, endDay: string): number {
  return Math.round((Date.parse(`${endDay}T00:00:00Z`) - Date.parse(`${startDay}T00:00:00Z`)) / DAY_MS) + 1;
}

export type TRangeProblem = { field: 'startTime' | 'endTime'; message: string };

/**
 * What is wrong with a range of days, or null: each day missing or not a day, the end before the
 * start, longer than the window. The field is the request's name for it (spec-core §3 startTime,
 * endTime), so a 400 names it and a form marks it.
 */
export function summaryRangeProblem(
  startDay: string | null | undefined,
  endDay: string | null | undefined,
  maxDays: number = SUMMARY_MAX_WINDOW_DAYS,
): TRangeProblem | null {
  if (!startDay) return { field: 'startTime', message: SUMMARY_MESSAGES.selectDate };
  if (!endDay) return { field: 'endTime', message: SUMMARY_MESSAGES.selectDate };
  if (!isCalendarDay(startDay))
    return { field: 'startTime', message: `startTime ${SUMMARY_MESSAGES.notADay}` };
  if (!isCalendarDay(endDay)) return { field: 'endTime', message: `endTime ${SUMMARY_MESSAGES.notADay}` };
  if (endDay < startDay) return { field: 'endTime', message: SUMMARY_MESSAGES.endBeforeStart };
  if (daysInRange(startDay, endDay) > maxDays) {
    return {
      field: 'endTime',
      message:
        maxDays === SUMMARY_MAX_WINDOW_DAYS
          ? SUMMARY_MESSAGES.windowTooLong
          : `The date range must not be longer than ${maxDays} days`,
    };
  }
  return null;
}

/** The instants a valid range of days covers in the zone: from inclusive, to exclusive. */
export function summaryRangeInstants(
  startDay: string,
  endDay: string,
  timeZone: string = DEFAULT_DISPLAY_TIME_ZONE,
): { from: Date; to: Date } {
  return { from: startOfDayIn(startDay, timeZone), to: startOfDayIn(nextCalendarDay(endDay), timeZone) };
}

/** The calendar day (yyyy-MM-dd) an instant falls on in the zone: a chart's bucket, a summary's "today". */
export function calendarDayIn(at: Date, timeZone: string = DEFAULT_DISPLAY_TIME_ZONE): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
    .formatToParts(at)
    .reduce<Record<string, string>>((acc, p) => ({ ...acc, [p.type]: p.value }), {});
  return `${parts.year}-${parts.month}-${parts.day}`;
}
