/**
 * Native (uncompressed) frames to display-ready samples — the one implementation of each pixel
 * layout conversion, used by the server's `decodeFrame` and by the web viewer for the layouts its
 * Cornerstone loader gets wrong (apps/web viewer `engine/own-decode.ts`). Pure: no Node modules,
 * no WASM, so it bundles for the browser (`@radflow/dicom/native-frame`).
 *
 * Photometric interpretations native pixel data may carry (PS3.3 §C.7.6.3.1.2; PS3.5 §8.2 says
 * which are for compressed syntaxes only): MONOCHROME1/2 and PALETTE COLOR as stored; RGB and
 * YBR_FULL in Planar Configuration 0 or 1; YBR_FULL_422 and the retired YBR_PARTIAL_422 (two
 * samples a pixel on the wire). YBR_PARTIAL_420, YBR_ICT, YBR_RCT and XYB exist only inside
 * compressed streams, HSV/ARGB/CMYK are retired: a native frame labelled so is refused by name.
 */
import { FrameDecodeError } from './errors.js';
import { interleavePlanes, swapWords, unpackBits, ybr422ToRgb, ybrFullToRgb } from './samples.js';

export const NATIVE_SYNTAX = {
  implicitVrLittleEndian: '1.2.840.10008.1.2',
  explicitVrLittleEndian: '1.2.840.10008.1.2.1',
  deflatedExplicitVrLittleEndian: '1.2.840.10008.1.2.1.99',
  encapsulatedUncompressed: '1.2.840.10008.1.2.1.98',
  explicitVrBigEndian: '1.2.840.10008.1.2.2',
  /** PS3.5 §8.2.16, §A.4.13: each frame raw deflate (RFC 1951) of its native bytes. */
  deflatedImageFrameCompression: '1.2.840.10008.1.2.8.1',
} as const;

const NATIVE_SYNTAXES: ReadonlySet<string> = new Set(Object.values(NATIVE_SYNTAX));

/** Whether frames in this syntax are native pixels (possibly big endian or deflated per frame). */
export function isNativeFrameSyntax(uid: string): boolean {
  return NATIVE_SYNTAXES.has(uid);
}

/** Photometric interpretations a native frame may carry, and whether it is colour. */
const NATIVE_PHOTOMETRICS: ReadonlyMap<string, number> = new Map([
  ['MONOCHROME1', 1],
  ['MONOCHROME2', 1],
  ['PALETTE COLOR', 1],
  ['RGB', 3],
  ['YBR_FULL', 3],
  ['YBR_FULL_422', 3],
  ['YBR_PARTIAL_422', 3],
]);

const COMPRESSED_ONLY: Readonly<Record<string, string>> = {
  YBR_PARTIAL_420: 'MPEG-2, H.264 and HEVC streams',
  YBR_ICT: 'JPEG 2000 streams',
  YBR_RCT: 'JPEG 2000 streams',
  XYB: 'JPEG XL streams',
};

export interface NativeFrameInput {
  transferSyntaxUid: string;
  /** The frame as WADO-RS or `extractFrame` gives it (deflated for 1.2.840.10008.1.2.8.1). */
  bytes: Uint8Array;
  rows: number;
  columns: number;
  bitsAllocated: number;
  samplesPerPixel: number;
  photometricInterpretation: string;
  planarConfiguration?: number | null;
}

export interface NativeFrame {
  /** Little-endian samples, `rows × columns × samplesPerPixel`, colour interleaved RGB. */
  pixels: Uint8Array;
  rows: number;
  columns: number;
  samplesPerPixel: number;
  /** As stored, except 1-bit frames: one 0/1 byte a pixel (8). */
  bitsAllocated: number;
  /** YBR_* colour comes out as RGB. */
  photometricInterpretation: string;
}

const unsupported = (message: string) => new FrameDecodeError('UNSUPPORTED', message);
const corrupt = (message: string) => new FrameDecodeError('CORRUPT_FRAME', message);

/** Why native pixel data in this photometric interpretation is not drawn, or null. */
export function nativePhotometricProblem(photometricInterpretation: string): string | null {
  const photometric = photometricInterpretation.trim().toUpperCase();
  const compressedOnly = COMPRESSED_ONLY[photometric];
  if (compressedOnly) {
    return `Photometric Interpretation ${photometric} exists only in ${compressedOnly}, not in native pixel data`;
  }
  if (!NATIVE_PHOTOMETRICS.has(photometric)) {
    return `Photometric Interpretation ${photometric || '(none)'} is not drawn (retired or unknown)`;
  }
  return null;
}

/**
 * Why a native frame of this photometric interpretation / sample layout is not drawn, or null
 * when {@link decodeNativeFrame} draws it. Lets a caller refuse before fetching the frame.
 */
export function nativeLayoutProblem(
  input: Omit<NativeFrameInput, 'bytes' | 'transferSyntaxUid'>,
): string | null {
  const photometric = input.photometricInterpretation.trim().toUpperCase();
  const compressedOnly = COMPRESSED_ONLY[photometric];
  if (compressedOnly) {
    return `Photometric Interpretation ${photometric} exists only in ${compressedOnly}, not in native pixel data`;
  }
  const samples = NATIVE_PHOTOMETRICS.get(photometric);
  if (samples === undefined) {
    return `Photometric Interpretation ${photometric || '(none)'} is not drawn (retired or unknown)`;
  }
  if (samples !== input.samplesPerPixel) {
    return `Photometric Interpretation ${photometric} with ${input.samplesPerPixel} sample(s) per pixel`;
  }
  // 32 and 64 bits: Float / Double Float Pixel Data (7FE0,0008 / 0009) are MONOCHROME2.
  const widths = samples === 3 ? [8] : photometric === 'PALETTE COLOR' ? [8, 16] : [1, 8, 16, 32, 64];
  if (!widths.includes(input.bitsAllocated)) {
    return `${photometric} with ${input.bitsAllocated} bits allocated`;
  }
  return null;
}

async function inflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  // DecompressionStream: in browsers and Node ≥ 18 alike, so this module stays free of node:zlib.
  const input = new ReadableStream<BufferSource>({
    start(controller) {
      controller.enqueue(bytes as Uint8Array<ArrayBuffer>);
      controller.close();
    },
  });
  const reader = input.pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      chunks.push(read.value);
      length += read.value.length;
    }
  } catch (error) {
    // A fragment has even length (PS3.5 §A.4): a pad byte may follow the deflate stream, which
    // Chromium's DecompressionStream reports as "junk after end" once it has given all the data.
    // What came out is kept; a stream that really broke comes out short and the caller says so.
    if (length === 0) throw corrupt(`the deflated frame does not inflate (${String(error)})`);
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Bytes of one native frame on the wire: YBR_*_422 carries two samples a pixel. */
export function nativeFrameLength(input: Omit<NativeFrameInput, 'bytes' | 'transferSyntaxUid'>): number {
  const photometric = input.photometricInterpretation.trim().toUpperCase();
  if (photometric.endsWith('_422')) return input.rows * Math.ceil(input.columns / 2) * 4;
  const bits = input.rows * input.columns * input.samplesPerPixel * input.bitsAllocated;
  return Math.ceil(bits / 8);
}

/**
 * One native frame to little-endian samples: inflated (Deflated Image Frame Compression), words
 * swapped (big endian), 1-bit unpacked, planes interleaved, YBR converted to RGB. Throws
 * {@link FrameDecodeError}: `UNSUPPORTED` naming the layout, `CORRUPT_FRAME` for cut data.
 */
export async function decodeNativeFrame(input: NativeFrameInput): Promise<NativeFrame> {
  const syntax = input.transferSyntaxUid;
  if (!isNativeFrameSyntax(syntax)) throw unsupported(`${syntax} is not a native pixel syntax`);
  const problem = nativeLayoutProblem(input);
  if (problem) throw unsupported(problem);
  const { rows, columns, samplesPerPixel, bitsAllocated } = input;
  const photometric = input.photometricInterpretation.trim().toUpperCase();
  const pixels = rows * columns;
  let data =
    syntax === NATIVE_SYNTAX.deflatedImageFrameCompression ? await inflateRaw(input.bytes) : input.bytes;
  const needed = nativeFrameLength(input);
  if (data.length < needed) {
    throw corrupt(`the frame holds ${data.length} bytes, ${rows}×${columns} needs ${needed}`);
  }
  const result = (out: Uint8Array, bits = bitsAllocated): NativeFrame => ({
    pixels: out,
    rows,
    columns,
    samplesPerPixel,
    bitsAllocated: bits,
    photometricInterpretation: samplesPerPixel === 3 ? 'RGB' : photometric,
  });

  if (bitsAllocated === 1) return result(unpackBits(data, pixels), 8);
  data = data.subarray(0, needed);
  if (syntax === NATIVE_SYNTAX.explicitVrBigEndian && bitsAllocated > 8) {
    data = swapWords(data, bitsAllocated === 16 ? 2 : 4);
  }
  if (photometric === 'YBR_FULL_422') return result(ybr422ToRgb(data, rows, columns, 'full'));
  if (photometric === 'YBR_PARTIAL_422') return result(ybr422ToRgb(data, rows, columns, 'partial'));
  if (samplesPerPixel === 3 && input.planarConfiguration === 1) {
    data = interleavePlanes(data, pixels, samplesPerPixel, 1);
  }
  // Views into the caller's bytes are converted as a copy.
  if (photometric === 'YBR_FULL') return result(ybrFullToRgb(data.slice()));
  return result(data);
}
