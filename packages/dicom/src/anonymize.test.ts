import dcmjs from 'dcmjs';
import { describe, expect, it } from 'vitest';
import { anonymizeDataset, anonymizePart10, remapUid } from './anonymize.js';
import { toDicomJson, type DicomJsonDataset } from './dicom-json.js';
import { extractFrames } from './frames.js';
import { parseInstance } from './parse.js';
import { manifest, readFixture } from './test-fixtures.js';

const SECRET = 'test-secret';

/** Every element at every depth, with its tag. */
function* walk(json: DicomJsonDataset): Generator<[string, DicomJsonDataset[string]]> {
  for (const [tag, element] of Object.entries(json)) {
    yield [tag, element];
    if (element.vr === 'SQ') for (const item of element.Value ?? []) yield* walk(item as DicomJsonDataset);
  }
}

function anonymizedJson(path: string, secret = SECRET) {
  const out = anonymizePart10(readFixture(path), secret);
  const parsed = parseInstance(out);
  return { out, parsed, json: toDicomJson(parsed, { includeFileMeta: true }) };
}

describe('anonymizePart10 over the corpus', () => {
  const valid = manifest.files.filter((file) => file.expected.startsWith('valid'));
  it.each(valid.map((file) => [file.path, file] as const))(
    '%s: parses again, no private tag, no name, UIDs remapped',
    (path, file) => {
      const { out, parsed, json } = anonymizedJson(path);
      expect(parsed.sopInstanceUid).toBe(remapUid(file.sop_instance_uid!, SECRET));
      expect(parsed.studyInstanceUid).toBe(remapUid(file.study_instance_uid!, SECRET));
      expect(parsed.seriesInstanceUid).toBe(remapUid(file.series_instance_uid!, SECRET));
      expect(parsed.sopClassUid).toBe(file.sop_class_uid); // a class, not an instance: kept
      expect(json['00020003']?.Value).toEqual([parsed.sopInstanceUid]); // Media Storage SOP Instance UID
      expect(json['00120062']?.Value).toEqual(['YES']);
      expect(json['00120063']?.Value?.[0]).toMatch(/Confidentiality Profile/);
      expect(parsed.index.patientName).toBeNull();
      expect(parsed.index.patientBirthDate).toBeNull();
      expect(parsed.index.institutionName).toBeNull();
      expect(parsed.index.referringPhysicianName).toBeNull();
      for (const [tag, element] of walk(json)) {
        expect(parseInt(tag.slice(0, 4), 16) % 2, `${path} private ${tag}`).toBe(0);
        if (element.vr === 'PN') expect(element.Value, `${path} name ${tag}`).toBeUndefined();
        if (element.vr === 'UI' && tag !== '00020012') {
          for (const uid of (element.Value ?? []) as string[])
            expect(uid, `${path} ${tag}`).toMatch(/^(1\.2\.840\.10008\.|2\.25\.)/);
        }
      }
      if (file.patient_id) expect(parsed.index.patientId).not.toContain(file.patient_id);
      if (file.has_pixel_data) {
        const original = readFixture(path);
        const before = extractFrames(original, parseInstance(original));
        const after = extractFrames(out, parsed);
        expect(after.map((frame) => frame.length)).toEqual(before.map((frame) => frame.length));
      }
    },
  );
});

describe('anonymisation keeps relations and is deterministic per secret', () => {
  it('maps the same UID to the same new UID, so a study and its series stay together', () => {
    const slices = [
      'ct/study_liver/ct_liver_01.dcm',
      'ct/study_liver/ct_liver_02.dcm',
      'ct/study_liver/ct_liver_03.dcm',
    ].map((path) => anonymizedJson(path).parsed);
    expect(new Set(slices.map((s) => s.studyInstanceUid)).size).toBe(1);
    expect(new Set(slices.map((s) => s.seriesInstanceUid)).size).toBe(1);
    expect(new Set(slices.map((s) => s.sopInstanceUid)).size).toBe(3);
    expect(new Set(slices.map((s) => s.index.patientId)).size).toBe(1);

    // the SEG of that study refers to the CT series: the reference is remapped the same way
    const seg = anonymizedJson('ct/study_liver/seg_liver_3frames.dcm');
    expect(seg.parsed.studyInstanceUid).toBe(slices[0]?.studyInstanceUid);
    const referencedSeries = [...walk(seg.json)]
      .filter(([tag]) => tag === '0020000E')
      .map(([, e]) => e.Value?.[0]);
    expect(referencedSeries).toContain(slices[0]?.seriesInstanceUid);
  });

  it('gives other UIDs under another secret, and the same under the same one', () => {
    const path = 'mr/mr_small_64x64_explicit_le.dcm';
    expect(anonymizedJson(path).parsed.sopInstanceUid).toBe(anonymizedJson(path).parsed.sopInstanceUid);
    expect(anonymizedJson(path, 'other').parsed.sopInstanceUid).not.toBe(
      anonymizedJson(path).parsed.sopInstanceUid,
    );
    expect(remapUid('1.2.3', SECRET)).toMatch(/^2\.25\.\d{1,39}$/);
    expect(remapUid('1.2.3', SECRET).length).toBeLessThanOrEqual(64);
  });
});

describe('anonymizeDataset', () => {
  it('cleans a denaturalized dataset recursively: privates, nested names, nested UIDs, profile attributes', () => {
    const dataset = {
      '00080018': { vr: 'UI', Value: ['1.2.3.4'] },
      '00080016': { vr: 'UI', Value: ['1.2.840.10008.5.1.4.1.1.2'] },
      '00080080': { vr: 'LO', Value: ['General Hospital'] },
      '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Doe^Jane' }] },
      '00100020': { vr: 'LO', Value: ['PID-1'] },
      '00100030': { vr: 'DA', Value: ['19700101'] },
      '00091001': { vr: 'LO', Value: ['vendor secret'] },
      '00081115': {
        vr: 'SQ',
        Value: [
          {
            '0020000E': { vr: 'UI', Value: ['1.2.3.4.5'] },
            '00081050': { vr: 'PN', Value: [{ Alphabetic: 'Dr^Who' }] },
            '0040A123': { vr: 'PN', Value: [{ Alphabetic: 'Someone' }] },
            '00191010': { vr: 'UN', InlineBinary: 'AAAA' },
            '0040A124': { vr: 'UI', Value: ['9.8.7'] },
          },
        ],
      },
    };
    anonymizeDataset(dataset, { secret: SECRET });
    const json = JSON.stringify(dataset);
    expect(json).not.toMatch(/Doe|Jane|Dr\^Who|Someone|General Hospital|vendor secret|19700101|PID-1/);
    expect(dataset).not.toHaveProperty('00091001');
    expect(dataset['00080018'].Value).toEqual([remapUid('1.2.3.4', SECRET)]);
    expect(dataset['00080016'].Value).toEqual(['1.2.840.10008.5.1.4.1.1.2']);
    const item = (dataset['00081115'].Value[0] ?? {}) as Record<string, { Value?: unknown[] }>;
    expect(item['0020000E']?.Value).toEqual([remapUid('1.2.3.4.5', SECRET)]);
    expect(item['0040A124']?.Value).toEqual([remapUid('9.8.7', SECRET)]);
    expect(item).not.toHaveProperty('00191010');
    expect((dataset as Record<string, { Value?: unknown[] }>)['00120062']?.Value).toEqual(['YES']);
  });

  it('works on what dcmjs reads from a file', () => {
    const bytes = readFixture('charset/utf8_iso_ir_192_chinese.dcm');
    const dicomDict = dcmjs.data.DicomMessage.readFile(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    );
    anonymizeDataset(dicomDict.dict, { secret: SECRET, patientId: 'CASE-7' });
    expect(dicomDict.dict['00100010']?.Value).toEqual([]);
    expect(dicomDict.dict['00100020']?.Value).toEqual(['CASE-7']);
  });
});
