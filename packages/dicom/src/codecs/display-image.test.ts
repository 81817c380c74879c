import { describe, expect, it } from 'vitest';
import { expandSegmentedLut, toDisplayImage } from './display-image.js';

describe('segmented palette colour LUT data (PS3.3 §C.7.9.2)', () => {
  it('expands discrete and linear segments, a linear one starting from the last value', () => {
    // Discrete 3 values, then linear over 4 entries up to 100.
    const lut = expandSegmentedLut(Uint16Array.from([0, 3, 10, 20, 20, 1, 4, 100]), 7);
    expect([...lut]).toEqual([10, 20, 20, 40, 60, 80, 100]);
  });

  it('copies segments named by an indirect segment, and refuses an unknown segment type', () => {
    // Words 0–3: discrete [5, 6]; 4–6: linear 6 → 0 over 2; 7–10: indirect, 1 segment at word 0.
    const lut = expandSegmentedLut(Uint16Array.from([0, 2, 5, 6, 1, 2, 0, 2, 1, 0, 0]), 6);
    expect([...lut]).toEqual([5, 6, 3, 0, 5, 6]);
    expect(() => expandSegmentedLut(Uint16Array.from([7, 1, 0]), 1)).toThrow(/type 7/);
  });
});

describe('grey levels of enhanced images', () => {
  const frame = (values: number[]) => ({
    pixels: new Uint8Array(Uint16Array.from(values).buffer),
    rows: 1,
    columns: values.length,
    samplesPerPixel: 1,
    bitsAllocated: 16,
    photometricInterpretation: 'MONOCHROME2',
  });
  const noFile = () => Promise.resolve(null);
  const number = (v: number) => ({ Value: [v] });
  const item = (tag: string, value: Record<string, unknown>) => ({ [tag]: { Value: [value] } });

  it("take rescale and window from the frame's functional group, else from the shared one", async () => {
    // Raw 1024 + 49 is 49 HU after the −1024 intercept: the middle of window 49/102 (PS3.3 §C.11.2.1.2.1: 129).
    const values = [0, 1024 + 49 - 51, 1024 + 49, 1024 + 49 + 51, 4000];
    const metadata = {
      '52009229': {
        Value: [
          {
            ...item('00289145', { '00281052': number(-1024), '00281053': number(1) }),
            ...item('00289132', { '00281050': number(49), '00281051': number(102) }),
          },
        ],
      },
      '52009230': { Value: [{}, item('00289132', { '00281050': number(49 + 51), '00281051': number(102) })] },
    };
    const shared = await toDisplayImage(frame(values), 0, metadata, noFile, false);
    expect([...shared.data]).toEqual([0, 0, 129, 255, 255]);
    const ownWindow = await toDisplayImage(frame(values), 1, metadata, noFile, false);
    expect([...ownWindow.data]).toEqual([0, 0, 0, 129, 255]);
  });
});
