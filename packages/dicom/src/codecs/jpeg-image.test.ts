import { describe, expect, it } from 'vitest';
import { type RasterImage, decodeJpegImage, encodeJpeg } from './jpeg-image.js';

const gradient = (width: number, height: number, channels: 1 | 3): RasterImage => {
  const pixels = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) {
        pixels[(y * width + x) * channels + c] = Math.round(((x + y + c * 40) / (width + height + 80)) * 255);
      }
    }
  }
  return { width, height, channels, pixels };
};

/** The largest difference of one sample between two images of the same size. */
const maxDifference = (a: RasterImage, b: RasterImage) => {
  let max = 0;
  for (let i = 0; i < a.pixels.length; i++) max = Math.max(max, Math.abs(a.pixels[i]! - b.pixels[i]!));
  return max;
};

describe('encodeJpeg / decodeJpegImage', () => {
  it.each([
    [1, 512, 384],
    [3, 300, 200],
  ] as const)(
    'a %i-channel %ix%i picture comes back the same size and close to its pixels',
    async (channels, w, h) => {
      const image = gradient(w, h, channels);
      const { bytes, components } = await encodeJpeg(image, 90);
      expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
      expect(components).toBe(channels);
      const back = await decodeJpegImage(bytes);
      expect({ width: back.width, height: back.height, channels: back.channels }).toEqual({
        width: w,
        height: h,
        channels,
      });
      expect(maxDifference(image, back)).toBeLessThanOrEqual(8);
    },
  );

  it('a JPEG larger than its pixels (a tiny image, noise at full quality) is still made, and the next one too', async () => {
    const tiny = gradient(2, 2, 1);
    const small = await encodeJpeg(tiny, 90);
    // jpeg-js writes three components, and says so (a PDF must not call it grey).
    expect(small.components).toBe(3);
    expect(await decodeJpegImage(small.bytes)).toMatchObject({ width: 2, height: 2, channels: 3 });
    let seed = 1;
    const noise: RasterImage = {
      width: 128,
      height: 128,
      channels: 1,
      pixels: new Uint8Array(128 * 128).map(() => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24),
    };
    const noisy = await encodeJpeg(noise, 100);
    expect(noisy.bytes.length).toBeGreaterThan(noise.pixels.length);
    expect(await decodeJpegImage(noisy.bytes)).toMatchObject({
      width: 128,
      height: 128,
      channels: noisy.components,
    });
    const after = gradient(512, 512, 1);
    expect(
      maxDifference(after, await decodeJpegImage((await encodeJpeg(after, 90)).bytes)),
    ).toBeLessThanOrEqual(8);
  });

  it('refuses pixels that do not fill the size given', async () => {
    await expect(
      encodeJpeg({ width: 4, height: 4, channels: 1, pixels: new Uint8Array(15) }, 90),
    ).rejects.toThrow(RangeError);
  });

  it('a file that is not a JPEG is a FrameDecodeError', async () => {
    await expect(decodeJpegImage(new Uint8Array([0xff, 0xd8, 1, 2, 3]))).rejects.toThrow(/not a JPEG/);
  });
});
