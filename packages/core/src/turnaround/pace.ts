/**
 * A doctor's pace (issue 24 §4): how many minutes one report takes them, from their recent sign-offs.
 *
 * Rule: the median gap between consecutive sign-offs among their last PACE.lastSignOffs sign-offs of
 * the last PACE.windowDays days, leaving out gaps longer than PACE.pauseMinutes (a break, a night, a
 * day off: idle time, not reading time). Why this and not "sign-off minus assignment": the time from
 * assignment includes the wait in the queue, which is what we forecast, so it would count the queue
 * twice; the gap between two sign-offs is what one more study in the queue costs, everything the
 * doctor does between reports included. The median, so that one long case or one batch signed off
 * together does not move it; the recent window, so that it follows the doctor's day.
 * With fewer than PACE.minGaps gaps (a new doctor, a doctor back from leave) the pace is
 * PACE.defaultMinutesPerReport, a typical cross-sectional report; never under PACE.minMinutesPerReport
 * (two sign-offs in the same minute do not make a doctor infinitely fast).
 */
export const PACE = {
  lastSignOffs: 20,
  windowDays: 7,
  pauseMinutes: 60,
  minGaps: 3,
  defaultMinutesPerReport: 15,
  minMinutesPerReport: 1,
} as const;

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export interface TDoctorPace {
  minutesPerReport: number;
  /** How many gaps the median was taken over; 0 when the default was used. */
  basedOnGaps: number;
}

/** The pace of a doctor from the instants of their sign-offs (any order; later than `now` ignored). */
export function doctorPace(signOffs: readonly (Date | string)[], now: Date): TDoctorPace {
  const from = now.getTime() - PACE.windowDays * DAY_MS;
  const recent = signOffs
    .map((d) => new Date(d).getTime())
    .filter((t) => !Number.isNaN(t) && t > from && t <= now.getTime())
    .sort((a, b) => b - a)
    .slice(0, PACE.lastSignOffs);
  const gaps: number[] = [];
  for (let i = 1; i < recent.length; i++) {
    const gap = (recent[i - 1]! - recent[i]!) / MINUTE_MS;
    if (gap <= PACE.pauseMinutes) gaps.push(gap);
  }
  if (gaps.length < PACE.minGaps) return { minutesPerReport: PACE.defaultMinutesPerReport, basedOnGaps: 0 };
  return { minutesPerReport: Math.max(PACE.minMinutesPerReport, median(gaps)), basedOnGaps: gaps.length };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
