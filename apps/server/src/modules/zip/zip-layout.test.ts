import { describe, expect, it } from 'vitest';
import { UniqueNames, sanitizeSegment, seriesFolderName, studyFolderName } from './zip-layout.js';
import { contentDisposition, parseRange } from './zip-link.js';

describe('zip entry names', () => {
  it('keeps letters of any script and makes everything else safe', () => {
    expect(sanitizeSegment('DOE^JOHN', 'x')).toBe('DOE JOHN');
    expect(sanitizeSegment('../../etc/passwd', 'x')).toBe('etc_passwd');
    expect(sanitizeSegment('Иванов^Иван', 'x')).toBe('Иванов Иван');
    expect(sanitizeSegment('a:b*c?"<>|', 'x')).toBe('a_b_c');
    expect(sanitizeSegment('  ', 'Unknown')).toBe('Unknown');
    expect([...sanitizeSegment('é'.repeat(100), 'x')]).toHaveLength(64);
  });

  it('lays out study and series folders, hiding the patient when anonymised', () => {
    const study = { patientName: 'DOE^JANE', studyDate: '20240102', reportStatusId: 7 };
    expect(studyFolderName({ ...study, isAnonymized: false })).toBe('DOE JANE_20240102');
    expect(studyFolderName({ ...study, isAnonymized: true })).toBe('Study_7');
    expect(seriesFolderName({ seriesNumber: 3, seriesDescription: 'AX T1/post' })).toBe('3_AX T1_post');
    expect(seriesFolderName({ seriesNumber: null, seriesDescription: '' })).toBe('0_Series');
  });

  it('gives repeated names a suffix', () => {
    const names = new UniqueNames();
    expect([names.take('1', '.dcm'), names.take('1', '.dcm'), names.take('1', '.dcm')]).toEqual([
      '1.dcm',
      '1_2.dcm',
      '1_3.dcm',
    ]);
  });
});

describe('download ranges and file names', () => {
  it('parses one byte range (RFC 9110 §14.1.2)', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 10 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 100 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 100 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 100 });
    expect(parseRange('bytes=100-', 100)).toBe('UNSATISFIABLE');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
  });

  it('names the attachment with an ASCII fallback and the UTF-8 form', () => {
    expect(contentDisposition('12_DOE JANE')).toBe(
      `attachment; filename="12_DOE JANE.zip"; filename*=UTF-8''12_DOE%20JANE.zip`,
    );
    expect(contentDisposition('12_Иван')).toContain('filename="12_____.zip"');
  });
});
