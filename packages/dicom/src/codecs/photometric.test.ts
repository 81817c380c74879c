import { describe, expect, it } from 'vitest';
import { extractFrame } from '../frames.js';
import { parseInstance } from '../parse.js';
import { buildImage } from '../test-builders.js';
import { COMPRESSED_ONLY_CASES, PHOTOMETRIC_CASES } from '../test-images.js';
import { decodeFrame } from './decode-frame.js';
import { FrameDecodeError } from './errors.js';

/**
 * Issue 21 §2: every photometric interpretation and planar configuration native pixel data may
 * carry (PS3.3 §C.7.6.3.1.2), generated with known pixels, decodes to those pixels; the ones only
 * compressed syntaxes may carry are refused by name, never turned into wrong pixels.
 */

/** Samples of a decoded frame as numbers (16-bit read little endian, signed when the file says). */
function samplesOf(pixels: Uint8Array, bitsAllocated: number, signed: boolean): number[] {
  if (bitsAllocated === 8) return [...pixels];
  const view = new DataView(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  return Array.from({ length: pixels.length / 2 }, (_, i) =>
    signed ? view.getInt16(i * 2, true) : view.getUint16(i * 2, true),
  );
}

function decodeInput(bytes: Uint8Array, index: number) {
  const parsed = parseInstance(bytes);
  const image = parsed.image!;
  return {
    transferSyntaxUid: parsed.transferSyntaxUid,
    bytes: extractFrame(bytes, parsed, index),
    rows: image.rows,
    columns: image.columns,
    bitsAllocated: image.bitsAllocated!,
    samplesPerPixel: image.samplesPerPixel,
    pixelRepresentation: image.pixelRepresentation ?? 0,
    photometricInterpretation: image.photometricInterpretation!,
    planarConfiguration: image.planarConfiguration,
  };
}

describe('decodeFrame of generated native images with known pixels', () => {
  it.each(PHOTOMETRIC_CASES.map((c) => [c.name, c] as const))('%s', async (_, testCase) => {
    const { bytes } = buildImage(testCase.image);
    for (const [index, expected] of testCase.decoded.entries()) {
      const decoded = await decodeFrame(decodeInput(bytes, index));
      const got = samplesOf(decoded.pixels, decoded.bitsAllocated, testCase.image.pixelRepresentation === 1);
      expect(got, `frame ${index + 1}`).toHaveLength(expected.length);
      got.forEach((v, i) =>
        expect(
          Math.abs(v - (expected[i] as number)),
          `frame ${index + 1} sample ${i}: ${v} vs ${expected[i]}`,
        ).toBeLessThanOrEqual(testCase.tolerance),
      );
      const colour = testCase.image.samplesPerPixel === 3;
      expect(decoded.photometricInterpretation).toBe(
        colour ? 'RGB' : testCase.image.photometricInterpretation,
      );
    }
  });

  it.each(COMPRESSED_ONLY_CASES.map((c) => [c.photometricInterpretation, c] as const))(
    'a native %s frame is refused by name',
    async (photometric, image) => {
      const { bytes } = buildImage(image);
      const error = await decodeFrame(decodeInput(bytes, 0)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FrameDecodeError);
      expect((error as FrameDecodeError).code).toBe('UNSUPPORTED');
      expect((error as Error).message).toContain(photometric);
    },
  );
});
