/**
 * One frame of any supported transfer syntax to native pixels (PS3.5 §8.1.1 layout, little
 * endian, colour interleaved), so a renderer handles compressed and native frames alike.
 * Which codec decodes which syntax: see packages/dicom/README.md "Codecs".
 */
import { TRANSFER_SYNTAX, describeTransferSyntax } from '../transfer-syntax.js';
import { FrameDecodeError } from './errors.js';
import { decodeJpeg12 } from './jpeg-dct.js';
import { decodeJpeg8, decodeJpegLossless, readJpegFrameHeader } from './jpeg.js';
import { decodeRle } from './rle.js';
import { decodeNativeFrame, isNativeFrameSyntax } from './native.js';
import { interleavePlanes, toSampleWidth, ybrFullToRgb } from './samples.js';
import { type WasmOutput, loadHtJ2k, loadJ2k, loadJpegLs, runDecoder } from './wasm.js';

export interface DecodeFrameInput {
  transferSyntaxUid: string;
  /** The frame as stored (WADO-RS frame bytes; for deflated files, from the inflated data set). */
  bytes: Uint8Array;
  rows: number;
  columns: number;
  bitsAllocated: number;
  samplesPerPixel: number;
  /** 0 unsigned, 1 two's complement. */
  pixelRepresentation: number;
  photometricInterpretation: string;
  planarConfiguration?: number | null;
}

export interface DecodedFrame {
  /** Native little-endian samples, `rows × columns × samplesPerPixel`, colour interleaved. */
  pixels: Uint8Array;
  rows: number;
  columns: number;
  samplesPerPixel: number;
  /** 8, 16, 32 (or 64 for double float); 1-bit input comes out as 8 (one 0/1 byte per pixel). */
  bitsAllocated: number;
  /** What the samples are now: YBR_* colour comes out as RGB. */
  photometricInterpretation: string;
}

const JPEG_DCT = new Set<string>([TRANSFER_SYNTAX.jpegBaseline, TRANSFER_SYNTAX.jpegExtended]);
const JPEG_LOSSLESS = new Set<string>([TRANSFER_SYNTAX.jpegLossless, TRANSFER_SYNTAX.jpegLosslessSv1]);
const JPEG_LS = new Set<string>([TRANSFER_SYNTAX.jpegLsLossless, TRANSFER_SYNTAX.jpegLsNearLossless]);
const J2K = new Set<string>([TRANSFER_SYNTAX.jpeg2000Lossless, TRANSFER_SYNTAX.jpeg2000]);
const HTJ2K = new Set<string>([
  TRANSFER_SYNTAX.htj2kLossless,
  TRANSFER_SYNTAX.htj2kLosslessRpcl,
  TRANSFER_SYNTAX.htj2k,
]);
const DECODABLE = new Set<string>([
  TRANSFER_SYNTAX.implicitVrLittleEndian,
  TRANSFER_SYNTAX.explicitVrLittleEndian,
  TRANSFER_SYNTAX.deflatedExplicitVrLittleEndian,
  TRANSFER_SYNTAX.encapsulatedUncompressedExplicitVrLittleEndian,
  TRANSFER_SYNTAX.explicitVrBigEndian,
  TRANSFER_SYNTAX.deflatedImageFrameCompression,
  ...JPEG_DCT,
  ...JPEG_LOSSLESS,
  ...JPEG_LS,
  ...J2K,
  ...HTJ2K,
  TRANSFER_SYNTAX.rleLossless,
]);

/** Whether {@link decodeFrame} has a decoder for frames in this syntax. */
export function canDecodeTransferSyntax(uid: string): boolean {
  return DECODABLE.has(uid);
}

function unsupported(input: DecodeFrameInput, why?: string): FrameDecodeError {
  const name = describeTransferSyntax(input.transferSyntaxUid).name;
  return new FrameDecodeError(
    'UNSUPPORTED',
    why ? `${name}: ${why}` : `${name} (${input.transferSyntaxUid}) has no decoder on the server`,
  );
}

function wasmError(error: unknown): never {
  if (error instanceof FrameDecodeError) throw error;
  // Emscripten throws C++ exceptions as heap pointers (numbers) or strings.
  throw new FrameDecodeError('CORRUPT_FRAME', `the codec failed: ${String(error)}`);
}

/** Checks a codec's output against the header and brings it to the file's sample width. */
function fromCodec(input: DecodeFrameInput, output: WasmOutput, isPlanar: boolean): Uint8Array {
  const { info } = output;
  if (info.width !== input.columns || info.height !== input.rows) {
    throw new FrameDecodeError(
      'CORRUPT_FRAME',
      `the frame is ${info.width}×${info.height}, the header says ${input.columns}×${input.rows}`,
    );
  }
  if (info.componentCount !== input.samplesPerPixel) {
    throw new FrameDecodeError(
      'CORRUPT_FRAME',
      `the frame has ${info.componentCount} component(s), the header says ${input.samplesPerPixel}`,
    );
  }
  const pixels = input.rows * input.columns;
  const count = pixels * input.samplesPerPixel;
  const fromBytes = info.bitsPerSample <= 8 ? 1 : 2;
  if (output.bytes.length < count * fromBytes) {
    throw new FrameDecodeError('CORRUPT_FRAME', 'the codec gave fewer samples than the frame has');
  }
  const bytes = output.bytes.subarray(0, count * fromBytes);
  const interleaved =
    isPlanar && input.samplesPerPixel > 1
      ? interleavePlanes(bytes, pixels, input.samplesPerPixel, fromBytes)
      : bytes;
  return toSampleWidth(
    interleaved,
    count,
    fromBytes,
    input.bitsAllocated / 8,
    input.pixelRepresentation === 1,
  );
}

async function decodeJpegLs(input: DecodeFrameInput): Promise<Uint8Array> {
  const decoder = await loadJpegLs();
  let output: WasmOutput;
  let interleaveMode = 0;
  try {
    output = runDecoder(decoder, input.bytes, () => {
      decoder.decode();
      interleaveMode = decoder.getInterleaveMode();
    });
  } catch (error) {
    wasmError(error);
  }
  return fromCodec(input, output, interleaveMode === 0);
}

async function decodeJ2k(input: DecodeFrameInput): Promise<Uint8Array> {
  const decoder = await loadJ2k();
  let output: WasmOutput;
  try {
    output = runDecoder(decoder, input.bytes, () => decoder.decode());
  } catch (error) {
    wasmError(error);
  }
  return fromCodec(input, output, false);
}

async function decodeHtJ2k(input: DecodeFrameInput): Promise<Uint8Array> {
  const codec = await loadHtJ2k();
  // A fresh decoder per frame (as Cornerstone does): OpenJPH's decoder keeps per-stream state.
  const decoder = codec.create();
  let output: WasmOutput;
  try {
    output = runDecoder(decoder, input.bytes, () => decoder.decodeSubResolution(0));
  } catch (error) {
    wasmError(error);
  } finally {
    decoder.delete();
  }
  return fromCodec(input, output, false);
}

async function decodeJpegDct(input: DecodeFrameInput): Promise<Uint8Array> {
  const header = readJpegFrameHeader(input.bytes);
  if (!header) throw new FrameDecodeError('CORRUPT_FRAME', 'the frame has no JPEG frame header');
  if (header.process === 0xc3 || header.process === 0xc7) {
    // A lossless frame under a lossy syntax label: decode what is there.
    return decodeJpegLossless(input.bytes, input.bitsAllocated > 8 ? 2 : 1);
  }
  if (header.process !== 0xc0 && header.process !== 0xc1 && header.process !== 0xc2) {
    throw unsupported(input, `JPEG process with SOF marker FF${header.process.toString(16).toUpperCase()}`);
  }
  if (header.precision <= 8) {
    let output: WasmOutput;
    try {
      output = await decodeJpeg8(input.bytes, input.photometricInterpretation.trim().toUpperCase());
    } catch (error) {
      wasmError(error);
    }
    return fromCodec(input, output, false);
  }
  if (input.samplesPerPixel !== 1) throw unsupported(input, `${header.precision}-bit colour JPEG`);
  const decoded = decodeJpeg12(input.bytes);
  return fromCodec(input, decoded, false);
}

function photometricAfter(input: DecodeFrameInput): string {
  const photometric = input.photometricInterpretation.trim().toUpperCase();
  if (input.samplesPerPixel !== 3) return photometric;
  return photometric.startsWith('YBR') ? 'RGB' : photometric;
}

/**
 * Decodes one frame. Throws {@link FrameDecodeError}: `UNSUPPORTED` for a syntax or layout with no
 * decoder here (the message names the syntax), `CORRUPT_FRAME` when the data do not decode.
 */
export async function decodeFrame(input: DecodeFrameInput): Promise<DecodedFrame> {
  const { rows, columns, samplesPerPixel, bitsAllocated } = input;
  const syntax = input.transferSyntaxUid;
  if (!canDecodeTransferSyntax(syntax)) throw unsupported(input);
  if (rows < 1 || columns < 1 || samplesPerPixel < 1) {
    throw new FrameDecodeError('CORRUPT_FRAME', 'Rows, Columns and Samples per Pixel are needed');
  }
  // Native pixels (also big endian, deflated per frame): the conversions shared with the viewer.
  if (isNativeFrameSyntax(syntax)) return decodeNativeFrame(input);
  if (bitsAllocated === 1) throw unsupported(input, '1-bit samples in an encapsulated syntax');
  if (![8, 16, 32].includes(bitsAllocated)) {
    throw unsupported(input, `${samplesPerPixel} sample(s) of ${bitsAllocated} bits allocated`);
  }
  const photometric = input.photometricInterpretation.trim().toUpperCase();
  const pixels = rows * columns;
  const result = (data: Uint8Array, bits = bitsAllocated): DecodedFrame => ({
    pixels: data,
    rows,
    columns,
    samplesPerPixel,
    bitsAllocated: bits,
    photometricInterpretation: photometricAfter(input),
  });

  let data: Uint8Array;
  if (syntax === TRANSFER_SYNTAX.rleLossless) data = decodeRle(input.bytes, input);
  else if (JPEG_LOSSLESS.has(syntax)) {
    data = await decodeJpegLossless(input.bytes, bitsAllocated > 8 ? 2 : 1);
    const size = pixels * samplesPerPixel * (bitsAllocated > 8 ? 2 : 1);
    if (data.length < size) throw new FrameDecodeError('CORRUPT_FRAME', 'the frame decodes short');
    data = data.subarray(0, size);
  } else if (JPEG_DCT.has(syntax)) {
    // libjpeg already turned YCbCr into RGB: no second conversion.
    return result(await decodeJpegDct(input));
  } else if (JPEG_LS.has(syntax)) data = await decodeJpegLs(input);
  else if (J2K.has(syntax)) {
    // OpenJPEG applies the inverse colour transform (YBR_RCT / YBR_ICT) itself.
    data = await decodeJ2k(input);
    if (photometric === 'YBR_RCT' || photometric === 'YBR_ICT') return result(data);
  } else {
    data = await decodeHtJ2k(input);
    if (photometric === 'YBR_RCT' || photometric === 'YBR_ICT') return result(data);
  }
  return result(toRgbIfYbr(input, data));
}

function toRgbIfYbr(input: DecodeFrameInput, data: Uint8Array): Uint8Array {
  const photometric = input.photometricInterpretation.trim().toUpperCase();
  if (input.samplesPerPixel !== 3 || !photometric.startsWith('YBR')) return data;
  if (photometric !== 'YBR_FULL' || input.bitsAllocated !== 8) {
    throw unsupported(input, `${photometric} with ${input.bitsAllocated}-bit samples`);
  }
  // Native and RLE data are views into the caller's bytes: convert a copy.
  return ybrFullToRgb(data.slice());
}
