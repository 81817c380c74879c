/**
 * Test files built in code for cases no sample holds (issue 21 §2). Used by this package's tests
 * and the server's integration tests.
 */
import { deflateRawSync } from 'node:zlib';
import { createFileMetaHeader } from './file-meta.js';
import { parseInstance } from './parse.js';

/** An implicit VR little endian element (PS3.5 §7.1.3). */
function implicitLe(group: number, element: number, value: Uint8Array): Uint8Array {
  const out = Buffer.alloc(8 + value.length);
  out.writeUInt16LE(group, 0);
  out.writeUInt16LE(element, 2);
  out.writeUInt32LE(value.length, 4);
  out.set(value, 8);
  return out;
}

const delimiter = (element: number) => {
  const out = Buffer.alloc(8);
  out.writeUInt16LE(0xfffe, 0);
  out.writeUInt16LE(element, 2);
  out.writeUInt32LE(element === 0xe000 ? 0xffffffff : 0, 4);
  return out;
};

/** Where the first top-level element with a tag above `tag` begins (its header), in an explicit VR file. */
function offsetOfFirstElementAbove(bytes: Uint8Array, tag: number): number {
  const after = Object.values(parseInstance(bytes).dataSet.elements)
    .filter((e) => parseInt(e.tag.slice(1), 16) > tag)
    .sort((a, b) => a.dataOffset - b.dataOffset)[0]!;
  const headerLength = ['OB', 'OW', 'OF', 'SQ', 'UT', 'UN'].includes(after.vr ?? '') ? 12 : 8;
  return after.dataOffset - headerLength;
}

/**
 * A private creator and a private UN element of undefined length holding one item (a code
 * sequence item: Code Value 'X1', Coding Scheme Designator 'DCM'), big endian headers, CP-246
 * implicit little endian content — inserted in a big endian file before its first element of a
 * group above 0011.
 */
export function withPrivateUnSequence(bigEndian: Uint8Array): Uint8Array {
  const at = offsetOfFirstElementAbove(bigEndian, 0x00111001);
  const creator = Buffer.alloc(8 + 8);
  creator.writeUInt16BE(0x0011, 0);
  creator.writeUInt16BE(0x0010, 2);
  creator.write('LO', 4, 'latin1');
  creator.writeUInt16BE(8, 6);
  creator.write('ACME 1.0', 8, 'latin1');
  const header = Buffer.alloc(12);
  header.writeUInt16BE(0x0011, 0);
  header.writeUInt16BE(0x1001, 2);
  header.write('UN', 4, 'latin1');
  header.writeUInt32BE(0xffffffff, 8);
  return Buffer.concat([bigEndian.subarray(0, at), creator, header, unContent(), bigEndian.subarray(at)]);
}

/** The CP-246 value of the private UN elements: one code item in implicit VR little endian. */
function unContent(): Buffer {
  return Buffer.concat([
    delimiter(0xe000),
    implicitLe(0x0008, 0x0100, Buffer.from('X1', 'latin1')),
    implicitLe(0x0008, 0x0102, Buffer.from('DCM ', 'latin1')),
    delimiter(0xe00d),
    delimiter(0xe0dd),
  ]);
}

/** A big endian explicit VR header: tag, VR, and a 16-bit length or (OB, SQ, UN…) a 32-bit one. */
function explicitBe(group: number, element: number, vr: string, length: number): Buffer {
  const long = ['OB', 'OW', 'OF', 'SQ', 'UT', 'UN'].includes(vr);
  const out = Buffer.alloc(long ? 12 : 8);
  out.writeUInt16BE(group, 0);
  out.writeUInt16BE(element, 2);
  out.write(vr, 4, 'latin1');
  if (long) out.writeUInt32BE(length, 8);
  else out.writeUInt16BE(length, 6);
  return out;
}

/** An item or delimiter tag in big endian (FFFE,E000 / E00D / E0DD) with its 32-bit length. */
function delimiterBe(element: number, length: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeUInt16BE(0xfffe, 0);
  out.writeUInt16BE(element, 2);
  out.writeUInt32BE(length, 4);
  return out;
}

/**
 * The same private UN element, nested: a private sequence (0011,1002) of undefined length whose one
 * item (undefined length too) holds the private creator and the UN element of undefined length with
 * its CP-246 little endian content — inserted in a big endian file before its first element of a
 * group above 0011, after a creator of its own.
 */
export function withNestedPrivateUnSequence(bigEndian: Uint8Array): Uint8Array {
  const at = offsetOfFirstElementAbove(bigEndian, 0x00111002);
  const creatorValue = Buffer.from('ACME 1.0', 'latin1');
  const creator = Buffer.concat([explicitBe(0x0011, 0x0010, 'LO', creatorValue.length), creatorValue]);
  const sequence = Buffer.concat([
    creator,
    explicitBe(0x0011, 0x1002, 'SQ', 0xffffffff),
    delimiterBe(0xe000, 0xffffffff),
    creator,
    explicitBe(0x0011, 0x1001, 'UN', 0xffffffff),
    unContent(),
    delimiterBe(0xe00d, 0),
    delimiterBe(0xe0dd, 0),
  ]);
  return Buffer.concat([bigEndian.subarray(0, at), sequence, bigEndian.subarray(at)]);
}

// ---------------------------------------------------------------------------------------------
// Generated images with known pixels (PS3.3 §C.7.6.3 Image Pixel Module), explicit VR little
// endian data sets, native or encapsulated pixel data.

const SECONDARY_CAPTURE = '1.2.840.10008.5.1.4.1.1.7';
const MULTIFRAME_TRUE_COLOR_SC = '1.2.840.10008.5.1.4.1.1.7.4';

/** A UID unique to this run (PS3.5 §B.2: 2.25 + a 128-bit integer in decimal). */
export function testUid(): string {
  let digits = String(1 + Math.floor(Math.random() * 9));
  for (let i = 0; i < 36; i++) digits += Math.floor(Math.random() * 10);
  return `2.25.${digits}`;
}

type Value = { vr: string; bytes: Uint8Array };
const text = (vr: string, value: string, pad = vr === 'UI' ? 0 : 0x20): Value => {
  const bytes = Buffer.from(value.length % 2 ? value + String.fromCharCode(pad) : value, 'latin1');
  return { vr, bytes };
};
const us = (...values: number[]): Value => {
  const bytes = Buffer.alloc(values.length * 2);
  values.forEach((v, i) => bytes.writeUInt16LE(v, i * 2));
  return { vr: 'US', bytes };
};
const LONG_VRS = new Set(['OB', 'OW', 'SQ', 'UN', 'UT']);

function explicitLe(tag: number, value: Value): Uint8Array {
  const long = LONG_VRS.has(value.vr);
  const header = Buffer.alloc(long ? 12 : 8);
  header.writeUInt16LE(tag >>> 16, 0);
  header.writeUInt16LE(tag & 0xffff, 2);
  header.write(value.vr, 4, 'latin1');
  if (long) header.writeUInt32LE(value.bytes.length, 8);
  else header.writeUInt16LE(value.bytes.length, 6);
  return Buffer.concat([header, value.bytes]);
}

export interface TestImage {
  rows: number;
  columns: number;
  samplesPerPixel: number;
  photometricInterpretation: string;
  planarConfiguration?: number;
  bitsAllocated: number;
  bitsStored?: number;
  pixelRepresentation?: number;
  /** One entry per frame: the frame's native bytes (PS3.5 §8.1.1). */
  frames: Uint8Array[];
  /** Palette colour: the three descriptors' first value is the entry count, LUT data 16-bit. */
  palette?: { first: number; red: number[]; green: number[]; blue: number[] };
  /** Default Explicit VR Little Endian; '1.2.840.10008.1.2.8.1' deflates each frame. */
  transferSyntaxUid?: string;
  sopClassUid?: string;
  modality?: string;
  /** Institution Name (0008,0080), absent when left out. */
  institutionName?: string;
}

export interface BuiltImage {
  bytes: Uint8Array;
  studyInstanceUid: string;
  seriesInstanceUid: string;
  sopInstanceUid: string;
}

/** A Part 10 file holding {@link TestImage}, with fresh UIDs. */
export function buildImage(image: TestImage): BuiltImage {
  const syntax = image.transferSyntaxUid ?? '1.2.840.10008.1.2.1';
  const isDeflatedFrames = syntax === '1.2.840.10008.1.2.8.1';
  const studyInstanceUid = testUid();
  const seriesInstanceUid = testUid();
  const sopInstanceUid = testUid();
  const sopClassUid =
    image.sopClassUid ?? (image.frames.length > 1 ? MULTIFRAME_TRUE_COLOR_SC : SECONDARY_CAPTURE);
  const bitsStored = image.bitsStored ?? image.bitsAllocated;
  const elements = new Map<number, Value>([
    [0x00080016, text('UI', sopClassUid)],
    [0x00080018, text('UI', sopInstanceUid)],
    [0x00080060, text('CS', image.modality ?? 'OT')],
    [0x00100010, text('PN', 'Pixel^Test')],
    [0x00100020, text('LO', 'PIXELS-1')],
    [0x0020000d, text('UI', studyInstanceUid)],
    [0x0020000e, text('UI', seriesInstanceUid)],
    [0x00200013, text('IS', '1')],
    [0x00280002, us(image.samplesPerPixel)],
    [0x00280004, text('CS', image.photometricInterpretation)],
    [0x00280010, us(image.rows)],
    [0x00280011, us(image.columns)],
    [0x00280100, us(image.bitsAllocated)],
    [0x00280101, us(bitsStored)],
    [0x00280102, us(bitsStored - 1)],
    [0x00280103, us(image.pixelRepresentation ?? 0)],
  ]);
  if (image.institutionName !== undefined) elements.set(0x00080080, text('LO', image.institutionName));
  if (image.samplesPerPixel > 1) elements.set(0x00280006, us(image.planarConfiguration ?? 0));
  if (image.frames.length > 1) elements.set(0x00280008, text('IS', String(image.frames.length)));
  if (image.palette) {
    const { first, red, green, blue } = image.palette;
    const lut = (values: number[]) => ({ vr: 'OW', bytes: us(...values).bytes });
    elements.set(0x00281101, us(red.length, first, 16));
    elements.set(0x00281102, us(green.length, first, 16));
    elements.set(0x00281103, us(blue.length, first, 16));
    elements.set(0x00281201, lut(red));
    elements.set(0x00281202, lut(green));
    elements.set(0x00281203, lut(blue));
  }
  const dataset = [...elements.entries()]
    .sort(([a], [b]) => a - b)
    .map(([tag, value]) => explicitLe(tag, value));

  let pixelElement: Uint8Array;
  if (isDeflatedFrames) {
    // PS3.5 §A.4.13: one fragment per frame, each frame raw deflate (RFC 1951) of its native bytes.
    const item = (bytes: Uint8Array) => {
      const padded = bytes.length % 2 ? Buffer.concat([bytes, Buffer.alloc(1)]) : Buffer.from(bytes);
      const header = Buffer.alloc(8);
      header.writeUInt16LE(0xfffe, 0);
      header.writeUInt16LE(0xe000, 2);
      header.writeUInt32LE(padded.length, 4);
      return Buffer.concat([header, padded]);
    };
    const header = Buffer.alloc(12);
    header.writeUInt16LE(0x7fe0, 0);
    header.writeUInt16LE(0x0010, 2);
    header.write('OB', 4, 'latin1');
    header.writeUInt32LE(0xffffffff, 8);
    const end = Buffer.alloc(8);
    end.writeUInt16LE(0xfffe, 0);
    end.writeUInt16LE(0xe0dd, 2);
    pixelElement = Buffer.concat([
      header,
      item(new Uint8Array(0)),
      ...image.frames.map((frame) => item(deflateRawSync(frame))),
      end,
    ]);
  } else {
    // Native frames follow each other; 1-bit frames are packed without padding between them.
    const joined =
      image.bitsAllocated === 1
        ? packFrames(image.frames, image.rows * image.columns)
        : Buffer.concat(image.frames);
    const padded = joined.length % 2 ? Buffer.concat([joined, Buffer.alloc(1)]) : joined;
    pixelElement = explicitLe(0x7fe00010, { vr: image.bitsAllocated > 8 ? 'OW' : 'OB', bytes: padded });
  }
  const meta = createFileMetaHeader({ sopClassUid, sopInstanceUid, transferSyntaxUid: syntax });
  return {
    bytes: Buffer.concat([meta, ...dataset, pixelElement]),
    studyInstanceUid,
    seriesInstanceUid,
    sopInstanceUid,
  };
}

/** Frames given as packed bits each (their own byte-aligned start) joined without padding. */
function packFrames(frames: Uint8Array[], pixelsPerFrame: number): Buffer {
  const out = Buffer.alloc(Math.ceil((frames.length * pixelsPerFrame) / 8));
  frames.forEach((frame, f) => {
    for (let i = 0; i < pixelsPerFrame; i++) {
      const bit = ((frame[i >> 3] as number) >> (i & 7)) & 1;
      const at = f * pixelsPerFrame + i;
      out[at >> 3] = (out[at >> 3] as number) | (bit << (at & 7));
    }
  });
  return out;
}

/** 1-bit pixels (0/1 per entry) packed least significant bit first (PS3.5 §8.1.1). */
export function packBits(pixels: readonly number[]): Uint8Array {
  const out = new Uint8Array(Math.ceil(pixels.length / 8));
  pixels.forEach((p, i) => {
    if (p) out[i >> 3] = (out[i >> 3] as number) | (1 << (i & 7));
  });
  return out;
}
