import { describe, expect, it } from 'vitest';
import { blankTopLevelText } from './blank-element.js';
import { parseInstance } from './index.js';
import { buildImage } from './test-builders.js';

const image = (institutionName?: string) =>
  buildImage({
    rows: 2,
    columns: 2,
    samplesPerPixel: 1,
    photometricInterpretation: 'MONOCHROME2',
    bitsAllocated: 8,
    frames: [new Uint8Array([1, 2, 3, 4])],
    ...(institutionName === undefined ? {} : { institutionName }),
  }).bytes;

describe('blankTopLevelText (issue 29 §6 removeCenterNameWhileUploading)', () => {
  it('blanks Institution Name in place: same length, nothing else changed, the name reads empty', () => {
    const original = image('Sunrise Diagnostics');
    expect(parseInstance(original).index.institutionName).toBe('Sunrise Diagnostics');
    const blanked = blankTopLevelText(original, 'x00080080');
    expect(blanked.length).toBe(original.length);
    expect(parseInstance(blanked).index.institutionName ?? '').toBe('');
    expect(Buffer.from(blanked).includes('Sunrise')).toBe(false);
    const changed = [...blanked.keys()].filter((i) => blanked[i] !== original[i]);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every((i) => blanked[i] === 0x20)).toBe(true);
    // The original is not touched.
    expect(Buffer.from(original).includes('Sunrise Diagnostics')).toBe(true);
  });

  it('answers the same bytes when there is no name, or the bytes are not DICOM', () => {
    const without = image();
    expect(blankTopLevelText(without, 'x00080080')).toBe(without);
    const junk = new Uint8Array([1, 2, 3]);
    expect(blankTopLevelText(junk, 'x00080080')).toBe(junk);
  });
});
