/**
 * Times shown to a user: one display time zone per group (ADMIN_PREFERENCES `displayTimeZone`),
 * by default the spec's +05:30 (spec-core §9: "date filters use time zone +05:30"), so the editor,
 * the lists, the share page, the PDF and the Word file of one study all say the same time. The
 * format is the spec's timestamp yyyy-MM-dd HH:mm:ss (spec-core §9), labelled with the offset
 * ("UTC+05:30"): unlike "IST" (India, Israel, Ireland) it reads the same to a doctor anywhere.
 */

/** Asia/Kolkata is +05:30 all year (no summer time), the spec's offset as a zone name Intl knows. */
export const DEFAULT_DISPLAY_TIME_ZONE = 'Asia/Kolkata';

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat | null {
  let format = formats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      return null;
    }
    formats.set(timeZone, format);
  }
  return format;
}

/** Whether Intl knows the zone name (the group setting is checked with this). */
export function isDisplayTimeZone(timeZone: string): boolean {
  return timeZone !== '' && formatFor(timeZone) !== null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The zone's wall clock at an instant (whole seconds) read from Intl, and its offset in ms then. */
function exactWallClock(at: Date, timeZone: string) {
  const format = formatFor(timeZone) ?? (formatFor(DEFAULT_DISPLAY_TIME_ZONE) as Intl.DateTimeFormat);
  const part: Record<string, number> = {};
  for (const p of format.formatToParts(at)) if (p.type !== 'literal') part[p.type] = Number(p.value);
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = part;
  // The wall clock read as UTC, minus the instant.
  const wallMs = Date.UTC(year, month - 1, day, hour, minute, second);
  return {
    year,
    month,
    day,
    hour,
    minute,
    second,
    offsetMs: wallMs - Math.floor(at.getTime() / 1000) * 1000,
  };
}

/**
 * A zone's offset is constant between its transitions, so it is read from Intl once per
 * 15-minute stretch and kept when it is the same at both ends of the stretch (a stretch with a
 * transition in it is read exactly, instant by instant). Intl's formatToParts costs ~9 µs a call:
 * a file of 100,000 rows with two times each spent ~2 s in it (issue 24 §5). Bounded.
 */
const STRETCH_MS = 15 * 60_000;
const stretchOffsets = new Map<string, number | null>();

function offsetOfStretch(stretch: number, timeZone: string): number | null {
  const key = `${timeZone}|${stretch}`;
  let offset = stretchOffsets.get(key);
  if (offset === undefined) {
    const start = exactWallClock(new Date(stretch * STRETCH_MS), timeZone).offsetMs;
    const end = exactWallClock(new Date((stretch + 1) * STRETCH_MS - 1000), timeZone).offsetMs;
    offset = start === end ? start : null;
    if (stretchOffsets.size >= 20_000) stretchOffsets.clear();
    stretchOffsets.set(key, offset);
  }
  return offset;
}

/** The zone's wall clock at an instant (whole seconds) and its offset from UTC in minutes then. */
function wallClock(at: Date, timeZone: string) {
  const seconds = Math.floor(at.getTime() / 1000) * 1000;
  const offsetMs = offsetOfStretch(Math.floor(seconds / STRETCH_MS), timeZone);
  if (offsetMs === null) {
    const exact = exactWallClock(at, timeZone);
    return { ...exact, offset: Math.round(exact.offsetMs / 60_000) };
  }
  const wall = new Date(seconds + offsetMs);
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    offset: Math.round(offsetMs / 60_000),
  };
}

/**
 * `2026-01-06 01:34:09 UTC+05:30`; `label: false` leaves the label out where the page states it
 * once (a table column). Absent → ''; a text that is no time → as it came; an unknown zone → the
 * default zone.
 */
export function formatDisplayTime(
  value: Date | string | null | undefined,
  timeZone: string = DEFAULT_DISPLAY_TIME_ZONE,
  options: { label?: boolean } = {},
): string {
  if (value === null || value === undefined || value === '') return '';
  const at = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(at.getTime())) return String(value);
  const w = wallClock(at, timeZone);
  const text = `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
  if (options.label === false) return text;
  if (w.offset === 0) return `${text} UTC`;
  const abs = Math.abs(w.offset);
  return `${text} UTC${w.offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * The instant a calendar day (yyyy-MM-dd) begins in the zone: the day bounds of the lists' date
 * filters, so that a study shown as uploaded on the 6th is found by the 6th.
 */
export function startOfDayIn(day: string, timeZone: string = DEFAULT_DISPLAY_TIME_ZONE): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  // Twice: the offset at the guess may differ from the offset at local midnight across a DST change.
  let at = midnightUtc;
  for (let i = 0; i < 2; i++) at = midnightUtc - wallClock(new Date(at), timeZone).offset * 60_000;
  return new Date(at);
}
