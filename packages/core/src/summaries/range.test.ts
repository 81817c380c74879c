import { describe, expect, it } from 'vitest';
import {
  SUMMARY_MESSAGES,
  calendarDayIn,
  daysInRange,
  summaryRangeInstants,
  summaryRangeProblem,
} from './range.js';

describe('summary date ranges', () => {
  it('needs both days, real days, the end not before the start, at most 180 days', () => {
    expect(summaryRangeProblem(null, '2026-01-02')).toEqual({
      field: 'startTime',
      message: SUMMARY_MESSAGES.selectDate,
    });
    expect(summaryRangeProblem('2026-01-02', '')).toEqual({
      field: 'endTime',
      message: SUMMARY_MESSAGES.selectDate,
    });
    expect(summaryRangeProblem('2026-02-30', '2026-03-01')?.field).toBe('startTime');
    expect(summaryRangeProblem('2026-03-01', '2026-3-2')?.field).toBe('endTime');
    expect(summaryRangeProblem('2026-03-02', '2026-03-01')).toEqual({
      field: 'endTime',
      message: SUMMARY_MESSAGES.endBeforeStart,
    });
    expect(summaryRangeProblem('2026-01-01', '2026-06-29')).toBeNull(); // 180 days
    expect(summaryRangeProblem('2026-01-01', '2026-06-30')?.message).toBe(SUMMARY_MESSAGES.windowTooLong);
    expect(summaryRangeProblem('2026-01-01', '2026-01-31', 31)).toBeNull();
    expect(summaryRangeProblem('2026-01-01', '2026-02-01', 31)?.message).toMatch(/31 days/);
    expect(daysInRange('2026-03-01', '2026-03-01')).toBe(1);
  });

  it('covers whole days of the display zone (+05:30 by default)', () => {
    const { from, to } = summaryRangeInstants('2026-01-06', '2026-01-06');
    expect(from.toISOString()).toBe('2026-01-05T18:30:00.000Z');
    expect(to.toISOString()).toBe('2026-01-06T18:30:00.000Z');
    expect(summaryRangeInstants('2026-01-06', '2026-01-07', 'UTC').to.toISOString()).toBe(
      '2026-01-08T00:00:00.000Z',
    );
  });

  it('puts an instant on the day it is in the zone', () => {
    expect(calendarDayIn(new Date('2026-01-05T18:29:59Z'))).toBe('2026-01-05');
    expect(calendarDayIn(new Date('2026-01-05T18:30:00Z'))).toBe('2026-01-06');
    expect(calendarDayIn(new Date('2026-01-05T18:30:00Z'), 'UTC')).toBe('2026-01-05');
  });
});
