import { describe, expect, it } from 'vitest';
import { compareSeriesForDisplay, compareStackInstances, stackFramesOf } from './display-order.js';

describe('display order', () => {
  it('opens the lowest Series Number first, series without one last, ties by UID', () => {
    const series = [
      { seriesNumber: null, seriesInstanceUid: '1.2.3' },
      { seriesNumber: 3, seriesInstanceUid: '1.2.9' },
      { seriesNumber: 3, seriesInstanceUid: '1.2.10' },
      { seriesNumber: 0, seriesInstanceUid: '1.2.5' },
    ];
    expect([...series].sort(compareSeriesForDisplay).map((s) => s.seriesInstanceUid)).toEqual([
      '1.2.5',
      '1.2.10',
      '1.2.9',
      '1.2.3',
    ]);
  });

  it('starts a stack at the lowest Instance Number, instances without one last', () => {
    const stack = [
      { instanceNumber: 2, sopInstanceUid: 'b' },
      { instanceNumber: null, sopInstanceUid: 'a' },
      { instanceNumber: -1, sopInstanceUid: 'z' },
      { instanceNumber: 2, sopInstanceUid: 'a' },
    ];
    expect(
      [...stack].sort(compareStackInstances).map((i) => `${i.instanceNumber}${i.sopInstanceUid}`),
    ).toEqual(['-1z', '2a', '2b', 'nulla']);
  });

  it('counts at least one frame per image', () => {
    expect([stackFramesOf(null), stackFramesOf(0), stackFramesOf(12)]).toEqual([1, 1, 12]);
  });
});
