/**
 * RLE Lossless (PS3.5 Annex G). A frame is a 64-byte header (segment count, then up to 15 segment
 * offsets, little endian) followed by PackBits segments. Segment k holds one byte of one sample for
 * every pixel: the samples in order, and within a sample its most significant byte first
 * (§G.2). The output is native little endian with colour samples interleaved (Planar
 * Configuration 0), whatever the file's Planar Configuration says (§G.2 makes it irrelevant).
 */
import { FrameDecodeError } from './errors.js';

export interface RleFrameShape {
  rows: number;
  columns: number;
  samplesPerPixel: number;
  bitsAllocated: number;
}

function readUint32(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] as number) |
      ((bytes[at + 1] as number) << 8) |
      ((bytes[at + 2] as number) << 16) |
      ((bytes[at + 3] as number) << 24)) >>>
    0
  );
}

/** PackBits (§G.3.1) from `bytes[start, end)` into every `stride`-th byte of `out` from `first`. */
function unpackSegment(
  bytes: Uint8Array,
  start: number,
  end: number,
  out: Uint8Array,
  first: number,
  stride: number,
  count: number,
): void {
  let at = start;
  let written = 0;
  let to = first;
  while (at < end && written < count) {
    const header = bytes[at++] as number;
    if (header < 128) {
      // n + 1 literal bytes.
      const run = Math.min(header + 1, count - written, end - at);
      for (let i = 0; i < run; i++, to += stride) out[to] = bytes[at + i] as number;
      at += header + 1;
      written += run;
    } else if (header > 128) {
      // The next byte 257 − n times.
      const value = bytes[at++] as number;
      const run = Math.min(257 - header, count - written);
      for (let i = 0; i < run; i++, to += stride) out[to] = value;
      written += run;
    }
    // 128 is a no-op (§G.3.1).
  }
  if (written < count) {
    throw new FrameDecodeError(
      'CORRUPT_FRAME',
      `an RLE segment decodes to ${written} bytes, ${count} expected`,
    );
  }
}

export function decodeRle(frame: Uint8Array, shape: RleFrameShape): Uint8Array {
  const bytesPerSample = shape.bitsAllocated / 8;
  if (!Number.isInteger(bytesPerSample) || bytesPerSample < 1 || bytesPerSample > 4) {
    throw new FrameDecodeError('UNSUPPORTED', `RLE with ${shape.bitsAllocated}-bit samples`);
  }
  const pixels = shape.rows * shape.columns;
  const expected = shape.samplesPerPixel * bytesPerSample;
  if (frame.length < 64) throw new FrameDecodeError('CORRUPT_FRAME', 'the RLE header is cut');
  const segments = readUint32(frame, 0);
  if (segments !== expected) {
    throw new FrameDecodeError(
      'CORRUPT_FRAME',
      `the RLE frame has ${segments} segments; ${shape.samplesPerPixel} sample(s) of ${shape.bitsAllocated} bits need ${expected}`,
    );
  }
  const offsets = Array.from({ length: segments }, (_, i) => readUint32(frame, 4 + i * 4));
  const out = new Uint8Array(pixels * expected);
  for (let segment = 0; segment < segments; segment++) {
    const start = offsets[segment] as number;
    const end = segment + 1 < segments ? (offsets[segment + 1] as number) : frame.length;
    if (start < 64 || end > frame.length || start > end) {
      throw new FrameDecodeError('CORRUPT_FRAME', `RLE segment ${segment + 1} lies outside the frame`);
    }
    const sample = Math.floor(segment / bytesPerSample);
    const byteFromMsb = segment % bytesPerSample;
    const first = sample * bytesPerSample + (bytesPerSample - 1 - byteFromMsb);
    unpackSegment(frame, start, end, out, first, expected, pixels);
  }
  return out;
}
