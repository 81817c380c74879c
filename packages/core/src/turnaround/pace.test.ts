import { describe, expect, it } from 'vitest';
import { PACE, doctorPace } from './pace.js';

const now = new Date('2026-06-01T10:00:00Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
/** Sign-offs `every` minutes apart, the last one `lastAgo` minutes ago. */
const steady = (count: number, every: number, lastAgo = 0) =>
  Array.from({ length: count }, (_, i) => minutesAgo(lastAgo + i * every));

describe('doctorPace (issue 24 §4)', () => {
  it('is the default for a doctor with no history', () => {
    expect(doctorPace([], now)).toEqual({ minutesPerReport: PACE.defaultMinutesPerReport, basedOnGaps: 0 });
  });

  it('is the default with fewer gaps than the minimum', () => {
    expect(doctorPace(steady(PACE.minGaps, 5), now).minutesPerReport).toBe(PACE.defaultMinutesPerReport);
    expect(doctorPace(steady(PACE.minGaps + 1, 5), now)).toEqual({ minutesPerReport: 5, basedOnGaps: 3 });
  });

  it('is the median gap between consecutive sign-offs, whatever their order', () => {
    // gaps 4, 6, 10, 30 → median 8
    const signOffs = [minutesAgo(0), minutesAgo(4), minutesAgo(10), minutesAgo(20), minutesAgo(50)].reverse();
    expect(doctorPace(signOffs, now)).toEqual({ minutesPerReport: 8, basedOnGaps: 4 });
  });

  it('leaves out pauses longer than the pause limit (a night is not reading time)', () => {
    const morning = steady(4, 10, 0);
    const yesterday = steady(4, 10, 14 * 60);
    expect(doctorPace([...morning, ...yesterday], now)).toEqual({ minutesPerReport: 10, basedOnGaps: 6 });
    // exactly at the pause limit still counts
    expect(doctorPace(steady(4, PACE.pauseMinutes), now).minutesPerReport).toBe(PACE.pauseMinutes);
    expect(doctorPace(steady(4, PACE.pauseMinutes + 1), now).minutesPerReport).toBe(
      PACE.defaultMinutesPerReport,
    );
  });

  it('reads only the last sign-offs of the window, and none from the future', () => {
    const recent = steady(PACE.lastSignOffs, 3, 0);
    const older = steady(10, 50, PACE.lastSignOffs * 3);
    expect(doctorPace([...recent, ...older], now).minutesPerReport).toBe(3);
    const outOfWindow = steady(10, 5, PACE.windowDays * 24 * 60);
    expect(doctorPace(outOfWindow, now).basedOnGaps).toBe(0);
    expect(doctorPace(steady(10, 5, -100), now).basedOnGaps).toBe(0);
  });

  it('never goes under the minimum (a batch signed off in one minute)', () => {
    expect(doctorPace(steady(6, 0), now).minutesPerReport).toBe(PACE.minMinutesPerReport);
  });
});
