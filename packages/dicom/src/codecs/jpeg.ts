/**
 * JPEG (ISO 10918-1) frames: baseline and extended 8-bit through libjpeg-turbo (WASM), lossless
 * (process 14, any selection value) through jpeg-lossless-decoder-js, and 12-bit extended through
 * the DCT decoder in jpeg-dct.ts (libjpeg-turbo's WASM build is 8-bit only).
 */
import { FrameDecodeError } from './errors.js';
import { loadJpeg8, runDecoder, type WasmOutput } from './wasm.js';

/** The frame header (SOFn, ISO 10918-1 §B.2.2) fields the dispatch needs. */
export interface JpegFrameHeader {
  /** The SOF marker's low byte: 0xc0 baseline, 0xc1 extended, 0xc3 lossless, … */
  process: number;
  precision: number;
  rows: number;
  columns: number;
  components: number;
}

export function readJpegFrameHeader(bytes: Uint8Array): JpegFrameHeader | null {
  let at = 2; // after SOI
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) {
      at++;
      continue;
    }
    const marker = bytes[at + 1] as number;
    if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    const length = ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number);
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof && at + 9 < bytes.length) {
      return {
        process: marker,
        precision: bytes[at + 4] as number,
        rows: ((bytes[at + 5] as number) << 8) | (bytes[at + 6] as number),
        columns: ((bytes[at + 7] as number) << 8) | (bytes[at + 8] as number),
        components: bytes[at + 9] as number,
      };
    }
    if (marker === 0xda) return null; // scan data before any frame header
    at += 2 + length;
  }
  return null;
}

/** An APP14 "Adobe" segment whose transform flag tells libjpeg the colour space (T.872 §6.5.3). */
function adobeSegment(transform: 0 | 1): Uint8Array {
  // FFEE, length 14, "Adobe", version 100, flags0 0, flags1 0, transform.
  return new Uint8Array([0xff, 0xee, 0, 14, 0x41, 0x64, 0x6f, 0x62, 0x65, 0, 100, 0, 0, 0, 0, transform]);
}

/**
 * The frame with its colour space stated where the JPEG stream does not state it. A JFIF marker
 * (always YCbCr) or an Adobe marker (its transform flag) in the stream wins: vendors label
 * YCbCr JPEG as RGB often enough (PS3.5 §8.2.1 notes). Without either, libjpeg would guess from
 * component ids and take 0,1,2 for YCbCr, so the Photometric Interpretation decides through an
 * Adobe APP14 put first: transform 0 for RGB (`sc_rgb_jpeg_no_color_transform.dcm`), 1 for YBR_*.
 */
export function withColourSpace(frame: Uint8Array, isRgb: boolean): Uint8Array {
  let at = 2;
  while (at + 4 <= frame.length && frame[at] === 0xff) {
    const marker = frame[at + 1] as number;
    if (marker === 0xda || marker === 0xd9) break;
    const isJfif = marker === 0xe0 && frame[at + 4] === 0x4a && frame[at + 5] === 0x46;
    const isAdobe = marker === 0xee && frame[at + 4] === 0x41 && frame[at + 5] === 0x64;
    if (isJfif || isAdobe) return frame;
    at += 2 + (((frame[at + 2] as number) << 8) | (frame[at + 3] as number));
  }
  const adobe = adobeSegment(isRgb ? 0 : 1);
  const out = new Uint8Array(frame.length + adobe.length);
  out.set(frame.subarray(0, 2), 0);
  out.set(adobe, 2);
  out.set(frame.subarray(2), 2 + adobe.length);
  return out;
}

/**
 * 8-bit DCT JPEG through libjpeg-turbo. Three-component frames: YBR_* Photometric Interpretation
 * are converted to RGB by libjpeg, RGB ones are left as they are (see {@link withColourSpace}).
 */
export async function decodeJpeg8(frame: Uint8Array, photometric: string): Promise<WasmOutput> {
  const decoder = await loadJpeg8();
  const header = readJpegFrameHeader(frame);
  const stated = header?.components === 3 ? withColourSpace(frame, !photometric.startsWith('YBR')) : frame;
  try {
    return runDecoder(decoder, stated, () => decoder.decode());
  } catch (error) {
    throw new FrameDecodeError('CORRUPT_FRAME', `libjpeg-turbo: ${String(error)}`);
  }
}

/** Lossless JPEG (process 14): samples of 1 or 2 bytes, native little endian. */
export async function decodeJpegLossless(frame: Uint8Array, bytesPerSample: 1 | 2): Promise<Uint8Array> {
  const { Decoder } = await import('@cornerstonejs/jpeg-lossless-decoder-js');
  let decoded: Uint8Array | Uint16Array;
  try {
    // The decoder reads from an ArrayBuffer: give it one that holds exactly this frame.
    const own = frame.slice();
    decoded = new Decoder().decode(own.buffer, 0, own.length, bytesPerSample);
  } catch (error) {
    throw new FrameDecodeError('CORRUPT_FRAME', `lossless JPEG: ${String(error)}`);
  }
  // Uint16Array holds host (little endian on every platform Node runs on) byte order.
  return new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength);
}
