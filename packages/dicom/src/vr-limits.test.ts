import { describe, expect, it } from 'vitest';
import { configureDimse } from './dimse/library.js';
import { jsonToElements } from './dimse/find-scp.js';
import type { DicomJsonDataset } from './dicom-json.js';
import { fitDatasetToVrs } from './vr-limits.js';

const EXPLICIT_VR_LE = '1.2.840.10008.1.2.1';

/** What dcmjs-dimse does to a C-FIND answer before it sends it: throws when a value does not fit. */
function encode(dataset: DicomJsonDataset): Buffer {
  const { Dataset } = configureDimse();
  return new Dataset(jsonToElements(dataset), EXPLICIT_VR_LE).getDenaturalizedDataset();
}

describe('fitDatasetToVrs: what we stored, made to fit its VR before it goes to a peer', () => {
  const hostile: DicomJsonDataset = {
    '00100010': { vr: 'PN', Value: [{ Alphabetic: `A^${'N'.repeat(9998)}`, Ideographic: '山'.repeat(70) }] },
    '00100020': { vr: 'LO', Value: ['P'.repeat(100)] },
    '00080050': { vr: 'SH', Value: ['1234567890123456789'] },
    '00080060': { vr: 'CS', Value: ['ÄÄÄÄÄÄÄÄÄÄ'] },
    '00080020': { vr: 'DA', Value: ['2020010120200202'] },
    '00080030': { vr: 'TM', Value: ['120000.1234567890'] },
    '0020000D': { vr: 'UI', Value: ['1.'.repeat(100)] },
    '00201208': { vr: 'IS', Value: [12345678901234] },
    '00101030': { vr: 'DS', Value: [0.12345678901234568] },
    '00081030': { vr: 'LO', Value: [`${'😀'.repeat(31)}xx😀`] },
  };

  it('dcmjs refuses the values as stored', () => {
    expect(() => encode(hostile)).toThrow(/exceeds max length/);
  });

  it('cuts each to its VR’s maximum, so the answer encodes', () => {
    const fitted = fitDatasetToVrs(hostile);
    expect(() => encode(fitted)).not.toThrow();
    expect(fitted['00100010']!.Value![0]).toEqual({
      Alphabetic: `A^${'N'.repeat(62)}`,
      Ideographic: '山'.repeat(64),
    });
    expect(fitted['00100020']!.Value).toEqual(['P'.repeat(64)]);
    expect(fitted['00080050']!.Value).toEqual(['1234567890123456']);
    expect(fitted['00080060']!.Value).toEqual(['??????????']);
    expect(fitted['00080020']!.Value).toEqual(['20200101']);
    expect(fitted['0020000D']!.Value![0]).toHaveLength(64);
    expect(fitted['00201208']!.Value).toEqual([null]);
    expect(String(fitted['00101030']!.Value![0]).length).toBeLessThanOrEqual(16);
    // 64 UTF-16 units would end in half an emoji: the pair is dropped whole.
    expect(fitted['00081030']!.Value).toEqual([`${'😀'.repeat(31)}xx`]);
  });

  it('leaves values that fit alone', () => {
    const fine: DicomJsonDataset = {
      '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Doe^Jane' }] },
      '00201208': { vr: 'IS', Value: [3] },
      '00100032': { vr: 'TM' },
    };
    expect(fitDatasetToVrs(fine)).toEqual(fine);
  });
});
