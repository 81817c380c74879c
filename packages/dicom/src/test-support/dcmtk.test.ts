import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../test-fixtures.js';
import { fixturePath, sendableFixtures } from '../dimse/corpus.test-helpers.js';
import { readStoreFileHeader } from '../dimse/index.js';
import { buildStorescuProfile, MAX_PRESENTATION_CONTEXTS } from './index.js';

const COMMITTED = join(FIXTURES_DIR, '..', 'dcmtk', 'storescu-all-syntaxes.cfg');

describe('storescu config-file profile', () => {
  it('has one context per (SOP class, syntax) of the corpus plus a fallback per SOP class, and matches the committed file', async () => {
    const headers = await Promise.all(sendableFixtures.map((file) => readStoreFileHeader(fixturePath(file))));
    const profile = buildStorescuProfile(headers);
    const pairs = new Set(
      headers.map((h) => `${h.sopClassUid}\\TS_${h.transferSyntaxUid.replace(/\./g, '_')}`),
    );
    const classes = new Set(headers.map((h) => h.sopClassUid));
    const contexts = profile.split('\n').filter((line) => /^PresentationContext\d+ = /.test(line));
    expect(contexts).toHaveLength(pairs.size + classes.size);
    for (const pair of pairs) expect(profile).toContain(pair);
    // Every syntax of the corpus, in its own context.
    expect(new Set(headers.map((h) => h.transferSyntaxUid)).size).toBeGreaterThanOrEqual(13);
    expect(readFileSync(COMMITTED, 'utf8')).toBe(profile);
  });

  it('refuses more contexts than an association can carry', () => {
    const entries = Array.from({ length: MAX_PRESENTATION_CONTEXTS }, (_, i) => ({
      sopClassUid: `1.2.3.${i}`,
      transferSyntaxUid: '1.2.840.10008.1.2.1',
    }));
    expect(() => buildStorescuProfile(entries)).toThrow(/at most 128/);
  });
});
