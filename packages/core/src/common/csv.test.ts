import { describe, expect, it } from 'vitest';
import { csvField, csvLine } from './csv.js';

describe('CSV fields', () => {
  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvLine(['A, north', 'Say "hi"', 'two\nlines', 3, null])).toBe(
      '"A, north","Say ""hi""","two\nlines",3,\r\n',
    );
  });

  it('keeps text a spreadsheet would run as a formula as text, numbers as numbers', () => {
    for (const text of ['=SUM(A1)', '+1 call', '-2', '@home', '\tx', '\rx']) {
      expect(csvField(text).replace(/^"/, ''), JSON.stringify(text)).toMatch(/^'/);
    }
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvField(-2)).toBe('-2');
    expect(csvField('Asha Rao')).toBe('Asha Rao');
  });
});
