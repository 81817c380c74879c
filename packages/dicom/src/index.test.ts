import { describe, expect, it } from 'vitest';
import { isKnownUncompressedSyntax } from './index.js';

describe('transfer syntaxes', () => {
  it('knows the three uncompressed syntaxes and nothing else yet', () => {
    expect(isKnownUncompressedSyntax('1.2.840.10008.1.2.1')).toBe(true);
    expect(isKnownUncompressedSyntax('1.2.840.10008.1.2.4.50')).toBe(false);
  });
});
