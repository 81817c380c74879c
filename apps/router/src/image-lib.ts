import { PNG } from 'pngjs';
import { type RasterImage, decodeJpegImage, encodeJpeg } from '@radflow/dicom';

/*
 * The router's pictures without a native module: the one-file release (packaging/build.ts) runs on
 * plain Node, where sharp cannot load, so a rendered frame or a print failed on every installed
 * router. JPEG in and out is libjpeg-turbo's WASM build (packages/dicom, the codecs the router
 * already ships), PNG in is pngjs (JavaScript), and the two steps sharp did besides (shrink to fit,
 * flatten transparency) are here.
 */

export { encodeJpeg, type RasterImage };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const isPng = (bytes: Uint8Array) => PNG_SIGNATURE.every((b, i) => bytes[i] === b);
const isJpeg = (bytes: Uint8Array) => bytes[0] === 0xff && bytes[1] === 0xd8;

/**
 * A JPEG or PNG picture as 8-bit pixels, transparency laid on `background` (a grey level: 0 black,
 * as a film; 255 white, as paper). A grey PNG stays one channel. Anything else throws.
 */
export async function decodePicture(bytes: Uint8Array, background: number): Promise<RasterImage> {
  if (isJpeg(bytes)) return decodeJpegImage(bytes);
  if (!isPng(bytes)) throw new Error('not a JPEG or PNG image');
  // RGBA, 8 bits a sample whatever the file's depth, palette or grey.
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const grey = (png.colorType & 2) === 0;
  const channels = grey ? 1 : 3;
  const count = png.width * png.height;
  const pixels = new Uint8Array(count * channels);
  const rgba = png.data;
  for (let i = 0; i < count; i++) {
    const alpha = rgba[i * 4 + 3]! / 255;
    for (let c = 0; c < channels; c++) {
      pixels[i * channels + c] = Math.round(rgba[i * 4 + c]! * alpha + background * (1 - alpha));
    }
  }
  return { width: png.width, height: png.height, channels, pixels };
}

/**
 * The image shrunk to fit inside `maxWidth` × `maxHeight`, its shape kept, never enlarged: each
 * pixel the mean of the source pixels it covers (a box filter, as for downsampling a radiograph to
 * a screen, with no ringing at edges).
 */
export function fitInside(image: RasterImage, maxWidth: number, maxHeight: number): RasterImage {
  const { width, height, channels, pixels } = image;
  const scale = Math.min(maxWidth / width, maxHeight / height, 1);
  if (scale >= 1) return image;
  const outWidth = Math.max(1, Math.round(width * scale));
  const outHeight = Math.max(1, Math.round(height * scale));
  const out = new Uint8Array(outWidth * outHeight * channels);
  const sums = new Float64Array(channels);
  for (let y = 0; y < outHeight; y++) {
    const y0 = Math.floor((y * height) / outHeight);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * height) / outHeight));
    for (let x = 0; x < outWidth; x++) {
      const x0 = Math.floor((x * width) / outWidth);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * width) / outWidth));
      sums.fill(0);
      for (let sy = y0; sy < y1; sy++) {
        let at = (sy * width + x0) * channels;
        for (let sx = x0; sx < x1; sx++) {
          for (let c = 0; c < channels; c++) sums[c]! += pixels[at++]!;
        }
      }
      const area = (y1 - y0) * (x1 - x0);
      const to = (y * outWidth + x) * channels;
      for (let c = 0; c < channels; c++) out[to + c] = Math.round(sums[c]! / area);
    }
  }
  return { width: outWidth, height: outHeight, channels, pixels: out };
}

/** One grey channel (ITU-R BT.601 luma from RGB). */
export function toGrey(image: RasterImage): RasterImage {
  if (image.channels === 1) return image;
  const count = image.width * image.height;
  const out = new Uint8Array(count);
  const p = image.pixels;
  for (let i = 0; i < count; i++) {
    out[i] = Math.round(0.299 * p[i * 3]! + 0.587 * p[i * 3 + 1]! + 0.114 * p[i * 3 + 2]!);
  }
  return { width: image.width, height: image.height, channels: 1, pixels: out };
}
