import { describe, expect, it } from 'vitest';
import { scriptParts } from './document-scripts.fixtures.js';
import { renderPdf } from './pdf-document.js';
import { pdfText } from '../../../test/pdf-text.js';

/*
 * A report PDF's text (what a reader copies, searches and reads aloud) must be the report's, whatever
 * the server printed before it. The fonts are parsed once per process and shared by every document
 * (document-fonts.ts); fontkit keeps one glyph object per glyph id with the code points it was first
 * asked for. Greek and Cyrillic capitals are Roboto glyphs built of the Latin ones; embedding one
 * made its Latin part's glyph object without code points, so once a Greek report was printed a
 * later report's "ALEX" read back as control characters ("\u0001L\u0003X").
 */

const readBack = async (bytes: Uint8Array) => (await pdfText(bytes, { between: ' ' })).trim();

// Greek and Cyrillic first: their letters are drawn with Latin glyphs, which Latin text then reuses.
const REPORTS = [
  { name: 'ΑΛΈΞΑΝΔΡΟΣ ΑΜΑΝ', body: 'Α Ε Ο Ρ Τ Χ, ένα απλό κείμενο.' },
  { name: 'АЛЕКСЕЙ АМАН', body: 'А Е О Р С Т Х, простой текст.' },
  { name: 'ALEX AMAN', body: 'A plain sentence: oxygen 98%, fee $0.50.' },
];

describe('a report PDF reads back the same whatever was printed before it', () => {
  it('Latin, Greek and Cyrillic reports sharing glyphs, printed in one order and then the other', async () => {
    const firstPass: string[] = [];
    for (const report of REPORTS)
      firstPass.push(await readBack(await renderPdf(scriptParts(report.name, report.body))));
    const secondPass: string[] = [];
    for (const report of [...REPORTS].reverse())
      secondPass.unshift(await readBack(await renderPdf(scriptParts(report.name, report.body))));
    REPORTS.forEach((report, i) => {
      for (const text of [firstPass[i]!, secondPass[i]!]) {
        expect(text, report.name).toContain(report.name);
        expect(text, report.name).toContain(report.body);
      }
    });
    expect(secondPass).toEqual(firstPass);
  }, 60_000);
});
