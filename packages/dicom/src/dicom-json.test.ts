import { describe, expect, it } from 'vitest';
import {
  toDicomJson,
  type BulkDataReference,
  type DicomJsonDataset,
  type DicomJsonPersonName,
} from './dicom-json.js';
import { parseInstance } from './parse.js';
import { manifest, readFixture } from './test-fixtures.js';

const NUMBER_VRS = new Set(['IS', 'DS', 'US', 'SS', 'UL', 'SL', 'FL', 'FD']);

function personNameText(name: DicomJsonPersonName): string {
  return [name.Alphabetic ?? '', name.Ideographic ?? '', name.Phonetic ?? ''].join('=').replace(/=+$/, '');
}

/** Every structural rule of PS3.18 F.2 that a client relies on, checked at every depth. */
function checkModel(json: DicomJsonDataset, where: string): void {
  // Key order is not checked: JSON objects are unordered, and JS lists integer-like keys first.
  for (const [tag, element] of Object.entries(json)) {
    const at = `${where} ${tag}`;
    expect(tag, at).toMatch(/^[0-9A-F]{8}$/);
    expect(element.vr, at).toMatch(/^[A-Z]{2}$/);
    const valueKeys = ['Value', 'InlineBinary', 'BulkDataURI'].filter((key) => key in element);
    expect(valueKeys.length, at).toBeLessThanOrEqual(1);
    if (element.Value) {
      expect(element.Value.length, at).toBeGreaterThan(0);
      expect(
        element.Value.some((value) => value !== null),
        at,
      ).toBe(true);
    }
    for (const value of element.Value ?? []) {
      if (value === null) continue;
      if (element.vr === 'SQ') checkModel(value as DicomJsonDataset, at);
      else if (element.vr === 'PN')
        expect(
          Object.keys(value as object).every((k) => ['Alphabetic', 'Ideographic', 'Phonetic'].includes(k)),
          at,
        ).toBe(true);
      else if (element.vr === 'AT') expect(value, at).toMatch(/^[0-9A-F]{8}$/);
      else if (NUMBER_VRS.has(element.vr)) expect(typeof value, at).toBe('number');
      else expect(typeof value, at).toBe('string');
    }
  }
}

describe('toDicomJson over the corpus', () => {
  const valid = manifest.files.filter((file) => file.expected.startsWith('valid'));
  it.each(valid.map((file) => [file.path, file] as const))(
    '%s follows PS3.18 F.2 and carries the recorded values',
    (path, file) => {
      const parsed = parseInstance(readFixture(path));
      const references: BulkDataReference[] = [];
      const json = toDicomJson(parsed, {
        bulkDataUri: (reference) => {
          references.push(reference);
          return `/bulk/${reference.path.join('/')}`;
        },
      });
      checkModel(json, path);
      expect(json['00080018']?.Value).toEqual([file.sop_instance_uid]);
      expect(json['0020000D']?.Value).toEqual([file.study_instance_uid]);
      expect(json['0020000E']?.Value).toEqual([file.series_instance_uid]);
      const name = json['00100010']?.Value?.[0] as DicomJsonPersonName | undefined;
      expect(name ? personNameText(name) : '').toBe(file.patient_name ?? '');
      if (file.rows !== null) expect(json['00280010']?.Value).toEqual([file.rows]);
      if (file.has_pixel_data) {
        const pixel = json['7FE00010'] ?? json['7FE00008'] ?? json['7FE00009'];
        expect(pixel?.BulkDataURI).toMatch(/^\/bulk\/7FE000(10|08|09)$/);
        expect(references.find((reference) => reference.isPixelData)?.offset).toBe(parsed.pixelData?.offset);
      }
      expect(Object.keys(json).some((tag) => tag.startsWith('0002'))).toBe(false);
    },
  );
});

describe('toDicomJson', () => {
  // Private elements have no VR in implicit files (UN), and PS3.6 'US or SS' elements follow Pixel
  // Representation there while explicit writers may have chosen US: compare the rest.
  const publicOnly = (json: DicomJsonDataset) =>
    Object.fromEntries(
      Object.entries(json)
        .filter(([tag]) => parseInt(tag.slice(0, 4), 16) % 2 === 0)
        .map(([tag, element]) => [tag, element.vr === 'SS' ? { ...element, vr: 'US' } : element]),
    );

  it('gives the same JSON for one instance in implicit, explicit and big-endian syntaxes', () => {
    const [implicit, explicit, bigEndian] = [
      'mr/mr_small_64x64_implicit_le.dcm',
      'mr/mr_small_64x64_explicit_le.dcm',
      'mr/mr_small_64x64_explicit_be.dcm',
    ].map((path) => publicOnly(toDicomJson(parseInstance(readFixture(path)), { bulkDataUri: () => 'bulk' })));
    expect(implicit).toEqual(explicit);
    expect(bigEndian).toEqual(explicit);
  });

  it('writes person names as component groups', () => {
    const json = toDicomJson(parseInstance(readFixture('charset/iso2022_ir87_japanese_kanji.dcm')));
    expect(json['00100010']).toEqual({
      vr: 'PN',
      Value: [{ Alphabetic: 'Yamada^Tarou', Ideographic: '山田^太郎', Phonetic: 'やまだ^たろう' }],
    });
  });

  it('drops empty values: the element stays, without a Value key', () => {
    const json = toDicomJson(parseInstance(readFixture('mr/mr_small_64x64_explicit_le.dcm')));
    expect(json['00080090']).toEqual({ vr: 'PN' });
    expect(json['00100030']).toEqual({ vr: 'DA' });
  });

  it('writes numbers for numeric strings and binary numbers, hex for AT, items for sequences', () => {
    const json = toDicomJson(
      parseInstance(readFixture('ct/enhanced_ct_2frames_jpeg_lossless_sv1_fragmented_no_bot.dcm')),
    );
    expect(json['00280008']).toEqual({ vr: 'IS', Value: [2] });
    expect(json['00280100']).toEqual({ vr: 'US', Value: [16] });
    const dimensions = json['00209222']?.Value as DicomJsonDataset[]; // Dimension Index Sequence
    expect(dimensions.length).toBeGreaterThan(0);
    expect(dimensions[0]?.['00209165']?.vr).toBe('AT');
    expect(dimensions[0]?.['00209165']?.Value?.[0]).toMatch(/^[0-9A-F]{8}$/);
    const perFrame = json['52009230']?.Value as DicomJsonDataset[]; // Per-frame Functional Groups
    expect(perFrame).toHaveLength(2);
  });

  it('keeps small binaries inline and makes large ones bulk data', () => {
    const parsed = parseInstance(readFixture('us/us_palette_color_16bit_lut_implicit_le.dcm'));
    const inline = toDicomJson(parsed, { bulkDataThreshold: 1 << 30 });
    const bulk = toDicomJson(parsed, { bulkDataThreshold: 16, bulkDataUri: (r) => `/bulk/${r.tag}` });
    const lut = '00281221'; // Segmented Red Palette Color LUT Data (OW)
    expect(inline[lut]?.InlineBinary).toBeTypeOf('string');
    expect(bulk[lut]?.BulkDataURI).toBe(`/bulk/${lut}`);
    expect(inline['7FE00010']).toEqual({ vr: 'OW' }); // pixel data never inline; no URI without a callback
  });

  it('can include the file meta group', () => {
    const json = toDicomJson(parseInstance(readFixture('transfer_syntax/ct_jpeg2000.dcm')), {
      includeFileMeta: true,
    });
    expect(json['00020010']).toEqual({ vr: 'UI', Value: ['1.2.840.10008.1.2.4.91'] });
  });
});
