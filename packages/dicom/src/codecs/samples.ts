/**
 * Sample layout helpers: every decoder's output is brought to DICOM native layout (PS3.5 §8.1.1),
 * little endian, colour samples interleaved (Planar Configuration 0), so one renderer reads all.
 */
import { FrameDecodeError } from './errors.js';

/** Planar (RRR…GGG…BBB…) to interleaved (RGBRGB…) samples of `bytesPerSample` bytes each. */
export function interleavePlanes(
  planar: Uint8Array,
  pixels: number,
  samples: number,
  bytesPerSample: number,
): Uint8Array {
  const out = new Uint8Array(pixels * samples * bytesPerSample);
  for (let s = 0; s < samples; s++) {
    for (let i = 0; i < pixels; i++) {
      const from = (s * pixels + i) * bytesPerSample;
      const to = (i * samples + s) * bytesPerSample;
      for (let b = 0; b < bytesPerSample; b++) out[to + b] = planar[from + b] as number;
    }
  }
  return out;
}

/** Byte-swaps every `width`-byte word (big endian native pixel data, PS3.5 §A.3). */
export function swapWords(bytes: Uint8Array, width: 2 | 4): Uint8Array {
  const out = new Uint8Array(bytes.length - (bytes.length % width));
  for (let i = 0; i < out.length; i += width) {
    for (let b = 0; b < width; b++) out[i + b] = bytes[i + width - 1 - b] as number;
  }
  return out;
}

const clamp8 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/** YBR_FULL to RGB in place, 8-bit interleaved samples (PS3.3 §C.7.6.3.1.2). */
export function ybrFullToRgb(data: Uint8Array): Uint8Array {
  for (let i = 0; i + 2 < data.length; i += 3) {
    const y = data[i] as number;
    const cb = (data[i + 1] as number) - 128;
    const cr = (data[i + 2] as number) - 128;
    data[i] = clamp8(y + 1.402 * cr);
    data[i + 1] = clamp8(y - 0.344136 * cb - 0.714136 * cr);
    data[i + 2] = clamp8(y + 1.772 * cb);
  }
  return data;
}

/** YBR_PARTIAL (ITU-R BT.601 studio range, PS3.3 §C.7.6.3.1.2) to RGB in place, 8-bit interleaved. */
export function ybrPartialToRgb(data: Uint8Array): Uint8Array {
  for (let i = 0; i + 2 < data.length; i += 3) {
    const y = 1.164383 * ((data[i] as number) - 16);
    const cb = (data[i + 1] as number) - 128;
    const cr = (data[i + 2] as number) - 128;
    data[i] = clamp8(y + 1.596027 * cr);
    data[i + 1] = clamp8(y - 0.391762 * cb - 0.812968 * cr);
    data[i + 2] = clamp8(y + 2.017232 * cb);
  }
  return data;
}

/**
 * Native YBR_FULL_422 / YBR_PARTIAL_422 (Y1 Y2 Cb Cr for each two pixels of a row,
 * §C.7.6.3.1.2) to interleaved RGB.
 */
export function ybr422ToRgb(
  data: Uint8Array,
  rows: number,
  columns: number,
  range: 'full' | 'partial',
): Uint8Array {
  const out = new Uint8Array(rows * columns * 3);
  const pairsPerRow = Math.ceil(columns / 2);
  for (let r = 0; r < rows; r++) {
    for (let p = 0; p < pairsPerRow; p++) {
      const at = (r * pairsPerRow + p) * 4;
      const cb = data[at + 2] as number;
      const cr = data[at + 3] as number;
      for (let k = 0; k < 2 && p * 2 + k < columns; k++) {
        const to = (r * columns + p * 2 + k) * 3;
        out[to] = data[at + k] as number;
        out[to + 1] = cb;
        out[to + 2] = cr;
      }
    }
  }
  return range === 'full' ? ybrFullToRgb(out) : ybrPartialToRgb(out);
}

/**
 * Codec samples of `fromBytes` bytes to the file's Bits Allocated: a codec that reports 8-bit
 * precision for a 16-bit image gives one byte per sample, widened here (sign-extended when
 * signed). Narrowing would lose data: the frame does not match its header.
 */
export function toSampleWidth(
  bytes: Uint8Array,
  count: number,
  fromBytes: number,
  toBytes: number,
  isSigned: boolean,
): Uint8Array {
  if (fromBytes === toBytes) return bytes;
  if (fromBytes === 1 && toBytes === 2) {
    const out = new Uint8Array(count * 2);
    for (let i = 0; i < count; i++) {
      const v = bytes[i] as number;
      out[i * 2] = v;
      out[i * 2 + 1] = isSigned && v >= 128 ? 0xff : 0;
    }
    return out;
  }
  throw new FrameDecodeError(
    'CORRUPT_FRAME',
    `the codec gives ${fromBytes * 8}-bit samples for a ${toBytes * 8}-bit image`,
  );
}

/** Bits Allocated 1 (packed, least significant bit first, PS3.5 §8.1.1) to one byte per pixel. */
export function unpackBits(bytes: Uint8Array, pixels: number): Uint8Array {
  const out = new Uint8Array(pixels);
  for (let i = 0; i < pixels; i++) out[i] = ((bytes[i >> 3] as number) >> (i & 7)) & 1;
  return out;
}
