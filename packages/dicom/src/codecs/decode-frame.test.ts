import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractFrames } from '../frames.js';
import { parseInstance } from '../parse.js';
import { FIXTURES_DIR, isValidOutcome, manifest, readFixture } from '../test-fixtures.js';
import { TRANSFER_SYNTAX } from '../transfer-syntax.js';
import {
  type DecodedFrame,
  FrameDecodeError,
  canDecodeTransferSyntax,
  decodeFrame,
  decodeRle,
} from './index.js';

/** Every frame of a file decoded by us (at most `limit` frames). */
async function decodeAll(bytes: Uint8Array, limit = Infinity): Promise<DecodedFrame[]> {
  const parsed = parseInstance(bytes);
  const image = parsed.image;
  if (!image) throw new Error('no image');
  const frames = extractFrames(bytes, parsed).slice(0, limit);
  const out: DecodedFrame[] = [];
  for (const frame of frames) {
    out.push(
      await decodeFrame({
        transferSyntaxUid: parsed.transferSyntaxUid,
        bytes: frame,
        rows: image.rows,
        columns: image.columns,
        bitsAllocated: image.bitsAllocated ?? 0,
        samplesPerPixel: image.samplesPerPixel,
        pixelRepresentation: image.pixelRepresentation ?? 0,
        photometricInterpretation: image.photometricInterpretation ?? '',
        planarConfiguration: image.planarConfiguration,
      }),
    );
  }
  return out;
}

function samplesOf(frame: DecodedFrame, isSigned = false): Int32Array {
  const { pixels } = frame;
  const width = frame.bitsAllocated / 8;
  const out = new Int32Array(pixels.length / width);
  for (let i = 0; i < out.length; i++) {
    const value =
      width === 2 ? (pixels[i * 2] as number) | ((pixels[i * 2 + 1] as number) << 8) : (pixels[i] as number);
    out[i] = isSigned && width === 2 ? (value << 16) >> 16 : value;
  }
  return out;
}

/** The largest difference between two decodes, or Infinity when their shapes differ. */
function maxDifference(a: DecodedFrame, b: DecodedFrame, isSigned = false): number {
  if (a.pixels.length !== b.pixels.length || a.bitsAllocated !== b.bitsAllocated) return Infinity;
  const x = samplesOf(a, isSigned);
  const y = samplesOf(b, isSigned);
  let max = 0;
  for (let i = 0; i < x.length; i++) max = Math.max(max, Math.abs((x[i] as number) - (y[i] as number)));
  return max;
}

/** DCMTK's decompressor per syntax: its output is native (explicit VR little endian). */
const DCMTK: Record<string, string[]> = {
  [TRANSFER_SYNTAX.jpegBaseline]: ['dcmdjpeg'],
  [TRANSFER_SYNTAX.jpegExtended]: ['dcmdjpeg'],
  [TRANSFER_SYNTAX.jpegLossless]: ['dcmdjpeg'],
  [TRANSFER_SYNTAX.jpegLosslessSv1]: ['dcmdjpeg'],
  [TRANSFER_SYNTAX.jpegLsLossless]: ['dcmdjpls'],
  [TRANSFER_SYNTAX.jpegLsNearLossless]: ['dcmdjpls'],
  [TRANSFER_SYNTAX.rleLossless]: ['dcmdrle'],
  [TRANSFER_SYNTAX.explicitVrBigEndian]: ['dcmconv', '+te'],
  [TRANSFER_SYNTAX.deflatedExplicitVrLittleEndian]: ['dcmconv', '+te'],
};
/** Lossy DCT JPEG: DCMTK's integer IDCT and ours round differently by one or two. */
const TOLERANCE: Record<string, number> = {
  [TRANSFER_SYNTAX.jpegBaseline]: 2,
  [TRANSFER_SYNTAX.jpegExtended]: 2,
};
const hasDcmtk = (() => {
  try {
    execFileSync('dcmdjpeg', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const dcmtkFiles = manifest.files.filter(
  (f) =>
    isValidOutcome(f.expected) &&
    f.has_pixel_data &&
    f.frames > 0 &&
    f.transfer_syntax_uid !== null &&
    DCMTK[f.transfer_syntax_uid] !== undefined,
);

describe.skipIf(!hasDcmtk)('decodeFrame equals DCMTK for every corpus file DCMTK decompresses', () => {
  const dir = mkdtempSync(join(tmpdir(), 'radflow-codecs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('covers every compressed syntax of the corpus DCMTK can decode', () => {
    const syntaxes = new Set(dcmtkFiles.map((f) => f.transfer_syntax_uid));
    for (const uid of Object.keys(DCMTK)) expect(syntaxes, uid).toContain(uid);
  });

  it.each(dcmtkFiles.map((f) => [f.path, f.transfer_syntax_uid as string] as const))(
    '%s',
    async (path, syntax) => {
      const [tool, ...options] = DCMTK[syntax] as [string, ...string[]];
      const out = join(dir, path.replace(/\//g, '_'));
      execFileSync(tool, [...options, join(FIXTURES_DIR, path), out], { stdio: 'pipe' });
      const limit = 4; // the first frames of long cines are enough
      const ours = await decodeAll(readFixture(path), limit);
      const theirs = await decodeAll(new Uint8Array(readFileSync(out)), limit);
      expect(ours.length).toBeGreaterThan(0);
      expect(ours.length).toBe(theirs.length);
      ours.forEach((frame, i) => {
        const reference = theirs[i] as DecodedFrame;
        expect(frame.photometricInterpretation).toBe(reference.photometricInterpretation);
        expect(maxDifference(frame, reference), `frame ${i + 1}`).toBeLessThanOrEqual(TOLERANCE[syntax] ?? 0);
      });
    },
  );
});

describe('JPEG 2000 (no DCMTK decoder here)', () => {
  it('decodes the lossless CT exactly as its uncompressed twin, and the lossy one close to it', async () => {
    const [twin] = await decodeAll(readFixture('transfer_syntax/ct_explicit_vr_le.dcm'));
    const [lossless] = await decodeAll(readFixture('transfer_syntax/ct_jpeg2000_lossless.dcm'));
    const [lossy] = await decodeAll(readFixture('transfer_syntax/ct_jpeg2000.dcm'));
    expect(maxDifference(lossless as DecodedFrame, twin as DecodedFrame, true)).toBe(0);
    // Its values are signed CT numbers from −2000 to 2402: a wrap-around would differ by ~65535.
    expect(maxDifference(lossy as DecodedFrame, twin as DecodedFrame, true)).toBeLessThanOrEqual(8);
  });

  it('decodes the 1760×1760 lossy CR to 10-bit values that vary', async () => {
    const [frame] = await decodeAll(readFixture('cr_dx/cr_rg3_jpeg2000_lossy_1760x1760.dcm'));
    expect(frame).toMatchObject({
      rows: 1760,
      columns: 1760,
      bitsAllocated: 16,
      photometricInterpretation: 'MONOCHROME1',
    });
    const samples = samplesOf(frame as DecodedFrame);
    expect(samples.length).toBe(1760 * 1760);
    const distinct = new Set(samples.subarray(0, 200_000)).size;
    expect(distinct).toBeGreaterThan(50);
    expect(Math.max(...new Set(samples))).toBeLessThan(1024);
  });
});

describe('colour of 8-bit JPEG', () => {
  async function decodeAs(path: string, photometricInterpretation: string): Promise<Uint8Array> {
    const bytes = readFixture(path);
    const parsed = parseInstance(bytes);
    const [frame] = extractFrames(bytes, parsed);
    const decoded = await decodeFrame({
      transferSyntaxUid: parsed.transferSyntaxUid,
      bytes: frame as Uint8Array,
      rows: parsed.image?.rows ?? 0,
      columns: parsed.image?.columns ?? 0,
      bitsAllocated: 8,
      samplesPerPixel: 3,
      pixelRepresentation: 0,
      photometricInterpretation,
    });
    expect(decoded.photometricInterpretation).toBe('RGB');
    return decoded.pixels;
  }

  it('follows a JFIF marker whatever the header says, and the header when the stream says nothing', async () => {
    const jfif = 'special/sc_ybr_full_jpeg_baseline.dcm';
    expect(
      Buffer.from(await decodeAs(jfif, 'RGB')).equals(Buffer.from(await decodeAs(jfif, 'YBR_FULL'))),
    ).toBe(true);
    const bare = 'special/sc_rgb_jpeg_no_color_transform.dcm';
    expect(
      Buffer.from(await decodeAs(bare, 'RGB')).equals(Buffer.from(await decodeAs(bare, 'YBR_FULL'))),
    ).toBe(false);
  });
});

describe('HTJ2K (none in the corpus)', () => {
  /** The encoder half of the OpenJPH package (the decoder's typings leave it out). */
  interface HtJ2kEncoder {
    getDecodedBuffer(info: Record<string, number | boolean>): Uint8Array;
    setQuality(isLossless: boolean, quantizationStep: number): void;
    encode(): void;
    getEncodedBuffer(): Uint8Array;
  }

  it('decodes a lossless HTJ2K frame made by OpenJPH from the CT back to the same pixels', async () => {
    const bytes = readFixture('transfer_syntax/ct_explicit_vr_le.dcm');
    const [native] = extractFrames(bytes, parseInstance(bytes));
    const { default: factory } = await import('@cornerstonejs/codec-openjph/wasmjs');
    const codec = (await factory({ print: () => undefined, printErr: () => undefined })) as unknown as {
      HTJ2KEncoder: new () => HtJ2kEncoder;
    };
    const encoder = new codec.HTJ2KEncoder();
    encoder
      .getDecodedBuffer({
        width: 512,
        height: 512,
        bitsPerSample: 16,
        componentCount: 1,
        isSigned: true,
        isUsingColorTransform: false,
      })
      .set(native as Uint8Array);
    encoder.setQuality(true, 0);
    encoder.encode();
    const encoded = encoder.getEncodedBuffer().slice();
    expect(encoded.length).toBeLessThan((native as Uint8Array).length / 1.5);
    for (const transferSyntaxUid of [TRANSFER_SYNTAX.htj2kLossless, TRANSFER_SYNTAX.htj2k]) {
      const decoded = await decodeFrame({
        transferSyntaxUid,
        bytes: encoded,
        rows: 512,
        columns: 512,
        bitsAllocated: 16,
        samplesPerPixel: 1,
        pixelRepresentation: 1,
        photometricInterpretation: 'MONOCHROME2',
      });
      expect(Buffer.from(decoded.pixels).equals(Buffer.from(native as Uint8Array)), transferSyntaxUid).toBe(
        true,
      );
    }
  });
});

describe('RLE Lossless (PS3.5 Annex G)', () => {
  const header = (offsets: number[]) => {
    const bytes = new Uint8Array(64);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, offsets.length, true);
    offsets.forEach((offset, i) => view.setUint32(4 + i * 4, offset, true));
    return bytes;
  };

  it('puts the high-byte segment first, and reads literal, repeat and no-op runs', () => {
    // 2×2 pixels of 16 bits: high bytes [1, 1, 1, 2] (repeat of 3, literal 1), low bytes literal.
    const high = [0xfe, 1, 0x80, 0, 2];
    const low = [3, 10, 20, 30, 40];
    const frame = new Uint8Array([...header([64, 64 + high.length]), ...high, ...low]);
    const out = decodeRle(frame, { rows: 2, columns: 2, samplesPerPixel: 1, bitsAllocated: 16 });
    expect([...new Uint16Array(out.buffer)]).toEqual([0x010a, 0x0114, 0x011e, 0x0228]);
  });

  it('interleaves colour segments and refuses a segment count that does not fit', () => {
    const frame = new Uint8Array([...header([64, 66, 68]), 0, 7, 0, 8, 0, 9]);
    const out = decodeRle(frame, { rows: 1, columns: 1, samplesPerPixel: 3, bitsAllocated: 8 });
    expect([...out]).toEqual([7, 8, 9]);
    expect(() => decodeRle(frame, { rows: 1, columns: 1, samplesPerPixel: 1, bitsAllocated: 8 })).toThrow(
      /3 segments/,
    );
  });
});

describe('what cannot be decoded', () => {
  const base = {
    rows: 512,
    columns: 512,
    bitsAllocated: 16,
    samplesPerPixel: 1,
    pixelRepresentation: 1,
    photometricInterpretation: 'MONOCHROME2',
  };

  it('names a syntax without a decoder', async () => {
    expect(canDecodeTransferSyntax('1.2.840.10008.1.2.4.100')).toBe(false);
    const error = await decodeFrame({
      ...base,
      transferSyntaxUid: '1.2.840.10008.1.2.4.100',
      bytes: new Uint8Array(8),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FrameDecodeError);
    expect(error).toMatchObject({ code: 'UNSUPPORTED', message: expect.stringContaining('MPEG2') });
  });

  it('answers CORRUPT_FRAME for cut or garbage frames of every codec, never a crash', async () => {
    const bytes = readFixture('transfer_syntax/ct_jpegls_lossless.dcm');
    const [frame] = extractFrames(bytes, parseInstance(bytes));
    for (const [syntax, data] of [
      [TRANSFER_SYNTAX.jpegLsLossless, (frame as Uint8Array).subarray(0, 40)],
      [TRANSFER_SYNTAX.jpeg2000Lossless, new Uint8Array([0xff, 0x4f, 0xff, 0x51, 1, 2, 3])],
      [TRANSFER_SYNTAX.htj2kLossless, new Uint8Array([0xff, 0x4f, 0xff, 0x51, 1, 2, 3])],
      [TRANSFER_SYNTAX.jpegBaseline, new Uint8Array([0xff, 0xd8, 0xff, 0xd9])],
      [TRANSFER_SYNTAX.jpegLossless, new Uint8Array([0xff, 0xd8, 0xff, 0xd9])],
      [TRANSFER_SYNTAX.rleLossless, new Uint8Array(10)],
      [TRANSFER_SYNTAX.explicitVrLittleEndian, new Uint8Array(100)],
    ] as const) {
      const error = await decodeFrame({ ...base, transferSyntaxUid: syntax, bytes: data }).catch(
        (e: unknown) => e,
      );
      expect(error, syntax).toBeInstanceOf(FrameDecodeError);
    }
  });
});
