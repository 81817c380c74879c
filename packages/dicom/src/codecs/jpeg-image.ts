/**
 * Pictures as JPEG files, not DICOM frames: 8-bit grey or RGB pixels made a JPEG, and a JPEG file
 * read back to pixels. For a program that carries no native image library (the packaged router:
 * apps/router/src/image-lib.ts); the server uses sharp.
 */
import jpegJs from 'jpeg-js';
import { FrameDecodeError } from './errors.js';
import { loadJpeg8, loadJpegEncoder, runDecoder } from './wasm.js';

/** 8-bit samples, interleaved, row by row. */
export interface RasterImage {
  width: number;
  height: number;
  channels: 1 | 3;
  pixels: Uint8Array;
}

/**
 * Below this many samples the JPEG can outgrow the pixels (its headers alone are ~600 bytes), which
 * the WASM encoder cannot hold (below): those take the JavaScript encoder, quick at that size.
 */
const WASM_ENCODE_MIN_SAMPLES = 64 * 64;

/**
 * A JPEG file and the colour components it holds (what a PDF's /ColorSpace must say): a grey image
 * is one component, unless jpeg-js made it (below: three equal ones).
 */
export interface TJpeg {
  bytes: Uint8Array;
  components: 1 | 3;
}

/**
 * The image as a baseline JPEG (quality 1-100); one grey channel stays one (but see TJpeg). libjpeg-turbo's WASM
 * build encodes (6-7 ms a 512×512 frame, ~20× jpeg-js), but it writes into a buffer the size of
 * the pixels with no room to grow (cornerstonejs codecs, JPEGEncoder.hpp): a JPEG larger than its
 * pixels (a tiny image, or noise at high quality) throws inside the module or runs past its buffer,
 * whose heap is then not trusted. That image is made by jpeg-js (JavaScript) instead, and the
 * module is loaded afresh for the next.
 */
export async function encodeJpeg(image: RasterImage, quality: number): Promise<TJpeg> {
  const { width, height, channels, pixels } = image;
  if (pixels.length !== width * height * channels) {
    throw new RangeError(`${pixels.length} samples for a ${width}×${height}×${channels} image`);
  }
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  if (pixels.length >= WASM_ENCODE_MIN_SAMPLES) {
    const encoder = await loadJpegEncoder();
    try {
      // Synchronous from here to the copy: the heap views stay valid (see runDecoder).
      encoder
        .getDecodedBuffer({ width, height, bitsPerSample: 8, componentCount: channels, isSigned: false })
        .set(pixels);
      encoder.setQuality(q);
      encoder.setProgressive(0);
      encoder.encode();
      const jpeg = encoder.getEncodedBuffer();
      // Past the pixels' size libjpeg either throws or reports the length it wrote beyond the
      // buffer (an end of image marker, FF D9, then missing): either way, not this JPEG.
      if (jpeg.length <= pixels.length && jpeg.at(-2) === 0xff && jpeg.at(-1) === 0xd9) {
        return { bytes: jpeg.slice(), components: channels };
      }
    } catch {
      // Below: the same as an overrun.
    }
    loadJpegEncoder.reset();
  }
  return { bytes: encodeWithJpegJs(image, q), components: 3 };
}

/** jpeg-js takes RGBA only: a grey image goes in as three equal channels (its JPEG is then colour). */
function encodeWithJpegJs({ width, height, channels, pixels }: RasterImage, quality: number): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    for (let c = 0; c < 3; c++) rgba[i * 4 + c] = pixels[i * channels + (channels === 1 ? 0 : c)]!;
    rgba[i * 4 + 3] = 255;
  }
  return new Uint8Array(jpegJs.encode({ data: rgba, width, height }, quality).data);
}

/** A JPEG file's pixels (grey or RGB, 8-bit); a file libjpeg cannot read throws FrameDecodeError. */
export async function decodeJpegImage(bytes: Uint8Array): Promise<RasterImage> {
  const decoder = await loadJpeg8();
  let out;
  try {
    out = runDecoder(decoder, bytes, () => decoder.decode());
  } catch (error) {
    throw new FrameDecodeError('CORRUPT_FRAME', `not a JPEG image libjpeg reads: ${String(error)}`);
  }
  const { width, height, componentCount } = out.info;
  if (out.info.bitsPerSample !== 8 || (componentCount !== 1 && componentCount !== 3)) {
    throw new FrameDecodeError(
      'UNSUPPORTED',
      `a ${out.info.bitsPerSample}-bit JPEG of ${componentCount} components is not a picture`,
    );
  }
  return { width, height, channels: componentCount, pixels: out.bytes };
}
