import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodePicture, fitInside, toGrey } from './image-lib.js';

const png = (width: number, height: number, rgba: number[], colorType: 0 | 2 | 4 | 6 = 6) => {
  const image = new PNG({ width, height, colorType, inputColorType: 6 });
  image.data = Buffer.from(rgba);
  return new Uint8Array(PNG.sync.write(image, { colorType, inputColorType: 6 }));
};

describe('the router image library (no native module)', () => {
  it('lays a PNG’s transparency on the background asked; a grey PNG stays one channel', async () => {
    // Two pixels: opaque red, half-transparent white.
    const colour = png(2, 1, [255, 0, 0, 255, 255, 255, 255, 128]);
    expect(await decodePicture(colour, 0)).toEqual({
      width: 2,
      height: 1,
      channels: 3,
      pixels: new Uint8Array([255, 0, 0, 128, 128, 128]),
    });
    const grey = png(2, 1, [10, 10, 10, 255, 200, 200, 200, 0], 4);
    expect(await decodePicture(grey, 255)).toMatchObject({ channels: 1, pixels: new Uint8Array([10, 255]) });
  });

  it('refuses what is neither JPEG nor PNG', async () => {
    await expect(decodePicture(new TextEncoder().encode('GIF89a…'), 0)).rejects.toThrow(/not a JPEG or PNG/);
  });

  it('shrinks to fit inside, each pixel the mean of those it covers, never enlarging', () => {
    const image = {
      width: 4,
      height: 2,
      channels: 1 as const,
      pixels: new Uint8Array([0, 100, 10, 30, 200, 100, 50, 70]),
    };
    expect(fitInside(image, 2, 2)).toEqual({
      width: 2,
      height: 1,
      channels: 1,
      pixels: new Uint8Array([100, 40]),
    });
    expect(fitInside(image, 100, 100)).toBe(image);
  });

  it('makes one grey channel of RGB (BT.601 luma)', () => {
    const rgb = { width: 2, height: 1, channels: 3 as const, pixels: new Uint8Array([255, 0, 0, 0, 0, 255]) };
    expect(toGrey(rgb).pixels).toEqual(new Uint8Array([76, 29]));
  });
});
