/**
 * Cutting pixel data into frames in the stored transfer syntax, as WADO-RS RetrieveFrames
 * (PS3.18 §10.4.1.1.4, §8.7.3.5) sends them: native frames per PS3.5 §8.1.1 / §8.2, encapsulated
 * frames per PS3.5 §A.4 (Basic Offset Table, Extended Offset Table, or fragment grouping).
 */
import type { DataSet } from 'dicom-parser';
import { DicomFrameError } from './errors.js';
import type { ImagePixelDescription, ParsedInstance, PixelDataFragment, PixelDataInfo } from './parse.js';
import type { TransferSyntaxInfo } from './transfer-syntax.js';

/** A byte range in the data set bytes. */
export interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

/**
 * Where one frame's bytes are. Encapsulated frames may span several fragments. A native frame of
 * 1-bit pixels that does not start on a byte boundary has a non-zero `bitOffset` (PS3.5 §8.1.1:
 * frames of Bits Allocated 1 are packed without padding).
 */
export interface FrameLocation {
  readonly ranges: readonly ByteRange[];
  readonly bitOffset: number;
  /** Native 1-bit frames: the frame's size in bits; otherwise the byte total × 8. */
  readonly bitLength: number;
}

export type FrameSource = Pick<
  ParsedInstance,
  'transferSyntax' | 'image' | 'pixelData' | 'dataSet' | 'datasetBytes'
>;

function requirePixelData(parsed: FrameSource): PixelDataInfo {
  if (!parsed.pixelData) throw new DicomFrameError('NO_PIXEL_DATA', 'The instance has no pixel data');
  return parsed.pixelData;
}

function frameCount(image: ImagePixelDescription | null): number {
  return Math.max(1, image?.numberOfFrames ?? 1);
}

function locateNativeFrames(pixelData: PixelDataInfo, image: ImagePixelDescription | null): FrameLocation[] {
  if (!image || !image.bitsAllocated) {
    throw new DicomFrameError(
      'MISSING_IMAGE_ATTRIBUTES',
      'Rows, Columns and Bits Allocated are needed to cut native frames',
    );
  }
  const frames = frameCount(image);
  // PS3.3 §C.7.6.3.1.2: native YBR_FULL_422 / YBR_PARTIAL_422 store two luma and one pair of
  // chroma samples per two pixels, i.e. two samples per pixel on the wire.
  const isSubsampled = /^YBR_(FULL|PARTIAL)_422$/.test(image.photometricInterpretation ?? '');
  const samples = isSubsampled ? 2 : image.samplesPerPixel;
  const frameBits = image.rows * image.columns * samples * image.bitsAllocated;
  const neededBytes = Math.ceil((frames * frameBits) / 8);
  if (neededBytes > pixelData.length) {
    throw new DicomFrameError(
      'PIXEL_DATA_INCOMPLETE',
      `Pixel Data holds ${pixelData.length} bytes; ${frames} frame(s) of ${image.rows}×${image.columns}×${samples}×${image.bitsAllocated} bits need ${neededBytes}`,
    );
  }
  const locations: FrameLocation[] = [];
  for (let i = 0; i < frames; i++) {
    const startBit = i * frameBits;
    const startByte = Math.floor(startBit / 8);
    const bitOffset = startBit % 8;
    const byteLength = Math.ceil((bitOffset + frameBits) / 8);
    locations.push({
      ranges: [{ offset: pixelData.offset + startByte, length: byteLength }],
      bitOffset,
      bitLength: frameBits,
    });
  }
  return locations;
}

function readUint32Le(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] as number) |
      ((bytes[at + 1] as number) << 8) |
      ((bytes[at + 2] as number) << 16) |
      ((bytes[at + 3] as number) << 24)) >>>
    0
  );
}

/** PS3.5 §A.4: Extended Offset Table (7FE0,0001) and its lengths (7FE0,0002), 64-bit values. */
function readExtendedOffsetTable(dataSet: DataSet): { offsets: number[]; lengths: number[] } | undefined {
  const table = dataSet.elements['x7fe00001'];
  const lengths = dataSet.elements['x7fe00002'];
  if (!table || !lengths || table.length === 0 || table.length !== lengths.length) return undefined;
  const bytes = dataSet.byteArray as Uint8Array;
  const read = (offset: number, length: number) => {
    const values: number[] = [];
    for (let at = offset; at + 8 <= offset + length; at += 8) {
      values.push(readUint32Le(bytes, at) + readUint32Le(bytes, at + 4) * 2 ** 32);
    }
    return values;
  };
  return { offsets: read(table.dataOffset, table.length), lengths: read(lengths.dataOffset, lengths.length) };
}

const itemStart = (fragment: PixelDataFragment): number => fragment.offset - 8;

function startsFrame(bytes: Uint8Array, fragment: PixelDataFragment, syntax: TransferSyntaxInfo): boolean {
  const at = fragment.offset;
  if (fragment.length < 2) return false;
  const b0 = bytes[at];
  const b1 = bytes[at + 1];
  // JPEG / JPEG-LS SOI, JPEG 2000 / HTJ2K SOC, or a JP2 signature box.
  if (b0 === 0xff && (b1 === 0xd8 || b1 === 0x4f)) return true;
  if (
    fragment.length >= 8 &&
    readUint32Le(bytes, at) === 0x0c000000 &&
    bytes[at + 4] === 0x6a &&
    bytes[at + 5] === 0x50
  ) {
    return true;
  }
  // RLE (PS3.5 §G.2): one fragment per frame starting with its 64-byte header: segment count 1..15.
  if (syntax.uid === '1.2.840.10008.1.2.5' && fragment.length >= 64) {
    const segments = readUint32Le(bytes, at);
    return segments >= 1 && segments <= 15 && readUint32Le(bytes, at + 4) === 64;
  }
  return false;
}

function endsFrame(bytes: Uint8Array, fragment: PixelDataFragment): boolean {
  // JPEG EOI / JPEG 2000 EOC are both FFD9; an even-length pad byte may follow (PS3.5 §A.4).
  let end = fragment.offset + fragment.length;
  if (end - 1 >= fragment.offset && bytes[end - 1] === 0x00) end--;
  return end - 2 >= fragment.offset && bytes[end - 2] === 0xff && bytes[end - 1] === 0xd9;
}

function groupFragments(
  bytes: Uint8Array,
  fragments: readonly PixelDataFragment[],
  frames: number,
  syntax: TransferSyntaxInfo,
): PixelDataFragment[][] {
  if (frames === 1 || syntax.isVideo) return [[...fragments]];
  if (fragments.length === frames) return fragments.map((fragment) => [fragment]);
  const groups: PixelDataFragment[][] = [];
  fragments.forEach((fragment, index) => {
    const previous = fragments[index - 1];
    const isStart =
      index === 0 ||
      (startsFrame(bytes, fragment, syntax) &&
        (previous === undefined || endsFrame(bytes, previous) || !isJpegFamily(syntax)));
    if (isStart) groups.push([fragment]);
    else groups[groups.length - 1]?.push(fragment);
  });
  if (groups.length !== frames) {
    throw new DicomFrameError(
      'UNRESOLVABLE_FRAGMENTS',
      `${fragments.length} fragments without an offset table hold ${groups.length} recognisable frames, not ${frames}`,
    );
  }
  return groups;
}

function isJpegFamily(syntax: TransferSyntaxInfo): boolean {
  return syntax.uid.startsWith('1.2.840.10008.1.2.4.');
}

function locateEncapsulatedFrames(
  parsed: FrameSource,
  pixelData: PixelDataInfo,
  bytes: Uint8Array,
): FrameLocation[] {
  const frames = frameCount(parsed.image);
  const fragments = pixelData.fragments;
  const toLocation = (group: readonly PixelDataFragment[]): FrameLocation => {
    const total = group.reduce((sum, fragment) => sum + fragment.length, 0);
    return {
      ranges: group.map(({ offset, length }) => ({ offset, length })),
      bitOffset: 0,
      bitLength: total * 8,
    };
  };
  if (fragments.length === 0) return [];
  const firstItem = itemStart(fragments[0] as PixelDataFragment);

  const extended = readExtendedOffsetTable(parsed.dataSet);
  if (extended && extended.offsets.length === frames) {
    const byStart = new Map(fragments.map((fragment) => [itemStart(fragment) - firstItem, fragment]));
    const located = extended.offsets.map((offset) => byStart.get(offset));
    if (located.every((fragment): fragment is PixelDataFragment => fragment !== undefined)) {
      return located.map((fragment) => toLocation([fragment]));
    }
  }

  const table = pixelData.basicOffsetTable;
  if (table.length === frames && table.length > 0) {
    const groups: PixelDataFragment[][] = table.map(() => []);
    let frame = 0;
    for (const fragment of fragments) {
      const relative = itemStart(fragment) - firstItem;
      while (frame + 1 < table.length && relative >= (table[frame + 1] as number)) frame++;
      groups[frame]?.push(fragment);
    }
    if (groups.every((group) => group.length > 0)) return groups.map(toLocation);
  }

  return groupFragments(bytes, fragments, frames, parsed.transferSyntax).map(toLocation);
}

/**
 * Where each frame's bytes lie in the data set bytes (`parsed.datasetBytes`, i.e. the file itself
 * for every syntax but deflate), so a server can stream frames straight from storage.
 */
export function locateFrames(parsed: FrameSource): FrameLocation[] {
  const pixelData = requirePixelData(parsed);
  return pixelData.isEncapsulated
    ? locateEncapsulatedFrames(parsed, pixelData, parsed.datasetBytes)
    : locateNativeFrames(pixelData, parsed.image);
}

function copyBits(source: Uint8Array, bitOffset: number, bitLength: number): Uint8Array {
  const out = new Uint8Array(Math.ceil(bitLength / 8));
  for (let i = 0; i < out.length; i++) {
    const low = (source[i] as number) >>> bitOffset;
    const high = ((source[i + 1] ?? 0) << (8 - bitOffset)) & 0xff;
    out[i] = low | high;
  }
  const tailBits = bitLength % 8;
  if (tailBits !== 0) out[out.length - 1] = (out[out.length - 1] as number) & ((1 << tailBits) - 1);
  return out;
}

function materialize(bytes: Uint8Array, location: FrameLocation, index: number): Uint8Array {
  for (const range of location.ranges) {
    if (range.offset + range.length > bytes.length) {
      throw new DicomFrameError('PIXEL_DATA_INCOMPLETE', `Frame ${index + 1} runs past the end of the file`);
    }
  }
  if (location.ranges.length === 1) {
    const range = location.ranges[0] as ByteRange;
    const view = bytes.subarray(range.offset, range.offset + range.length);
    return location.bitOffset === 0 ? view : copyBits(view, location.bitOffset, location.bitLength);
  }
  const total = location.ranges.reduce((sum, range) => sum + range.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const range of location.ranges) {
    out.set(bytes.subarray(range.offset, range.offset + range.length), at);
    at += range.length;
  }
  return out;
}

function sourceBytes(bytes: Uint8Array, parsed: FrameSource): Uint8Array {
  return parsed.pixelData?.isInInflatedDataset ? parsed.datasetBytes : bytes;
}

/**
 * Every frame's bytes in the stored transfer syntax. Single-range frames are views into `bytes`
 * (no copy); frames spread over several fragments, and unaligned 1-bit frames, are copied.
 * For a video syntax the whole stream is one frame.
 */
export function extractFrames(bytes: Uint8Array, parsed: FrameSource): Uint8Array[] {
  const source = sourceBytes(bytes, parsed);
  return locateFrames(parsed).map((location, index) => materialize(source, location, index));
}

/** One frame (0-based index) in the stored transfer syntax; see {@link extractFrames}. */
export function extractFrame(bytes: Uint8Array, parsed: FrameSource, index: number): Uint8Array {
  const locations = locateFrames(parsed);
  const location = locations[index];
  if (!location) {
    throw new DicomFrameError(
      'FRAME_OUT_OF_RANGE',
      `Frame ${index + 1} requested, the instance has ${locations.length}`,
    );
  }
  return materialize(sourceBytes(bytes, parsed), location, index);
}
