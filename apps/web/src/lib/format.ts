import { DEFAULT_DISPLAY_TIME_ZONE, calendarDayIn, formatDisplayTime } from '@radflow/core';

/*
 * The group's display time zone (ADMIN_PREFERENCES displayTimeZone) is a property of the signed-in
 * session, like a locale: the session loader sets it here (and a saved setting or a sign-out updates
 * it), so the many places that show a time, table cells drawn by plain functions among them, need no
 * zone argument. The public share page passes its zone, which its answer carries.
 */
let displayTimeZone = DEFAULT_DISPLAY_TIME_ZONE;

export function setDisplayTimeZone(timeZone: string | null | undefined): void {
  displayTimeZone = timeZone || DEFAULT_DISPLAY_TIME_ZONE;
}

/**
 * Today (YYYY-MM-DD) in the group's display time zone: the default of the date fields. The UTC day
 * differs for hours each night (until 05:30 in India), when it would date a price or a payment a
 * day early.
 */
export function todayInDisplayZone(now: Date = new Date()): string {
  return calendarDayIn(now, displayTimeZone);
}

/**
 * A timestamp as yyyy-MM-dd HH:mm:ss in the group's display time zone, labelled 'UTC+05:30' (core
 * formatDisplayTime); `label: false` where the page states the zone once. '—' when absent.
 */
export function formatTimestamp(
  value: string | null | undefined,
  options: { timeZone?: string; label?: boolean } = {},
): string {
  return formatDisplayTime(value, options.timeZone ?? displayTimeZone, options) || '—';
}
