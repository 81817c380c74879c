import { describe, expect, it } from 'vitest';
import { ZStudyInstanceUid } from './uid-schema.js';

describe('ZStudyInstanceUid', () => {
  it('takes a UID of the grammar, trimmed', () => {
    expect(ZStudyInstanceUid.parse(' 1.2.840.10008.1.2 ')).toBe('1.2.840.10008.1.2');
    expect(ZStudyInstanceUid.parse('0.1')).toBe('0.1');
  });

  it.each([
    ['', 'studyInstanceUid is required'],
    ['1..2', 'studyInstanceUid must be a DICOM UID (an empty component)'],
    ['.1.2', 'studyInstanceUid must be a DICOM UID (an empty component)'],
    ['1.2.', 'studyInstanceUid must be a DICOM UID (an empty component)'],
    ['1.02', 'studyInstanceUid must be a DICOM UID (a component with a leading zero)'],
    ['1.2a', 'studyInstanceUid must be a DICOM UID (not only digits and dots)'],
    [`1.${'2'.repeat(63)}`, 'studyInstanceUid is at most 64 characters'],
  ])('names what is wrong with %j', (uid, message) => {
    const parsed = ZStudyInstanceUid.safeParse(uid);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.message)).toEqual([message]);
  });
});
