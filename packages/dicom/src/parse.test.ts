import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DicomParseError } from './errors.js';
import { assertIngestable, parseInstance, type ParsedInstance } from './parse.js';
import { fixture, isValidOutcome, manifest, readFixture, type ManifestFile } from './test-fixtures.js';
import { getTransferSyntax } from './transfer-syntax.js';

const orNull = (value: string | null | undefined): string | null =>
  value === '' || value === undefined ? null : value;

function charsetTerms(value: ManifestFile['specific_character_set']): string[] {
  if (value === null || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

/** Parse and apply the ingest rule, as the server does for each received instance. */
function ingest(bytes: Uint8Array): ParsedInstance {
  const parsed = parseInstance(bytes);
  assertIngestable(parsed);
  return parsed;
}

describe('the sample corpus (manifest.json)', () => {
  it('is complete and byte-identical to the manifest', () => {
    expect(manifest.files).toHaveLength(manifest.file_count);
    for (const file of manifest.files) {
      const digest = createHash('sha256').update(readFixture(file.path)).digest('hex');
      expect(digest, file.path).toBe(file.sha256);
    }
  });

  const valid = manifest.files.filter((file) => isValidOutcome(file.expected));
  const invalid = manifest.files.filter((file) => file.expected === 'invalid');

  describe.each(valid)('$expected $path', (file) => {
    it('parses and carries the recorded identity, patient and image fields', () => {
      const parsed = ingest(readFixture(file.path));
      expect(parsed.sopInstanceUid).toBe(file.sop_instance_uid);
      expect(parsed.sopClassUid).toBe(file.sop_class_uid);
      expect(parsed.studyInstanceUid).toBe(file.study_instance_uid);
      expect(parsed.seriesInstanceUid).toBe(file.series_instance_uid);
      if (file.transfer_syntax_uid) {
        expect(parsed.transferSyntaxUid).toBe(file.transfer_syntax_uid);
        expect(parsed.isTransferSyntaxDetected).toBe(false);
      } else {
        // "(no file meta) Explicit VR Little Endian (detected)"
        expect(parsed.isTransferSyntaxDetected).toBe(true);
        expect(file.transfer_syntax).toContain(getTransferSyntax(parsed.transferSyntaxUid)?.name);
      }
      expect(parsed.hasFileMeta).toBe(file.has_file_meta);
      expect(parsed.hasPreamble).toBe(file.has_preamble_dicm);
      expect(parsed.specificCharacterSet).toEqual(charsetTerms(file.specific_character_set));

      const index = parsed.index;
      expect(index.patientName).toBe(orNull(file.patient_name));
      expect(index.patientId).toBe(orNull(file.patient_id));
      expect(index.modality).toBe(orNull(file.modality));
      expect(index.manufacturer).toBe(orNull(file.manufacturer));
      expect(index.seriesNumber).toBe(file.series_number);
      expect(index.instanceNumber).toBe(file.instance_number);
      expect(index.rows).toBe(file.rows);
      expect(index.columns).toBe(file.columns);
      expect(index.numberOfFrames).toBe(file.frames);

      expect(parsed.pixelData !== null).toBe(file.has_pixel_data);
      if (parsed.pixelData) expect(parsed.pixelData.isComplete).toBe(true);
      if (file.rows !== null) {
        expect(parsed.image).toMatchObject({
          rows: file.rows,
          columns: file.columns,
          bitsAllocated: file.bits_allocated,
          samplesPerPixel: file.samples_per_pixel,
          pixelRepresentation: file.pixel_representation,
          photometricInterpretation: file.photometric_interpretation,
        });
        expect(parsed.image?.bitsStored ?? null).toBe(file.bits_stored);
      }
      if (parsed.pixelData) {
        expect(parsed.pixelData.isEncapsulated).toBe(parsed.transferSyntax.isEncapsulated);
      }
    });
  });

  describe.each(invalid)('invalid $path', (file) => {
    it('is refused with a DicomParseError and a reason', () => {
      let error: unknown;
      try {
        ingest(readFixture(file.path));
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(DicomParseError);
      expect((error as DicomParseError).message.length).toBeGreaterThan(10);
    });
  });

  it('reports the reason of each invalid sample', () => {
    const reasons = Object.fromEntries(
      invalid.map((file) => {
        try {
          ingest(readFixture(file.path));
          return [file.path, 'accepted'];
        } catch (error) {
          return [file.path, error instanceof DicomParseError ? error.code : 'crash'];
        }
      }),
    );
    expect(reasons).toEqual({
      'bad/truncated_ct_in_pixel_data.dcm': 'PIXEL_DATA_TRUNCATED',
      'bad/truncated_in_file_meta.dcm': 'TRUNCATED_FILE_META',
      'bad/mr_truncated_pixel_data.dcm': 'PIXEL_DATA_TRUNCATED',
      'bad/meta_missing_transfer_syntax.dcm': 'MISSING_TRANSFER_SYNTAX',
      'bad/not_dicom_jpeg.dcm': 'NOT_DICOM',
      'bad/not_dicom_text.dcm': 'NOT_DICOM',
      'bad/empty_zero_bytes.dcm': 'EMPTY',
    });
  });
});

describe('parseInstance', () => {
  it('reads the header of a file cut inside its pixel data and says the pixel data is incomplete', () => {
    const file = fixture('bad/truncated_ct_in_pixel_data.dcm');
    const parsed = parseInstance(readFixture(file.path));
    expect(parsed.sopInstanceUid).toBe(file.sop_instance_uid);
    expect(parsed.index.patientName).toBe('MISTER^CT');
    expect(parsed.pixelData).toMatchObject({ isComplete: false, length: 512 * 512 * 2 });
    expect(() => assertIngestable(parsed)).toThrow(/524288 bytes but only/);
  });

  it('reads the same instance identically in every native syntax', () => {
    const paths = [
      'transfer_syntax/ct_implicit_vr_le.dcm',
      'transfer_syntax/ct_explicit_vr_le.dcm',
      'transfer_syntax/ct_explicit_vr_be.dcm',
      'transfer_syntax/ct_deflated_explicit_vr_le.dcm',
    ];
    const [first, ...others] = paths.map((path) => parseInstance(readFixture(path)));
    for (const other of others) {
      expect(other.index).toEqual(first?.index);
      expect(other.image).toEqual(first?.image);
    }
  });

  it('locates the pixel data without reading it (offset + length inside the file)', () => {
    const bytes = readFixture('transfer_syntax/ct_explicit_vr_le.dcm');
    const parsed = parseInstance(bytes);
    expect(parsed.datasetBytes).toBe(bytes); // no copy for non-deflated syntaxes
    expect(parsed.pixelData?.offset).toBe(bytes.length - 512 * 512 * 2);
  });

  it('inflates a deflated data set and says offsets refer to the inflated bytes', () => {
    const parsed = parseInstance(readFixture('transfer_syntax/ct_deflated_explicit_vr_le.dcm'));
    expect(parsed.transferSyntax.isDeflated).toBe(true);
    expect(parsed.pixelData?.isInInflatedDataset).toBe(true);
    expect(parsed.pixelData!.offset + parsed.pixelData!.length).toBeLessThanOrEqual(
      parsed.datasetBytes.length,
    );
  });

  it('lists the fragments and the empty Basic Offset Table of a fragmented multi-frame file', () => {
    const parsed = parseInstance(
      readFixture('ct/enhanced_ct_2frames_jpeg_lossless_sv1_fragmented_no_bot.dcm'),
    );
    expect(parsed.pixelData?.basicOffsetTable).toEqual([]);
    expect(parsed.pixelData?.fragments.length).toBeGreaterThan(2);
    expect(parsed.pixelData?.isComplete).toBe(true);
  });

  it('detects implicit and explicit VR in files without preamble and file meta', () => {
    const explicit = parseInstance(readFixture('special/no_preamble_no_meta_ct_small.dcm'));
    const implicit = parseInstance(readFixture('special/no_preamble_ot_palette_implicit.dcm'));
    expect(explicit.transferSyntaxUid).toBe('1.2.840.10008.1.2.1');
    expect(implicit.transferSyntaxUid).toBe('1.2.840.10008.1.2');
    expect(explicit.index).toEqual(parseInstance(readFixture('ct/ct_small_128x128_explicit_le.dcm')).index);
  });

  it.each([
    ['empty', new Uint8Array(0), 'EMPTY'],
    ['four bytes', new Uint8Array([1, 2, 3, 4]), 'NOT_DICOM'],
    [
      'a preamble with nothing after DICM',
      (() => {
        const bytes = new Uint8Array(132);
        bytes.set([0x44, 0x49, 0x43, 0x4d], 128);
        return bytes;
      })(),
      'TRUNCATED_FILE_META',
    ],
    [
      'PDF bytes',
      new TextEncoder().encode('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'),
      'NOT_DICOM',
    ],
    ['HTML', new TextEncoder().encode('<!doctype html><html><body>not dicom</body></html>'), 'NOT_DICOM'],
  ])('refuses %s with a typed error', (_name, bytes, code) => {
    expect(() => parseInstance(bytes)).toThrow(DicomParseError);
    try {
      parseInstance(bytes);
    } catch (error) {
      expect((error as DicomParseError).code).toBe(code);
    }
  });

  it('never crashes or hangs on truncated or corrupted copies of real files', () => {
    const sources = [
      'transfer_syntax/ct_implicit_vr_le.dcm',
      'ct/study_liver/seg_liver_3frames.dcm',
      'nm_pt_xa/xa_96frames_jpeg_baseline.dcm',
      'transfer_syntax/ct_deflated_explicit_vr_le.dcm',
      'special/sr_comprehensive.dcm',
      'charset/iso2022_ir87_japanese_kanji.dcm',
      'transfer_syntax/ct_explicit_vr_be.dcm',
    ];
    let random = 42;
    const next = () => {
      random = (random * 1103515245 + 12345) & 0x7fffffff;
      return random;
    };
    const started = Date.now();
    let outcomes = 0;
    for (const path of sources) {
      const bytes = readFixture(path);
      const headerEnd = Math.min(bytes.length, 6000);
      const variants: Uint8Array[] = [];
      for (let cut = 1; cut < headerEnd; cut += 37) variants.push(bytes.subarray(0, cut));
      for (let i = 0; i < 150; i++) {
        const copy = bytes.slice(0, headerEnd);
        for (let flips = 0; flips < 4; flips++) copy[next() % headerEnd] = next() & 0xff;
        variants.push(copy);
      }
      for (const variant of variants) {
        try {
          parseInstance(variant);
        } catch (error) {
          expect(error, `${path} (${variant.length} bytes)`).toBeInstanceOf(DicomParseError);
        }
        outcomes++;
      }
    }
    expect(outcomes).toBeGreaterThan(1000);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe('parseInstance with a file meta that misstates the VR encoding', () => {
  it('reads an implicit data set declared explicit (and the reverse) as it is written', () => {
    const implicit = readFixture('transfer_syntax/ct_implicit_vr_le.dcm');
    const explicit = readFixture('transfer_syntax/ct_explicit_vr_le.dcm');
    const swapSyntax = (bytes: Uint8Array, from: string, to: string) => {
      // same-length UIDs after padding: '1.2.840.10008.1.2\0' (18) vs '1.2.840.10008.1.2.1' (19 → 20)
      const text = Buffer.from(bytes).toString('latin1');
      const at = text.indexOf(from);
      expect(at).toBeGreaterThan(0);
      const copy = Buffer.from(bytes);
      copy.write(to.padEnd(from.length, '\0'), at, 'latin1');
      return new Uint8Array(copy);
    };
    // The explicit file's meta says '1.2.840.10008.1.2.1'; make it claim implicit, and vice versa.
    const claimsImplicit = swapSyntax(explicit, '1.2.840.10008.1.2.1\0', '1.2.840.10008.1.2\0\0\0');
    const parsed = parseInstance(claimsImplicit);
    expect(parsed.transferSyntax.isExplicitVr).toBe(true);
    expect(parsed.warnings.join()).toMatch(/encoded with explicit VR/);
    expect(parsed.index).toEqual(parseInstance(explicit).index);
    expect(parseInstance(implicit).warnings).toEqual([]);
  });
});
