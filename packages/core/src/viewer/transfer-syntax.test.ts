import { describe, expect, it } from 'vitest';
import { isDecodableSyntax, unsupportedSyntaxText } from './transfer-syntax.js';

describe('transfer syntaxes in the browser', () => {
  it('decodes the corpus families: native, big endian, JPEG, JPEG-LS, JPEG 2000, RLE', () => {
    for (const uid of [
      '1.2.840.10008.1.2',
      '1.2.840.10008.1.2.2',
      '1.2.840.10008.1.2.4.50',
      '1.2.840.10008.1.2.4.70',
      '1.2.840.10008.1.2.4.80',
      '1.2.840.10008.1.2.4.90',
      '1.2.840.10008.1.2.5',
    ]) {
      expect(isDecodableSyntax(uid), uid).toBe(true);
    }
  });

  it('names what it cannot decode', () => {
    expect(isDecodableSyntax('1.2.840.10008.1.2.4.92')).toBe(false);
    expect(isDecodableSyntax('1.2.840.10008.1.2.4.102')).toBe(false);
    expect(unsupportedSyntaxText('1.2.840.10008.1.2.4.102')).toContain(
      'MPEG-4 AVC/H.264 High Profile / Level 4.1 (1.2.840.10008.1.2.4.102)',
    );
    expect(unsupportedSyntaxText('1.9.9')).toContain('Unsupported transfer syntax: 1.9.9');
  });
});
