import { describe, expect, it } from 'vitest';
import { DicomFrameError } from './errors.js';
import { createFileMetaHeader } from './file-meta.js';
import { extractFrame, extractFrames, locateFrames } from './frames.js';
import { parseInstance } from './parse.js';
import { manifest, readFixture } from './test-fixtures.js';

// ---- a tiny explicit VR little endian writer for synthetic instances ----
const SHORT_VRS = new Set(['UI', 'US', 'CS', 'IS', 'LO', 'SH']);

function element(tag: number, vr: string, value: Uint8Array, isUndefinedLength = false): Uint8Array {
  const isShort = SHORT_VRS.has(vr);
  const header = new Uint8Array(isShort ? 8 : 12);
  const view = new DataView(header.buffer);
  view.setUint16(0, tag >>> 16, true);
  view.setUint16(2, tag & 0xffff, true);
  header[4] = vr.charCodeAt(0);
  header[5] = vr.charCodeAt(1);
  if (isShort) view.setUint16(6, value.length, true);
  else view.setUint32(8, isUndefinedLength ? 0xffffffff : value.length, true);
  return concat([header, value]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const text = (value: string, pad = 0x20) => {
  const bytes = new TextEncoder().encode(value.length % 2 ? value + String.fromCharCode(pad) : value);
  return bytes;
};
const us = (value: number) => new Uint8Array([value & 0xff, value >> 8]);
const item = (tag: number, value: Uint8Array) => {
  const header = new Uint8Array(8);
  const view = new DataView(header.buffer);
  view.setUint16(0, tag >>> 16, true);
  view.setUint16(2, tag & 0xffff, true);
  view.setUint32(4, value.length, true);
  return concat([header, value]);
};

interface Synthetic {
  transferSyntaxUid: string;
  rows: number;
  columns: number;
  bitsAllocated: number;
  samplesPerPixel?: number;
  photometric?: string;
  frames: number;
  pixelData: Uint8Array;
  isEncapsulated?: boolean;
}

function buildInstance(spec: Synthetic): Uint8Array {
  const dataset = concat([
    element(0x00080016, 'UI', text('1.2.840.10008.5.1.4.1.1.7', 0)),
    element(0x00080018, 'UI', text('1.2.3.4.5', 0)),
    element(0x0020000d, 'UI', text('1.2.3.4', 0)),
    element(0x0020000e, 'UI', text('1.2.3.4.1', 0)),
    element(0x00280002, 'US', us(spec.samplesPerPixel ?? 1)),
    element(0x00280004, 'CS', text(spec.photometric ?? 'MONOCHROME2')),
    element(0x00280008, 'IS', text(String(spec.frames))),
    element(0x00280010, 'US', us(spec.rows)),
    element(0x00280011, 'US', us(spec.columns)),
    element(0x00280100, 'US', us(spec.bitsAllocated)),
    element(0x7fe00010, 'OB', spec.pixelData, spec.isEncapsulated),
  ]);
  const meta = createFileMetaHeader({
    sopClassUid: '1.2.840.10008.5.1.4.1.1.7',
    sopInstanceUid: '1.2.3.4.5',
    transferSyntaxUid: spec.transferSyntaxUid,
  });
  return concat([meta, dataset]);
}

/** Encapsulated pixel data: BOT item, fragment items, sequence delimiter. */
function encapsulate(fragments: Uint8Array[], offsetTable: number[]): Uint8Array {
  const bot = new Uint8Array(offsetTable.length * 4);
  offsetTable.forEach((offset, i) => new DataView(bot.buffer).setUint32(i * 4, offset, true));
  return concat([
    item(0xfffee000, bot),
    ...fragments.map((f) => item(0xfffee000, f)),
    item(0xfffee0dd, new Uint8Array(0)),
  ]);
}

const jpegLike = (marker: number, body: number[]) =>
  new Uint8Array([0xff, 0xd8, marker, ...body, 0xff, 0xd9]);

// ---- tests over the corpus ----

describe('extractFrames over the corpus', () => {
  const images = manifest.files.filter((file) => file.expected.startsWith('valid') && file.has_pixel_data);
  it.each(images.map((file) => [file.path, file] as const))(
    '%s yields Number of Frames frames',
    (path, file) => {
      const bytes = readFixture(path);
      const parsed = parseInstance(bytes);
      const frames = extractFrames(bytes, parsed);
      expect(frames).toHaveLength(file.frames);
      for (const frame of frames) expect(frame.length).toBeGreaterThan(0);
      if (!parsed.transferSyntax.isEncapsulated && file.rows && file.columns && file.bits_allocated) {
        const isSubsampled = /_422$/.test(file.photometric_interpretation ?? '');
        const bits =
          file.rows * file.columns * (isSubsampled ? 2 : (file.samples_per_pixel ?? 1)) * file.bits_allocated;
        for (const frame of frames) expect(frame.length).toBe(Math.ceil(bits / 8));
      }
      if (
        parsed.transferSyntaxUid.startsWith('1.2.840.10008.1.2.4.5') ||
        parsed.transferSyntaxUid.startsWith('1.2.840.10008.1.2.4.7')
      ) {
        for (const frame of frames) {
          expect([frame[0], frame[1]]).toEqual([0xff, 0xd8]); // every JPEG frame starts with SOI
        }
      }
    },
  );

  it('returns views into the file for single-fragment frames (no copy)', () => {
    const bytes = readFixture('nm_pt_xa/xa_96frames_jpeg_baseline.dcm');
    const frames = extractFrames(bytes, parseInstance(bytes));
    expect(frames).toHaveLength(96);
    expect(frames.every((frame) => frame.buffer === bytes.buffer)).toBe(true);
  });

  it('groups the fragments of a multi-frame file without Basic Offset Table by JPEG markers', () => {
    const bytes = readFixture('ct/enhanced_ct_2frames_jpeg_lossless_sv1_fragmented_no_bot.dcm');
    const parsed = parseInstance(bytes);
    const locations = locateFrames(parsed);
    expect(locations).toHaveLength(2);
    expect(locations.map((l) => l.ranges.length).reduce((a, b) => a + b)).toBe(
      parsed.pixelData?.fragments.length,
    );
    for (const frame of extractFrames(bytes, parsed)) {
      expect([frame[0], frame[1]]).toEqual([0xff, 0xd8]);
      const end = frame.at(-1) === 0 ? frame.length - 1 : frame.length;
      expect([frame[end - 2], frame[end - 1]]).toEqual([0xff, 0xd9]);
    }
  });

  it('gives the same native frame from implicit, explicit, deflated and no-meta copies of an instance', () => {
    const frameOf = (path: string) => {
      const bytes = readFixture(path);
      return extractFrame(bytes, parseInstance(bytes), 0);
    };
    const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
    const explicit = frameOf('transfer_syntax/ct_explicit_vr_le.dcm');
    expect(explicit.length).toBe(512 * 512 * 2);
    expect(same(frameOf('transfer_syntax/ct_implicit_vr_le.dcm'), explicit)).toBe(true);
    expect(same(frameOf('transfer_syntax/ct_deflated_explicit_vr_le.dcm'), explicit)).toBe(true);
    expect(
      same(
        frameOf('special/no_preamble_no_meta_ct_small.dcm'),
        frameOf('ct/ct_small_128x128_explicit_le.dcm'),
      ),
    ).toBe(true);
    // Big endian frames are the stored bytes: each 16-bit sample byte-swapped.
    const bigEndian = frameOf('transfer_syntax/ct_explicit_vr_be.dcm');
    expect([bigEndian[0], bigEndian[1]]).toEqual([explicit[1], explicit[0]]);
  });

  it('cuts RLE multi-frame pixel data one fragment per frame, each with its RLE header', () => {
    const bytes = readFixture('us/us_palette_color_2frames_rle.dcm');
    const frames = extractFrames(bytes, parseInstance(bytes));
    expect(frames).toHaveLength(2);
    for (const frame of frames) {
      const view = new DataView(frame.buffer, frame.byteOffset, 64);
      expect(view.getUint32(0, true)).toBe(1); // one segment: 8-bit palette
      expect(view.getUint32(4, true)).toBe(64);
    }
  });

  it('cuts 1-bit SEG frames of 512×512 into 32768-byte frames', () => {
    const bytes = readFixture('ct/study_liver/seg_liver_3frames.dcm');
    const frames = extractFrames(bytes, parseInstance(bytes));
    expect(frames.map((f) => f.length)).toEqual([32768, 32768, 32768]);
  });

  it('refuses frames past the end of a truncated file and past Number of Frames', () => {
    const truncated = readFixture('bad/mr_truncated_pixel_data.dcm');
    expect(() => extractFrames(truncated, parseInstance(truncated))).toThrow(DicomFrameError);
    const bytes = readFixture('mr/enhanced_mr_10frames.dcm');
    expect(() => extractFrame(bytes, parseInstance(bytes), 10)).toThrow(
      /Frame 11 requested, the instance has 10/,
    );
  });

  it('says there are no frames in an object without pixel data', () => {
    const bytes = readFixture('special/sr_comprehensive.dcm');
    expect(() => extractFrames(bytes, parseInstance(bytes))).toThrow(
      expect.objectContaining({ code: 'NO_PIXEL_DATA' }),
    );
  });
});

describe('extractFrames on synthetic instances', () => {
  it('uses the Basic Offset Table when frames span several fragments', () => {
    const fragments = [
      jpegLike(0xe0, [1, 2]),
      new Uint8Array([3, 4, 0xff, 0xd9]),
      jpegLike(0xe0, [5, 6]),
      new Uint8Array([7, 8]),
    ];
    // offsets of each frame's first item, from the first fragment item (8-byte item headers)
    const offsets = [0, 8 + 6 + 8 + 4];
    const bytes = buildInstance({
      transferSyntaxUid: '1.2.840.10008.1.2.4.50',
      rows: 2,
      columns: 2,
      bitsAllocated: 8,
      frames: 2,
      pixelData: encapsulate(fragments, offsets),
      isEncapsulated: true,
    });
    const parsed = parseInstance(bytes);
    expect(parsed.pixelData?.basicOffsetTable).toEqual(offsets);
    const frames = extractFrames(bytes, parsed);
    expect(Array.from(frames[0] ?? [])).toEqual([0xff, 0xd8, 0xe0, 1, 2, 0xff, 0xd9, 3, 4, 0xff, 0xd9]);
    expect(Array.from(frames[1] ?? [])).toEqual([0xff, 0xd8, 0xe0, 5, 6, 0xff, 0xd9, 7, 8]);
  });

  it('takes one fragment per frame when their counts match and there is no offset table', () => {
    const fragments = [new Uint8Array([1, 2]), new Uint8Array([3, 4]), new Uint8Array([5, 6])];
    const bytes = buildInstance({
      transferSyntaxUid: '1.2.840.10008.1.2.4.90',
      rows: 1,
      columns: 1,
      bitsAllocated: 8,
      frames: 3,
      pixelData: encapsulate(fragments, []),
      isEncapsulated: true,
    });
    expect(extractFrames(bytes, parseInstance(bytes)).map((f) => Array.from(f))).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
  });

  it('refuses fragments it cannot assign to frames rather than guessing', () => {
    const fragments = [new Uint8Array([1, 2]), new Uint8Array([3, 4]), new Uint8Array([5, 6])];
    const bytes = buildInstance({
      transferSyntaxUid: '1.2.840.10008.1.2.4.50',
      rows: 1,
      columns: 1,
      bitsAllocated: 8,
      frames: 2,
      pixelData: encapsulate(fragments, []),
      isEncapsulated: true,
    });
    expect(() => extractFrames(bytes, parseInstance(bytes))).toThrow(
      expect.objectContaining({ code: 'UNRESOLVABLE_FRAGMENTS' }),
    );
  });

  it('unpacks 1-bit frames that do not start on a byte boundary', () => {
    // 3×3 pixels = 9 bits per frame, 2 frames = 18 bits packed LSB first (PS3.5 §8.1.1)
    const frame0 = [1, 0, 1, 1, 0, 0, 1, 0, 1];
    const frame1 = [0, 1, 1, 0, 1, 0, 0, 1, 1];
    const bits = [...frame0, ...frame1];
    const packed = new Uint8Array(4); // 18 bits → 3 bytes, padded to even length
    bits.forEach((bit, i) => {
      packed[i >> 3]! |= bit << (i & 7);
    });
    const bytes = buildInstance({
      transferSyntaxUid: '1.2.840.10008.1.2.1',
      rows: 3,
      columns: 3,
      bitsAllocated: 1,
      frames: 2,
      pixelData: packed,
    });
    const unpack = (frame: Uint8Array) =>
      Array.from({ length: 9 }, (_, i) => ((frame[i >> 3] ?? 0) >> (i & 7)) & 1);
    const frames = extractFrames(bytes, parseInstance(bytes));
    expect(frames.map((f) => f.length)).toEqual([2, 2]);
    expect(unpack(frames[0]!)).toEqual(frame0);
    expect(unpack(frames[1]!)).toEqual(frame1);
  });

  it('sizes native YBR_FULL_422 frames at two samples per pixel', () => {
    const bytes = buildInstance({
      transferSyntaxUid: '1.2.840.10008.1.2.1',
      rows: 2,
      columns: 2,
      bitsAllocated: 8,
      samplesPerPixel: 3,
      photometric: 'YBR_FULL_422',
      frames: 2,
      pixelData: new Uint8Array(16).map((_, i) => i),
    });
    expect(extractFrames(bytes, parseInstance(bytes)).map((f) => Array.from(f))).toEqual([
      [0, 1, 2, 3, 4, 5, 6, 7],
      [8, 9, 10, 11, 12, 13, 14, 15],
    ]);
  });
});
