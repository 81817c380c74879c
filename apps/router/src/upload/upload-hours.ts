/**
 * Upload hours a center sets (e.g. `20:00-07:00,12:00-14:00`, the router PC's local time): outside
 * them nothing is sent (the queue still receives). A range may cross midnight; empty means always.
 */
export interface HoursRange {
  readonly fromMinute: number;
  readonly toMinute: number;
}

const RANGE = /^(\d{1,2}):(\d{2})-(\d{1,2}):(\d{2})$/;

/** Parses the setting; throws naming the bad range. */
export function parseUploadHours(text: string): HoursRange[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  return trimmed.split(',').map((part) => {
    const match = RANGE.exec(part.trim());
    const minute = (h: string, m: string) => Number(h) * 60 + Number(m);
    if (
      !match ||
      Number(match[1]) > 23 ||
      Number(match[3]) > 24 ||
      Number(match[2]) > 59 ||
      Number(match[4]) > 59
    ) {
      throw new Error(`Upload hours: '${part.trim()}' is not HH:MM-HH:MM`);
    }
    const range = { fromMinute: minute(match[1]!, match[2]!), toMinute: minute(match[3]!, match[4]!) };
    if (range.fromMinute === range.toMinute) throw new Error(`Upload hours: '${part.trim()}' is empty`);
    return range;
  });
}

function inRange(minute: number, range: HoursRange): boolean {
  return range.fromMinute < range.toMinute
    ? minute >= range.fromMinute && minute < range.toMinute
    : minute >= range.fromMinute || minute < range.toMinute;
}

export function isUploadTime(ranges: readonly HoursRange[], at: Date): boolean {
  if (ranges.length === 0) return true;
  const minute = at.getHours() * 60 + at.getMinutes();
  return ranges.some((range) => inRange(minute, range));
}

/** Milliseconds until the upload hours open (0 if open now); checked minute by minute over a day. */
export function msUntilUploadTime(ranges: readonly HoursRange[], at: Date): number {
  if (isUploadTime(ranges, at)) return 0;
  const start = new Date(at);
  start.setSeconds(0, 0);
  for (let step = 1; step <= 24 * 60; step++) {
    const probe = new Date(start.getTime() + step * 60_000);
    if (isUploadTime(ranges, probe)) return probe.getTime() - at.getTime();
  }
  return 60_000;
}
