import { DEFAULT_DISPLAY_TIME_ZONE, startOfDayIn } from '../display/display-time.js';
import type { TLabSlot } from '../settings/lab-slots.js';
import { calendarDayIn, nextCalendarDay } from '../summaries/range.js';

/**
 * The appointment calendar of the lab's LAB_SLOTS (spec-lab §3 appointment slot): each slot recurs on
 * the weekdays of its weeklyTiming ("0" Sunday … "6" Saturday) between its HH:mm times, in the
 * group's display time zone, except on its blocked days. The slot picker and the server's booking
 * check both read occurrences from here, so a slot the screen offers is one the server accepts.
 */

export interface TSlotWindow {
  appointmentName: string;
  labModality: string;
  /** yyyy-MM-dd in the zone. */
  date: string;
  start: Date;
  end: Date;
  appointmentLimit: number;
  blocked: boolean;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * The instant of a wall time on a day in the zone. Midnight is found exactly (startOfDayIn); the
 * minutes are added to it, which is exact in zones without a DST change that day (the spec's +05:30).
 */
export function wallTimeIn(day: string, hhmm: string, timeZone: string): Date {
  return new Date(startOfDayIn(day, timeZone).getTime() + minutesOf(hhmm) * 60_000);
}

/** The slot's window on a day, or null when it does not run that weekday. */
export function slotWindowOn(slot: TLabSlot, day: string, timeZone: string): TSlotWindow | null {
  const weekday = String(new Date(`${day}T00:00:00Z`).getUTCDay());
  const timing = slot.weeklyTiming[weekday];
  if (!timing) return null;
  return {
    appointmentName: slot.name,
    labModality: slot.labModalities[0] ?? '',
    date: day,
    start: wallTimeIn(day, timing.startTime, timeZone),
    end: wallTimeIn(day, timing.endTime, timeZone),
    appointmentLimit: timing.appointmentLimit,
    blocked: slot.blockedDays.includes(day),
  };
}

/** Every window of the slots whose start falls in [from, to), day by day in the zone. */
export function slotWindows(
  slots: readonly TLabSlot[],
  from: Date,
  to: Date,
  timeZone: string = DEFAULT_DISPLAY_TIME_ZONE,
): TSlotWindow[] {
  const windows: TSlotWindow[] = [];
  const lastDay = calendarDayIn(new Date(to.getTime() - 1), timeZone);
  for (let day = calendarDayIn(from, timeZone); day <= lastDay; day = nextCalendarDay(day)) {
    for (const slot of slots) {
      const window = slotWindowOn(slot, day, timeZone);
      if (window && window.start >= from && window.start < to) windows.push(window);
    }
  }
  return windows.sort((a, b) => a.start.getTime() - b.start.getTime());
}

export type TSlotChoiceResult =
  { ok: true; window: TSlotWindow } | { ok: false; status: 400; message: string };

/**
 * Whether an appointment (slot name, start, end) is a real window of a slot for the line's modality
 * on a day that is not blocked. Answers the window, or the message the bill screen shows.
 */
export function checkSlotChoice(
  slots: readonly TLabSlot[],
  modality: string,
  choice: { appointmentName: string; start: Date; end: Date },
  timeZone: string = DEFAULT_DISPLAY_TIME_ZONE,
): TSlotChoiceResult {
  const forModality = slots.filter((s) => s.labModalities.includes(modality as never));
  if (forModality.length === 0)
    return { ok: false, status: 400, message: 'No slots available for this modality' };
  const slot = forModality.find((s) => s.name === choice.appointmentName);
  if (!slot) {
    return {
      ok: false,
      status: 400,
      message: `No slot named ${choice.appointmentName} for ${modality}`,
    };
  }
  const day = calendarDayIn(choice.start, timeZone);
  const window = slotWindowOn(slot, day, timeZone);
  if (
    !window ||
    window.start.getTime() !== choice.start.getTime() ||
    window.end.getTime() !== choice.end.getTime()
  ) {
    return {
      ok: false,
      status: 400,
      message: `${slot.name} does not run at that time on ${day}: select slot and date again`,
    };
  }
  if (window.blocked) {
    return {
      ok: false,
      status: 400,
      message: `Note: The following slots are blocked for this date: ${slot.name} (${day})`,
    };
  }
  return { ok: true, window };
}
