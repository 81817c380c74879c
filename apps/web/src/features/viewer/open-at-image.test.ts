import { describe, expect, it } from 'vitest';
import { openAtOf, sliceIndexOf } from './open-at-image';

/** Issue 23 §1: a chat message's image link opens the viewer at that image. */
describe('opening the viewer at one image', () => {
  const series = {
    stack: [
      { sopInstanceUid: '1.1', metadata: {}, frames: 1, imageIds: ['a1'] },
      { sopInstanceUid: '1.2', metadata: {}, frames: 3, imageIds: ['b1', 'b2', 'b3'] },
    ],
    imageIds: ['a1', 'b1', 'b2', 'b3'],
  };

  it('reads series, sop and frame from the address (frame 1 when not said)', () => {
    expect(openAtOf(new URLSearchParams('v=2&series=9&sop=1.2&frame=3'))).toEqual({
      seriesInstanceUid: '9',
      sopInstanceUid: '1.2',
      frame: 3,
    });
    expect(openAtOf(new URLSearchParams('series=9&sop=1.2'))?.frame).toBe(1);
    expect(openAtOf(new URLSearchParams('v=2'))).toBeNull();
    expect(openAtOf(new URLSearchParams('series=9&sop=1.2&frame=0'))).toBeNull();
  });

  it("finds the frame's slice in the stack; another image is none", () => {
    expect(sliceIndexOf(series, { seriesInstanceUid: '9', sopInstanceUid: '1.2', frame: 2 })).toBe(2);
    expect(sliceIndexOf(series, { seriesInstanceUid: '9', sopInstanceUid: '1.1', frame: 1 })).toBe(0);
    expect(sliceIndexOf(series, { seriesInstanceUid: '9', sopInstanceUid: '1.2', frame: 4 })).toBeNull();
    expect(sliceIndexOf(series, { seriesInstanceUid: '9', sopInstanceUid: '7.7', frame: 1 })).toBeNull();
  });
});
