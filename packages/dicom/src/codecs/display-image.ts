import type { DecodedFrame } from './decode-frame.js';
import { FrameDecodeError } from './errors.js';

/**
 * Decoded pixels (native layout, from `decodeFrame`) to an 8-bit image an encoder (sharp) takes:
 * modality rescale, the first VOI window or min–max, MONOCHROME1 inversion, RGB, palette colour
 * (normal and segmented lookup tables, PS3.3 §C.7.9), Float Pixel Data. Shared by the server's
 * rendered frames and the router's offline ones (apps/router HYBRID.md), so both draw alike. What
 * it cannot draw is a FrameDecodeError UNSUPPORTED naming why.
 */

export type DisplayMetadata = Record<string, { Value?: unknown[]; InlineBinary?: string } | undefined>;

/** Raw 8-bit pixels (1 or 3 channels) of one frame. */
export interface DisplayImage {
  width: number;
  height: number;
  channels: 1 | 3;
  data: Buffer;
}

/** Reads a value of the instance that may be bulk data (palette LUT data) from the stored file. */
export type ReadElement = (tag: string) => Promise<Uint8Array | null>;

const numbers = (metadata: DisplayMetadata, tag: string): number[] =>
  (metadata[tag]?.Value ?? []).filter((v): v is number => typeof v === 'number');
const first = (metadata: DisplayMetadata, tag: string): number | null => numbers(metadata, tag)[0] ?? null;

const unsupported = (why: string) => new FrameDecodeError('UNSUPPORTED', why);

function readSamples(
  frame: Uint8Array,
  count: number,
  bitsAllocated: number,
  bitsStored: number,
  isSigned: boolean,
  isFloat: boolean,
): Float64Array {
  const out = new Float64Array(count);
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const shift = 32 - bitsStored;
  const mask = bitsStored >= 32 ? 0xffffffff : 2 ** bitsStored - 1;
  for (let i = 0; i < count; i++) {
    if (isFloat) {
      out[i] = bitsAllocated === 64 ? view.getFloat64(i * 8, true) : view.getFloat32(i * 4, true);
      continue;
    }
    let raw: number;
    if (bitsAllocated === 8) raw = frame[i] ?? 0;
    else if (bitsAllocated === 16) raw = i * 2 + 1 < frame.length ? view.getUint16(i * 2, true) : 0;
    else raw = i * 4 + 3 < frame.length ? view.getUint32(i * 4, true) : 0;
    out[i] = isSigned ? (raw << shift) >> shift : (raw & mask) >>> 0;
  }
  return out;
}

/** A window asked for in the request (PS3.18 `window`), in place of the image's own. */
export interface DisplayWindow {
  center: number;
  width: number;
  fn: 'LINEAR' | 'SIGMOID';
}

/** PS3.3 §C.11.2.1.3.1 SIGMOID VOI function to 0..255. */
function toGraySigmoid(values: Float64Array, center: number, width: number, invert: boolean): Buffer {
  const out = Buffer.alloc(values.length);
  for (let i = 0; i < values.length; i++) {
    const g = Math.round(255 / (1 + Math.exp((-4 * ((values[i] as number) - center)) / width)));
    out[i] = invert ? 255 - g : g;
  }
  return out;
}

/** PS3.3 §C.11.2.1.2.1 linear VOI function to 0..255, or min–max when there is no window. */
function toGray(values: Float64Array, center: number | null, width: number | null, invert: boolean): Buffer {
  let low: number;
  let high: number;
  if (center !== null && width !== null && width >= 1) {
    low = center - 0.5 - (width - 1) / 2;
    high = center - 0.5 + (width - 1) / 2;
  } else {
    low = Infinity;
    high = -Infinity;
    for (const v of values) {
      if (!Number.isFinite(v)) continue;
      if (v < low) low = v;
      if (v > high) high = v;
    }
  }
  const range = high - low || 1;
  const out = Buffer.alloc(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    const g = !(v > low) ? 0 : v > high ? 255 : Math.round(((v - low) / range) * 255);
    out[i] = invert ? 255 - g : g;
  }
  return out;
}

const words = (bytes: Uint8Array): Uint16Array => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Uint16Array.from({ length: bytes.byteLength >> 1 }, (_, i) => view.getUint16(i * 2, true));
};

/**
 * Segmented palette colour LUT data (PS3.3 §C.7.9.2): discrete (0), linear (1) and indirect (2)
 * segments of 16-bit words, expanded to the plain table.
 */
export function expandSegmentedLut(data: Uint16Array, entries: number): Uint16Array {
  const out: number[] = [];
  const expand = (from: number, to: number, depth: number) => {
    let at = from;
    while (at + 1 < to && out.length < entries) {
      const type = data[at] as number;
      const length = data[at + 1] as number;
      if (type === 0) {
        for (let i = 0; i < length; i++) out.push(data[at + 2 + i] ?? 0);
        at += 2 + length;
      } else if (type === 1) {
        const start = out.length ? (out[out.length - 1] as number) : 0;
        const end = data[at + 2] ?? 0;
        for (let i = 1; i <= length; i++) out.push(Math.round(start + ((end - start) * i) / length));
        at += 3;
      } else if (type === 2 && depth === 0) {
        const offset = (data[at + 2] ?? 0) + (data[at + 3] ?? 0) * 65536;
        // `length` segments copied from the word at `offset`.
        let segmentAt = offset;
        for (let s = 0; s < length && segmentAt + 1 < data.length; s++) {
          const segmentType = data[segmentAt] as number;
          const segmentLength = data[segmentAt + 1] as number;
          const size = segmentType === 0 ? 2 + segmentLength : segmentType === 1 ? 3 : 4;
          expand(segmentAt, segmentAt + size, depth + 1);
          segmentAt += size;
        }
        at += 4;
      } else {
        throw unsupported(`a segmented palette lookup table has a segment of type ${type}`);
      }
    }
  };
  expand(0, data.length, 0);
  return Uint16Array.from(out.slice(0, entries));
}

type Lut = (v: number) => number;

async function paletteLut(
  readElement: ReadElement,
  metadata: DisplayMetadata,
  colour: 'Red' | 'Green' | 'Blue',
): Promise<Lut | null> {
  const index = { Red: 1, Green: 2, Blue: 3 }[colour];
  const descriptor = numbers(metadata, `0028110${index}`);
  if (descriptor.length < 3) return null;
  const entries = descriptor[0] === 0 ? 65536 : (descriptor[0] as number);
  const firstMapped = descriptor[1] as number;
  const bits = descriptor[2] as number;
  let table: Uint16Array | Uint8Array | null = null;
  const plain = await readElement(`0028120${index}`);
  if (plain) table = bits > 8 || plain.byteLength >= entries * 2 ? words(plain) : plain;
  else {
    const segmented = await readElement(`0028122${index}`);
    if (segmented) table = expandSegmentedLut(words(segmented), entries);
  }
  if (!table || table.length === 0) return null;
  const lut = table;
  return (v) => {
    const at = Math.min(lut.length - 1, Math.max(0, v - firstMapped));
    const entry = lut[at] ?? 0;
    return bits > 8 ? entry >> 8 : entry;
  };
}

type Dataset = Record<string, { Value?: unknown[] } | undefined>;

const itemsOf = (dataset: Dataset | undefined, tag: string): Dataset[] =>
  (dataset?.[tag]?.Value ?? []).filter((v): v is Dataset => typeof v === 'object' && v !== null);

/**
 * A value of the frame: top level, else in the frame's Per-Frame Functional Groups item
 * (5200,9230), else in the Shared Functional Groups (5200,9229), inside the macro sequence that
 * holds it (PS3.3 §C.7.6.16): enhanced CT/MR keep rescale and window only there.
 */
function frameValue(
  metadata: DisplayMetadata,
  frameIndex: number,
  macro: string,
  tag: string,
): number | null {
  const top = first(metadata, tag);
  if (top !== null) return top;
  const groups = [
    itemsOf(metadata as Dataset, '52009230')[frameIndex],
    itemsOf(metadata as Dataset, '52009229')[0],
  ];
  for (const group of groups) {
    const [item] = itemsOf(group, macro);
    const value = item?.[tag]?.Value?.[0];
    if (typeof value === 'number') return value;
  }
  return null;
}

/** One decoded frame (0-based `frameIndex`) to an 8-bit grey or RGB image. */
export async function toDisplayImage(
  decoded: DecodedFrame,
  frameIndex: number,
  metadata: DisplayMetadata,
  readElement: ReadElement,
  isFloat: boolean,
  window: DisplayWindow | null = null,
): Promise<DisplayImage> {
  const { rows: height, columns: width, samplesPerPixel: samples, bitsAllocated } = decoded;
  const photometric = decoded.photometricInterpretation;
  const pixels = width * height;

  if (samples === 3) {
    if (bitsAllocated !== 8 || photometric !== 'RGB') {
      throw unsupported(`${photometric} with ${bitsAllocated}-bit samples`);
    }
    return { width, height, channels: 3, data: Buffer.from(decoded.pixels.subarray(0, pixels * 3)) };
  }
  if (samples !== 1) throw unsupported(`${samples} samples per pixel`);
  // A decoder widens 1-bit frames to bytes; their Bits Stored (1) still holds.
  const bitsStored = Math.min(first(metadata, '00280101') ?? bitsAllocated, bitsAllocated);
  const isSigned = first(metadata, '00280103') === 1;
  const values = readSamples(decoded.pixels, pixels, bitsAllocated, bitsStored, isSigned, isFloat);

  if (photometric === 'PALETTE COLOR') {
    const luts = await Promise.all(
      (['Red', 'Green', 'Blue'] as const).map((c) => paletteLut(readElement, metadata, c)),
    );
    if (luts.some((lut) => !lut)) throw unsupported('its palette colour lookup tables are missing');
    const data = Buffer.alloc(pixels * 3);
    for (let i = 0; i < pixels; i++) {
      for (let c = 0; c < 3; c++) data[i * 3 + c] = luts[c]?.(values[i] as number) ?? 0;
    }
    return { width, height, channels: 3, data };
  }
  if (photometric !== 'MONOCHROME1' && photometric !== 'MONOCHROME2')
    throw unsupported(`photometric ${photometric}`);
  // Pixel Value Transformation (0028,9145) and Frame VOI LUT (0028,9132) macros.
  const slope = frameValue(metadata, frameIndex, '00289145', '00281053') ?? 1;
  const intercept = frameValue(metadata, frameIndex, '00289145', '00281052') ?? 0;
  if (slope !== 1 || intercept !== 0)
    for (let i = 0; i < values.length; i++) values[i] = (values[i] as number) * slope + intercept;
  const invert = photometric === 'MONOCHROME1';
  if (window?.fn === 'SIGMOID') {
    const data = toGraySigmoid(values, window.center, window.width, invert);
    return { width, height, channels: 1, data };
  }
  if (window) {
    const data = toGray(values, window.center, window.width, invert);
    return { width, height, channels: 1, data };
  }
  const data = toGray(
    values,
    frameValue(metadata, frameIndex, '00289132', '00281050'),
    frameValue(metadata, frameIndex, '00289132', '00281051'),
    photometric === 'MONOCHROME1',
  );
  return { width, height, channels: 1, data };
}
