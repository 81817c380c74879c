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
  const ms = at.getTime();
  if (Number.isNaN(ms)) return String(value);
  const format = formatFor(timeZone) ?? (formatFor(DEFAULT_DISPLAY_TIME_ZONE) as Intl.DateTimeFormat);
  const part: Record<string, number> = {};
  for (const p of format.formatToParts(at)) if (p.type !== 'literal') part[p.type] = Number(p.value);
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = part;
  const text = `${year}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)}`;
  if (options.label === false) return text;
  // The zone's offset at that moment: its wall clock read as UTC, minus the instant (whole seconds).
  const offset = Math.round(
    (Date.UTC(year, month - 1, day, hour, minute, second) - Math.floor(ms / 1000) * 1000) / 60_000,
  );
  if (offset === 0) return `${text} UTC`;
  const abs = Math.abs(offset);
  return `${text} UTC${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
