import { describe, expect, it } from 'vitest';
import { dicomUidProblem, isValidDicomUid } from './dicom-uid.js';

describe('the DICOM UID grammar (PS3.5 §9.1)', () => {
  it('takes digits and dots, a lone 0 as a component, up to 64 characters', () => {
    for (const uid of ['1.2.840.10008.1.2.1', '0', '1.0.3', '2.25.0', `1.${'2'.repeat(62)}`])
      expect(isValidDicomUid(uid), uid).toBe(true);
  });

  it('refuses empty components, leading zeros, other characters and length over 64, saying which', () => {
    expect(dicomUidProblem('..')).toBe('an empty component');
    expect(dicomUidProblem('1.2.')).toBe('an empty component');
    expect(dicomUidProblem('.1.2')).toBe('an empty component');
    expect(dicomUidProblem('1.2.03')).toBe('a component with a leading zero');
    expect(dicomUidProblem('00')).toBe('a component with a leading zero');
    expect(dicomUidProblem('1.2.abc')).toBe('not only digits and dots');
    expect(dicomUidProblem('1.2 .3')).toBe('not only digits and dots');
    expect(dicomUidProblem(`1${'2'.repeat(199)}`)).toBe('over 64 characters');
    expect(dicomUidProblem(`1.${'2'.repeat(63)}`)).toBe('over 64 characters');
    expect(dicomUidProblem('')).toBe('empty');
  });
});

describe('Create Study’s optional studyInstanceUID follows the same grammar', () => {
  const base = {
    patientName: 'Doe^Jane',
    labModality: 'CT',
    patientAge: '40Y',
    patientSex: 'F',
    center: 1,
    studyName: 'CT head',
  };
  it('accepts none or a valid UID, refuses what the grammar refuses', async () => {
    const { ZCreateStudyRequest } = await import('../studies/upload-schemas.js');
    const parse = (studyInstanceUID?: string) =>
      ZCreateStudyRequest.safeParse({
        ...base,
        ...(studyInstanceUID === undefined ? {} : { studyInstanceUID }),
      });
    expect(parse().success).toBe(true);
    expect(parse('').success).toBe(true);
    expect(parse('1.2.826.0.1.41').success).toBe(true);
    for (const uid of ['1.2.03', '..', '1.2.', `1${'2'.repeat(70)}`])
      expect(parse(uid).success, uid).toBe(false);
  });
});
