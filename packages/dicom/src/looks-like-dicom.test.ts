import { describe, expect, it } from 'vitest';
import { isDicomParseError } from './errors.js';
import { DICOM_HEAD_BYTES, looksLikeDicom, parseInstance } from './parse.js';
import { manifest, readFixture } from './test-fixtures.js';

/*
 * The head check decides whether a zip entry is unpacked at all (the browser upload): it must
 * never refuse a file the parse would take, and should refuse what the parse calls NOT_DICOM.
 */
describe('looksLikeDicom', () => {
  it('agrees with parseInstance on every fixture, from the first 132 bytes and the size alone', () => {
    for (const file of manifest.files) {
      const bytes = readFixture(file.path);
      let notDicom = false;
      try {
        parseInstance(bytes);
      } catch (error) {
        notDicom = isDicomParseError(error) && (error.code === 'NOT_DICOM' || error.code === 'EMPTY');
      }
      expect(looksLikeDicom(bytes.subarray(0, DICOM_HEAD_BYTES), bytes.length), file.path).toBe(!notDicom);
    }
  });

  it('refuses zeros and text', () => {
    expect(looksLikeDicom(new Uint8Array(132), 64 * 1024 * 1024)).toBe(false);
    expect(looksLikeDicom(Buffer.from('not an image '.repeat(20)), 4096)).toBe(false);
  });
});
