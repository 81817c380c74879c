import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DISPLAY_TIME_ZONE,
  formatDisplayTime,
  isDisplayTimeZone,
  startOfDayIn,
} from './display-time.js';

describe('formatDisplayTime: one labelled time for every page and document', () => {
  const at = '2026-01-05T20:04:09.500Z';

  it("defaults to the spec's +05:30 and says so", () => {
    expect(DEFAULT_DISPLAY_TIME_ZONE).toBe('Asia/Kolkata');
    expect(formatDisplayTime(at)).toBe('2026-01-06 01:34:09 UTC+05:30');
    expect(formatDisplayTime(new Date(at))).toBe('2026-01-06 01:34:09 UTC+05:30');
  });

  it("uses the group's zone, with its offset at that moment (summer time included)", () => {
    expect(formatDisplayTime(at, 'UTC')).toBe('2026-01-05 20:04:09 UTC');
    expect(formatDisplayTime(at, 'Europe/Berlin')).toBe('2026-01-05 21:04:09 UTC+01:00');
    expect(formatDisplayTime('2026-07-05T20:04:09Z', 'Europe/Berlin')).toBe('2026-07-05 22:04:09 UTC+02:00');
    expect(formatDisplayTime(at, 'America/St_Johns')).toBe('2026-01-05 16:34:09 UTC-03:30');
    expect(formatDisplayTime('2026-01-05T23:30:00Z', 'Asia/Kolkata')).toBe('2026-01-06 05:00:00 UTC+05:30');
  });

  it('without the label where the page states it once', () => {
    expect(formatDisplayTime(at, 'Asia/Kolkata', { label: false })).toBe('2026-01-06 01:34:09');
  });

  it('an absent time is empty, an unreadable one is shown as it came; an unknown zone falls back to the default', () => {
    expect(formatDisplayTime(null)).toBe('');
    expect(formatDisplayTime(undefined)).toBe('');
    expect(formatDisplayTime('')).toBe('');
    expect(formatDisplayTime('soon')).toBe('soon');
    expect(formatDisplayTime(at, 'Mars/Olympus')).toBe('2026-01-06 01:34:09 UTC+05:30');
  });

  it('knows a zone name from a typo', () => {
    expect(isDisplayTimeZone('Asia/Kolkata')).toBe(true);
    expect(isDisplayTimeZone('UTC')).toBe(true);
    expect(isDisplayTimeZone('Europe/Berlin')).toBe(true);
    expect(isDisplayTimeZone('Mars/Olympus')).toBe(false);
    expect(isDisplayTimeZone('')).toBe(false);
  });
});

describe('startOfDayIn: where a day of the date filters begins', () => {
  it('midnight of the zone, as an instant', () => {
    expect(startOfDayIn('2026-01-06').toISOString()).toBe('2026-01-05T18:30:00.000Z');
    expect(startOfDayIn('2026-01-06', 'UTC').toISOString()).toBe('2026-01-06T00:00:00.000Z');
    expect(startOfDayIn('2026-01-06', 'Europe/Berlin').toISOString()).toBe('2026-01-05T23:00:00.000Z');
    expect(startOfDayIn('2026-07-06', 'Europe/Berlin').toISOString()).toBe('2026-07-05T22:00:00.000Z');
    expect(startOfDayIn('2026-01-06', 'America/New_York').toISOString()).toBe('2026-01-06T05:00:00.000Z');
  });

  it('on the day summer time starts or ends', () => {
    // Berlin: clocks go forward at 02:00 on 29 March 2026 and back at 03:00 on 25 October.
    expect(startOfDayIn('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDayIn('2026-03-30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfDayIn('2026-10-26', 'Europe/Berlin').toISOString()).toBe('2026-10-25T23:00:00.000Z');
  });
});

describe('the wall clock read once per stretch of a zone', () => {
  it('says what Intl says, across summer-time changes and half-hour zones', () => {
    const zones = [
      'Asia/Kolkata',
      'Europe/Berlin',
      'America/New_York',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'UTC',
    ];
    const formats = new Map<string, Intl.DateTimeFormat>();
    const intl = (at: Date, timeZone: string) => {
      const format =
        formats.get(timeZone) ??
        new Intl.DateTimeFormat('en-US', {
          timeZone,
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
        });
      formats.set(timeZone, format);
      const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
      return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
    };
    // Every 1 h 53 min 13.5 s over 2026 (landing on every minute of the hour in turn), and each
    // second around summer-time changes of Berlin (spring, autumn) and New York (spring).
    const instants: Date[] = [];
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 6_793_500) instants.push(new Date(t));
    for (const change of [Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 2, 8, 7), Date.UTC(2026, 9, 25, 1)])
      for (let s = -90; s <= 90; s++) instants.push(new Date(change + s * 1000));
    const mismatches: string[] = [];
    for (const zone of zones)
      for (const at of instants) {
        const shown = formatDisplayTime(at, zone, { label: false });
        if (shown !== intl(at, zone)) mismatches.push(`${zone} ${at.toISOString()} ${shown}`);
      }
    expect(mismatches).toEqual([]);
    expect(instants.length).toBeGreaterThan(4_000);
  });
});
