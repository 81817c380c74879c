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
