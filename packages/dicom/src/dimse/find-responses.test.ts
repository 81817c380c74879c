import { describe, expect, it } from 'vitest';
import type { DicomJsonDataset } from '../dicom-json.js';
import {
  EXPLICIT_LITTLE_ENDIAN,
  IMPLICIT_LITTLE_ENDIAN,
  cFindPendingResponse,
  encodeFindIdentifier,
} from './find-responses.js';
import { identifierToJson } from './find-scp.js';
import { dimse } from './library.js';

/** A worklist answer with every kind of value the C-FIND answers carry. */
const ANSWER: DicomJsonDataset = {
  '00080005': { vr: 'CS', Value: ['ISO_IR 192'] },
  '00080050': { vr: 'SH', Value: ['RF00000042'] },
  '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Ravi Kumar', Ideographic: '拉维' }] },
  '00100030': { vr: 'DA' },
  '0020000D': { vr: 'UI', Value: ['2.25.123'] },
  '00201206': { vr: 'IS', Value: [3] },
  '00080061': { vr: 'CS', Value: ['CT', 'MR'] },
  '00400100': {
    vr: 'SQ',
    Value: [
      {
        '00080060': { vr: 'CS', Value: ['CT'] },
        '00400002': { vr: 'DA', Value: ['20260310'] },
        '00400006': { vr: 'PN' },
      },
    ],
  },
  '00280010': { vr: 'US', Value: [512] },
};

describe('C-FIND identifiers encoded by us', () => {
  it.each([EXPLICIT_LITTLE_ENDIAN, IMPLICIT_LITTLE_ENDIAN])(
    'dcmjs-dimse reads back what we wrote (%s)',
    (syntax) => {
      const bytes = encodeFindIdentifier(ANSWER, syntax);
      expect(bytes).not.toBeNull();
      expect(bytes!.length % 2).toBe(0);
      const read = identifierToJson(new dimse.Dataset(bytes!, syntax).getElements());
      expect(read['00100010']).toEqual({
        vr: 'PN',
        Value: [{ Alphabetic: 'Ravi Kumar', Ideographic: '拉维' }],
      });
      expect(read['0020000D']).toEqual({ vr: 'UI', Value: ['2.25.123'] });
      expect(read['00080061']).toEqual({ vr: 'CS', Value: ['CT', 'MR'] });
      expect(Number(read['00280010']?.Value?.[0])).toBe(512);
      expect(read['00100030']).toEqual({ vr: 'DA' });
      expect(Number(read['00201206']?.Value?.[0])).toBe(3);
      const step = read['00400100']?.Value?.[0] as DicomJsonDataset;
      expect(step['00080060']).toEqual({ vr: 'CS', Value: ['CT'] });
      expect(step['00400002']).toEqual({ vr: 'DA', Value: ['20260310'] });
    },
  );

  it('leaves to dcmjs-dimse what it does not cover: other syntaxes, binary values, bulk data', () => {
    expect(encodeFindIdentifier(ANSWER, '1.2.840.10008.1.2.2')).toBeNull();
    expect(
      encodeFindIdentifier({ '00091010': { vr: 'OB', Value: [] } }, EXPLICIT_LITTLE_ENDIAN),
    ).not.toBeNull();
    expect(
      encodeFindIdentifier({ '7FE00010': { vr: 'OB', BulkDataURI: 'x' } as never }, EXPLICIT_LITTLE_ENDIAN),
    ).toBeNull();
    expect(
      encodeFindIdentifier({ '00091010': { vr: 'FD', Value: [1.5] } }, EXPLICIT_LITTLE_ENDIAN),
    ).toBeNull();
  });

  it('cuts a response into PDVs within the peer’s maximum PDU length', () => {
    const identifier = Buffer.alloc(100, 0x41);
    const bytes = cFindPendingResponse(
      5,
      { messageId: 7, affectedSopClassUid: '1.2.840.10008.5.1.4.31' },
      0xff00,
      identifier,
      46,
    );
    const pdus: Array<{ control: number; length: number }> = [];
    for (let at = 0; at < bytes.length;) {
      expect(bytes[at]).toBe(0x04);
      const length = bytes.readUInt32BE(at + 2);
      expect(length).toBeLessThanOrEqual(46);
      expect(bytes[at + 10]).toBe(5);
      pdus.push({ control: bytes[at + 11]!, length: bytes.readUInt32BE(at + 6) - 2 });
      at += 6 + length;
    }
    const data = pdus.filter((p) => (p.control & 1) === 0);
    expect(data.reduce((sum, p) => sum + p.length, 0)).toBe(100);
    expect(data.at(-1)!.control).toBe(0x02);
    expect(data.slice(0, -1).every((p) => p.control === 0x00)).toBe(true);
    expect(pdus.filter((p) => (p.control & 1) === 1).at(-1)!.control).toBe(0x03);
  });
});
