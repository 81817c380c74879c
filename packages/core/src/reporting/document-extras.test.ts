import { describe, expect, it } from 'vitest';
import { REPORT_DOWNLOAD_OPTIONS, missingDocumentExtras } from './documents.js';

const option = (key: string) => {
  const found = REPORT_DOWNLOAD_OPTIONS.find((o) => o.key === key);
  if (!found) throw new Error(key);
  return found;
};

describe('what a download option asks for that the row lacks (issue 21 §7)', () => {
  const none = { letterhead: false, keyImages: 0 };
  it('names the letterhead and the key images each option asks for', () => {
    expect(missingDocumentExtras(option('PDF_WITH_HEADER'), none)).toEqual(['LETTERHEAD']);
    expect(missingDocumentExtras(option('PDF_WITH_IMAGES'), none)).toEqual(['KEY_IMAGES']);
    expect(missingDocumentExtras(option('PDF_WITH_HEADER_AND_IMAGES'), none)).toEqual([
      'LETTERHEAD',
      'KEY_IMAGES',
    ]);
  });
  it('judges nothing the option does not name (Print and Word follow the group switch)', () => {
    for (const key of ['PRINT', 'PDF', 'WORD']) expect(missingDocumentExtras(option(key), none)).toEqual([]);
    expect(
      missingDocumentExtras(option('PDF_WITH_HEADER_AND_IMAGES'), { letterhead: true, keyImages: 1 }),
    ).toEqual([]);
  });
});
