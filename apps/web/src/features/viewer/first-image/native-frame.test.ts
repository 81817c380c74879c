import { describe, expect, it } from 'vitest';
import type { TDicomJson } from '../data-source/dicom-json';
import { firstPartOf, fitTransform, partsOf, previewPixels, syntaxOfContentType } from './native-frame';

const EXPLICIT_LE = '1.2.840.10008.1.2.1';

/** Metadata of a rows × columns greyscale instance, as the index answers it (DICOM JSON). */
function meta(
  values: Record<string, string | number | number[] | undefined>,
  rows = 1,
  columns = 4,
): TDicomJson {
  const tags: Record<string, string> = {
    photometric: '00280004',
    bitsAllocated: '00280100',
    bitsStored: '00280101',
    highBit: '00280102',
    pixelRepresentation: '00280103',
    windowCenter: '00281050',
    windowWidth: '00281051',
    intercept: '00281052',
    slope: '00281053',
    modality: '00080060',
    voiLutFunction: '00281056',
    pixelSpacing: '00280030',
  };
  const out: TDicomJson = {
    '00280010': { vr: 'US', Value: [rows] },
    '00280011': { vr: 'US', Value: [columns] },
    '00280002': { vr: 'US', Value: [1] },
  };
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    out[tags[name] ?? name] = { Value: Array.isArray(value) ? value : [value] };
  }
  return out;
}

const ct = (extra: Record<string, string | number | number[] | undefined> = {}) =>
  meta({
    photometric: 'MONOCHROME2',
    bitsAllocated: 16,
    bitsStored: 16,
    highBit: 15,
    pixelRepresentation: 1,
    modality: 'CT',
    ...extra,
  });

const int16 = (...values: number[]) => new Uint8Array(new Int16Array(values).buffer);
const uint16 = (...values: number[]) => new Uint8Array(new Uint16Array(values).buffer);
const greys = (result: ReturnType<typeof previewPixels>) => {
  if (!result.ok) throw new Error(result.reason);
  return Array.from(result.pixels.rgba.filter((_, i) => i % 4 === 0));
};

describe('previewPixels: the grey levels Cornerstone will show', () => {
  it('applies the modality LUT, then the first window of the instance (Cornerstone linear VOI)', () => {
    // Stored -1024, -984, -944, 0 → HU -2048, -1968, -1888, -1024 with slope 2, intercept -1024.
    const result = previewPixels(
      ct({ slope: 2, intercept: -1024, windowCenter: [-1968, 40], windowWidth: [161, 400] }),
      EXPLICIT_LE,
      int16(-512, -472, -432, 0),
    );
    // ((v − (c − 0.5)) / (w − 1) + 0.5) × 255, clamped and rounded (half to even).
    const expected = [-2048, -1968, -1888, -1024].map((v) =>
      Math.round(Math.min(Math.max(((v - (-1968 - 0.5)) / 160 + 0.5) * 255, 0), 255)),
    );
    expect(greys(result)).toEqual(expected);
    expect(result.ok && [result.pixels.windowWidth, result.pixels.windowCenter]).toEqual([161, -1968]);
  });

  it('without a window uses the modality values’ range, as Cornerstone’s toWindowLevel does', () => {
    const result = previewPixels(ct({ slope: 1, intercept: -1000 }), EXPLICIT_LE, int16(0, 100, 200, 300));
    expect(result.ok && [result.pixels.windowWidth, result.pixels.windowCenter]).toEqual([301, -849.5]);
    expect(greys(result)).toEqual([0, 85, 170, 255]);
  });

  it('inverts MONOCHROME1', () => {
    const plain = greys(
      previewPixels(ct({ windowCenter: 150, windowWidth: 301 }), EXPLICIT_LE, int16(0, 100, 200, 300)),
    );
    const inverted = greys(
      previewPixels(
        ct({ photometric: 'MONOCHROME1', windowCenter: 150, windowWidth: 301 }),
        EXPLICIT_LE,
        int16(0, 100, 200, 300),
      ),
    );
    expect(plain).toEqual([0, 85, 170, 255]);
    expect(inverted).toEqual([255, 170, 85, 0]);
  });

  it('sign-extends signed pixels from Bits Stored', () => {
    // 12 bits stored: 0x0FFF is −1, 0x0800 is −2048.
    const result = previewPixels(
      ct({ bitsStored: 12, highBit: 11, windowCenter: -1024, windowWidth: 2049 }),
      EXPLICIT_LE,
      uint16(0x0fff, 0x0800, 0, 0x07ff),
    );
    const at = (v: number) => Math.round(Math.min(Math.max(((v + 1024.5) / 2048 + 0.5) * 255, 0), 255));
    expect(greys(result)).toEqual([at(-1), at(-2048), at(0), at(2047)]);
  });

  it('reads unsigned pixels as unsigned, and refuses bits set above High Bit', () => {
    const base = {
      pixelRepresentation: 0,
      bitsStored: 12,
      highBit: 11,
      windowCenter: 2048,
      windowWidth: 4097,
    };
    expect(greys(previewPixels(ct(base), EXPLICIT_LE, uint16(0, 4095, 2048, 1)))[1]).toBe(255);
    const overlayBit = previewPixels(ct(base), EXPLICIT_LE, uint16(0, 0x1000, 2048, 1));
    expect(overlayBit).toEqual({ ok: false, reason: 'pixels with bits set above high bit 11' });
  });

  it('reads implicit VR little endian and 8-bit pixels', () => {
    const eight = meta({
      photometric: 'MONOCHROME2',
      bitsAllocated: 8,
      bitsStored: 8,
      highBit: 7,
      pixelRepresentation: 0,
    });
    expect(greys(previewPixels(eight, '1.2.840.10008.1.2', new Uint8Array([0, 85, 170, 255])))).toEqual([
      0, 85, 170, 255,
    ]);
  });

  it('refuses what it cannot show exactly: compressed and big-endian syntaxes, colour, LUT functions', () => {
    const frame = int16(0, 1, 2, 3);
    expect(previewPixels(ct(), '1.2.840.10008.1.2.4.50', frame)).toMatchObject({ ok: false });
    expect(previewPixels(ct(), '1.2.840.10008.1.2.2', frame)).toMatchObject({ ok: false });
    expect(previewPixels(ct(), '', frame)).toMatchObject({ ok: false });
    expect(previewPixels(ct({ photometric: 'RGB' }), EXPLICIT_LE, frame)).toMatchObject({ ok: false });
    expect(previewPixels(ct({ voiLutFunction: 'SIGMOID' }), EXPLICIT_LE, frame)).toMatchObject({ ok: false });
    expect(previewPixels(ct({ modality: 'PT' }), EXPLICIT_LE, frame)).toMatchObject({ ok: false });
    expect(previewPixels(ct({ highBit: 14 }), EXPLICIT_LE, frame)).toMatchObject({ ok: false });
    expect(previewPixels(ct(), EXPLICIT_LE, frame.subarray(0, 6))).toMatchObject({ ok: false });
  });
});

describe('the frame answer', () => {
  it('is the first part of a WADO-RS multipart, with the syntax its Content-Type names', () => {
    const body = new TextEncoder().encode(
      '--b1\r\nContent-Type: application/octet-stream; transfer-syntax=1.2.840.10008.1.2.1\r\n\r\nABCD\r\n--b1--\r\n',
    );
    const part = firstPartOf('multipart/related; type="application/octet-stream"; boundary=b1', body);
    expect(new TextDecoder().decode(part?.bytes)).toBe('ABCD');
    expect(syntaxOfContentType(part?.contentType ?? '')).toBe(EXPLICIT_LE);
    expect(syntaxOfContentType('application/octet-stream')).toBe('1.2.840.10008.1.2');
    expect(syntaxOfContentType('image/jpeg')).toBe('');
  });
});

describe('the first-image answer', () => {
  const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

  it('is read part by part, each with its own Content-Type, a CRLF inside a part kept', () => {
    const body = new TextEncoder().encode(
      '--x\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n' +
        '--x\r\nContent-Type: application/octet-stream; transfer-syntax=1.2.840.10008.1.2.1\r\n\r\nAB\r\nCD\r\n' +
        '--x--\r\n',
    );
    const parts = partsOf('multipart/related; type="application/json"; boundary=x', body);
    expect(parts?.map((p) => p.contentType)).toEqual([
      'application/json',
      'application/octet-stream; transfer-syntax=1.2.840.10008.1.2.1',
    ]);
    expect(parts?.map((p) => text(p.bytes))).toEqual(['{"a":1}', 'AB\r\nCD']);
  });

  it('is refused when a part is cut off or the boundary is missing', () => {
    const cut = new TextEncoder().encode('--x\r\nContent-Type: application/json\r\n\r\n{"a":1}');
    expect(partsOf('multipart/related; boundary=x', cut)).toBeNull();
    expect(partsOf('multipart/related', cut)).toBeNull();
  });
});

describe('fitTransform: where Cornerstone fits the image', () => {
  it('centres the whole image at the largest scale that fits', () => {
    const square = { rows: 512, columns: 512, rowPixelSpacing: 0.7, columnPixelSpacing: 0.7 };
    expect(fitTransform(square, 1000, 800)).toEqual({
      matrix: [1.5625, 0, 0, 1.5625, 100, 0],
      scale: 1.5625,
    });
  });

  it('stretches non-square pixels along their longer side', () => {
    // Rows twice as far apart as columns: the image is twice as tall as its pixel count says.
    const tall = { rows: 100, columns: 100, rowPixelSpacing: 2, columnPixelSpacing: 1 };
    const { matrix, scale } = fitTransform(tall, 400, 400);
    expect(scale).toBe(2);
    expect(matrix).toEqual([2, 0, 0, 4, 100, 0]);
  });
});
