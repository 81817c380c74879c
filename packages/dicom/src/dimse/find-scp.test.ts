import { describe, expect, it } from 'vitest';
import { identifierToJson, jsonToElements } from './find-scp.js';

describe('C-FIND identifier conversion', () => {
  it('turns what dcmjs-dimse read from findscu into PS3.18 JSON, keys without value as return keys', () => {
    // As dcmjs-dimse hands over `findscu -k PatientName=DOE* -k StudyInstanceUID=1.2\3.4 -k StudyDate=… -k PatientBirthTime -k NumberOfStudyRelatedSeries`.
    const json = identifierToJson({
      _vrMap: {},
      StudyDate: '20200101-20201231 ',
      QueryRetrieveLevel: 'STUDY',
      ModalitiesInStudy: ['CT', 'MR'],
      PatientName: [{ Alphabetic: 'DOE*' }],
      PatientBirthTime: '',
      StudyInstanceUID: ['1.2', '3.4'],
      NumberOfStudyRelatedSeries: null,
    });
    expect(json).toEqual({
      '00080020': { vr: 'DA', Value: ['20200101-20201231 '] },
      '00080052': { vr: 'CS', Value: ['STUDY'] },
      '00080061': { vr: 'CS', Value: ['CT', 'MR'] },
      '00100010': { vr: 'PN', Value: [{ Alphabetic: 'DOE*' }] },
      '00100032': { vr: 'TM' },
      '0020000D': { vr: 'UI', Value: ['1.2', '3.4'] },
      '00201206': { vr: 'IS' },
    });
  });

  it('turns a match into elements dcmjs-dimse writes, an empty key as an empty value', () => {
    const elements = jsonToElements({
      '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Люкceмбypг' }] },
      '00100032': { vr: 'TM' },
      '00201206': { vr: 'IS', Value: [3] },
    });
    expect(elements).toMatchObject({
      PatientName: [{ Alphabetic: 'Люкceмбypг' }],
      PatientBirthTime: '',
      NumberOfStudyRelatedSeries: 3,
    });
  });
});
