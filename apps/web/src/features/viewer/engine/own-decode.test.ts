import { convertColorSpace, decodeImageFrame, isColorImage } from '@cornerstonejs/dicom-image-loader';
import { describe, expect, it } from 'vitest';
import { extractFrame, parseInstance } from '@radflow/dicom';
import { buildImage, type TestImage } from '../../../../../../packages/dicom/src/test-builders';
import { COMPRESSED_ONLY_CASES, PHOTOMETRIC_CASES } from '../../../../../../packages/dicom/src/test-images';
// createImage's rule for converting colour (YBR, planar, palette) or taking a frame as RGB is not
// exported by the package (its exports map): imported from its file.
import isColorConversionRequired from '../../../../../../node_modules/@cornerstonejs/dicom-image-loader/dist/esm/imageLoader/isColorConversionRequired.js';
import { prepareFrame, type TPixelModule } from './own-decode';

/**
 * Issue 21 §2, the viewer's side: a frame of each generated image (packages/dicom test-images.ts),
 * as WADO-RS sends it, through what the viewer does with it — our preparation, then Cornerstone's
 * own decode (its worker's decodeImageFrame) and colour conversion, the steps its createImage takes
 * — gives the image's known pixels: stored values for greyscale, the RGB shown for colour.
 */

function pixelModuleOf(image: TestImage): TPixelModule {
  const bitsStored = image.bitsStored ?? image.bitsAllocated;
  return {
    rows: image.rows,
    columns: image.columns,
    samplesPerPixel: image.samplesPerPixel,
    bitsAllocated: image.bitsAllocated,
    bitsStored,
    highBit: bitsStored - 1,
    pixelRepresentation: image.pixelRepresentation ?? 0,
    photometricInterpretation: image.photometricInterpretation,
    planarConfiguration: image.planarConfiguration ?? 0,
    ...(image.palette
      ? {
          redPaletteColorLookupTableDescriptor: [image.palette.red.length, image.palette.first, 16],
          greenPaletteColorLookupTableDescriptor: [image.palette.green.length, image.palette.first, 16],
          bluePaletteColorLookupTableDescriptor: [image.palette.blue.length, image.palette.first, 16],
          redPaletteColorLookupTableData: image.palette.red,
          greenPaletteColorLookupTableData: image.palette.green,
          bluePaletteColorLookupTableData: image.palette.blue,
        }
      : {}),
  };
}

/** What the viewport shows for one frame: greyscale stored values, or RGB triples. */
async function viewerPixels(
  frame: Uint8Array,
  transferSyntaxUid: string,
  pixel: TPixelModule,
): Promise<number[]> {
  const prepared = await prepareFrame({ transferSyntaxUid, bytes: frame.slice() }, pixel);
  const module = prepared.pixelModule ?? pixel;
  const imageFrame = { ...module, pixelData: undefined as unknown };
  const decoded = (await decodeImageFrame(
    imageFrame as never,
    prepared.transferSyntaxUid,
    prepared.pixelData,
    {},
    { preScale: { enabled: false } } as never,
    undefined,
  )) as unknown as { pixelData: ArrayLike<number>; pixelDataLength: number };
  if (!isColorImage(module.photometricInterpretation)) return Array.from(decoded.pixelData);
  if (!isColorConversionRequired({ ...module, ...decoded } as never)) return Array.from(decoded.pixelData);
  const rgb = new Uint8ClampedArray(module.rows * module.columns * 3);
  convertColorSpace({ ...module, ...decoded } as never, rgb, false);
  return Array.from(rgb);
}

function framesOf(bytes: Uint8Array) {
  const parsed = parseInstance(bytes);
  const count = parsed.image?.numberOfFrames ?? 1;
  return {
    syntax: parsed.transferSyntaxUid,
    frames: Array.from({ length: count }, (_, i) => extractFrame(bytes, parsed, i)),
  };
}

describe("the viewer's decode of generated images with known pixels", () => {
  it.each(PHOTOMETRIC_CASES.map((c) => [c.name, c] as const))('%s', async (_, testCase) => {
    const { syntax, frames } = framesOf(buildImage(testCase.image).bytes);
    const colour = isColorImage(testCase.image.photometricInterpretation);
    for (const [index, frame] of frames.entries()) {
      const got = await viewerPixels(frame, syntax, pixelModuleOf(testCase.image));
      const expected = colour
        ? index === 0
          ? testCase.display.flat()
          : []
        : (testCase.decoded[index] as number[]);
      if (colour && index > 0) continue;
      expect(got, `frame ${index + 1}`).toHaveLength(expected.length);
      got.forEach((v, i) =>
        expect(
          Math.abs(v - (expected[i] as number)),
          `frame ${index + 1} sample ${i}: ${v} vs ${expected[i]}`,
        ).toBeLessThanOrEqual(testCase.tolerance),
      );
    }
  });

  it.each(COMPRESSED_ONLY_CASES.map((c) => [c.photometricInterpretation, c] as const))(
    'a native %s frame is refused by name, never drawn',
    async (photometric, image) => {
      const { syntax, frames } = framesOf(buildImage(image).bytes);
      await expect(
        prepareFrame({ transferSyntaxUid: syntax, bytes: frames[0]! }, pixelModuleOf(image)),
      ).rejects.toThrow(photometric);
    },
  );
});
