import { createRequire } from 'node:module';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { RTL_LETTER, charactersWithoutGlyph, scriptRuns, wordFaceFile } from './document-fonts.js';
import { documentWindow } from './document-images.js';
import { MORE_INDIC_WORDS, SCRIPT_CASES, scriptParts } from './document-scripts.fixtures.js';
import { renderPdf } from './pdf-document.js';
import { withoutReadBackMapping } from './pdf-shaping.js';
import { paragraphOf, renderWord } from './word-document.js';
import { obfuscateFont } from './word-fonts.js';
import { docxEntry } from '../../../test/documents.js';

/*
 * Issue 21 §1: the signed PDF must print every script our centers' patients write. For each script
 * a report whose patient name and body are in it is rendered, and the PDF's text is read back with
 * pdfjs: it must be the same Unicode in logical order (a missing glyph, a reordered Indic vowel
 * sign or a right-to-left word written backwards all fail), and every glyph drawn must be one the
 * embedded font has (no .notdef boxes). The Word file names, on each run, the East Asian or
 * complex-script font Word needs and marks right-to-left runs and paragraphs.
 */

interface TPdfRead {
  /** The pages' text as pdfjs extracts it, whitespace runs as one space. */
  text: string;
  /** Characters drawn with a glyph the font does not have (pdfjs: not in the font, or glyph 0). */
  missing: string[];
}

async function readPdf(bytes: Uint8Array): Promise<TPdfRead> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  let text = '';
  const missing: string[] = [];
  try {
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      const content = await page.getTextContent();
      for (const item of content.items) if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      const ops = await page.getOperatorList();
      ops.fnArray.forEach((fn, k) => {
        if (fn !== pdfjs.OPS.showText) return;
        const glyphs = ops.argsArray[k][0] as Array<
          { unicode?: string; isInFont?: boolean; width?: number } | number | null
        >;
        for (const glyph of glyphs) {
          // pdfjs marks a glyph with no outline as not in the font too: a space, an invisible
          // mark, and the blank zero-width carrier that holds the nonspacing marks of the glyph
          // before it (pdf-shaping.ts headAndTail). They draw nothing either way; a character the
          // font lacks would draw its .notdef box, which advances.
          const carrier = glyph && typeof glyph === 'object' && glyph.width === 0;
          if (
            typeof glyph === 'object' &&
            glyph?.isInFont === false &&
            !/^[\s\p{Cf}]*$/u.test(glyph.unicode ?? '') &&
            !(carrier && /^\p{Mn}/u.test(glyph.unicode ?? ''))
          )
            missing.push(glyph.unicode ?? '?');
        }
      });
    }
  } finally {
    await doc.destroy();
  }
  return { text: text.replace(/\s+/gu, ' '), missing };
}

/**
 * Each script's report (scriptParts of a name and a body) rendered and read back once: the tables
 * below ask several things of the same PDF and the same Word file, and the documents are the same
 * whichever test renders them first.
 */
const documents = new Map<string, Promise<unknown>>();
function once<T>(kind: string, name: string, body: string, make: () => Promise<T>): Promise<T> {
  const key = JSON.stringify([kind, name, body]);
  if (!documents.has(key)) documents.set(key, make());
  return documents.get(key) as Promise<T>;
}
const readScriptPdf = (name: string, body: string) =>
  once('pdf', name, body, () => renderPdf(scriptParts(name, body)).then(readPdf));
const scriptWord = (name: string, body: string) =>
  once('word', name, body, () => renderWord(scriptParts(name, body)));

/** Canonically equivalent text is the same text: a split vowel may read back decomposed (ো as ে + া). */
const nfc = (text: string) => text.normalize('NFC');
const noSpace = (text: string) => nfc(text).replace(/\s+/gu, '');

describe('the report PDF prints every script', () => {
  it.each(SCRIPT_CASES)(
    '$script: the name and the body read back in logical order, every glyph in its font',
    async ({ name, body }) => {
      const { text, missing } = await readScriptPdf(name, body);
      expect(missing, 'glyphs the embedded fonts lack').toEqual([]);
      // pdfjs cannot tell a box drawn for a character the font lacks (pdfkit encodes it like any
      // glyph): the fonts the runs were given are asked directly.
      expect(charactersWithoutGlyph(name), 'characters of the name no face draws').toEqual([]);
      expect(charactersWithoutGlyph(body), 'characters of the body no face draws').toEqual([]);
      expect(noSpace(text)).toContain(noSpace(name));
      expect(noSpace(text)).toContain(noSpace(body));
    },
    30_000,
  );

  it.each(SCRIPT_CASES)(
    '$script: the words read back with their spaces, and none inside a word',
    async ({ name, body }) => {
      const { text } = await readScriptPdf(name, body);
      expect(nfc(text)).toContain(name);
      expect(nfc(text)).toContain(body);
    },
    30_000,
  );

  it.each(MORE_INDIC_WORDS)(
    '%s: more names and sentences read back as written',
    async (_script, name, body) => {
      const { text, missing } = await readScriptPdf(name, body);
      expect(missing, 'glyphs the embedded fonts lack').toEqual([]);
      expect(nfc(text)).toContain(name);
      expect(nfc(text)).toContain(body);
    },
    30_000,
  );

  it('draws what the shaping drew: the text a reader takes back changes no pixel', async () => {
    // Left to right only: pdfkit's own encoding does not put right-to-left words in visual order.
    const lines = [
      ...SCRIPT_CASES.filter((c) => !c.word.rtl).map((c) => `${c.name} ${c.body}`),
      ...MORE_INDIC_WORDS.map(([, name, body]) => `${name} ${body}`),
    ];
    const parts = scriptParts('Scripts', lines.join('<br>'));
    const mapped = await pagePixels(await renderPdf(parts));
    const drawn = await pagePixels(await withoutReadBackMapping(() => renderPdf(parts)));
    expect(mapped.length).toBe(drawn.length);
    mapped.forEach((page, p) => {
      let differing = 0;
      for (let i = 0; i < page.length; i++) if (Math.abs(page[i]! - drawn[p]![i]!) > 32) differing++;
      expect(differing, `page ${p + 1}: bytes that differ`).toBe(0);
    });
  }, 60_000);
});

interface TCanvasFactory {
  create(width: number, height: number): { context: CanvasRenderingContext2D };
}

/** Each page drawn by pdfjs (on @napi-rs/canvas) at twice its size, as RGBA bytes. */
async function pagePixels(bytes: Uint8Array): Promise<Uint8ClampedArray[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: Uint8ClampedArray[] = [];
  try {
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      const viewport = page.getViewport({ scale: 2 });
      // pdfjs's own canvas factory (in Node: @napi-rs/canvas); not in its typings.
      const factory = (doc as unknown as { canvasFactory: TCanvasFactory }).canvasFactory;
      const { context } = factory.create(viewport.width, viewport.height);
      await page.render({ canvasContext: context, viewport }).promise;
      pages.push(context.getImageData(0, 0, viewport.width, viewport.height).data);
    }
  } finally {
    await doc.destroy();
  }
  return pages;
}

describe('the Word file marks every script for Word', () => {
  it.each(SCRIPT_CASES)(
    '$script: the runs of the name and the body carry the font Word needs, right to left where it is',
    async ({ name, body, word }) => {
      const xml = await docxEntry(await scriptWord(name, body), 'word/document.xml');
      const doc = new (documentWindow().DOMParser)().parseFromString(xml, 'application/xml');
      expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
      const runs = Array.from(doc.getElementsByTagName('w:r'));
      for (const text of [name, body]) {
        const run = runs.find((r) => r.getElementsByTagName('w:t')[0]?.textContent === text);
        expect(run, `a run holding ${text}`).toBeDefined();
        const fonts = run!.getElementsByTagName('w:rFonts')[0];
        expect(fonts?.getAttribute('w:eastAsia') ?? undefined, 'w:eastAsia').toBe(word.eastAsia);
        expect(fonts?.getAttribute('w:cs') ?? undefined, 'w:cs').toBe(word.cs);
        expect(run!.getElementsByTagName('w:rtl'), 'w:rtl').toHaveLength(word.rtl ? 1 : 0);
        const paragraph = paragraphOf(run!);
        const bidi = Array.from(paragraph?.getElementsByTagName('w:bidi') ?? []).filter(
          (b) => b.parentElement?.parentElement === paragraph,
        );
        expect(bidi, 'w:bidi').toHaveLength(word.rtl ? 1 : 0);
      }
    },
    30_000,
  );
});

describe('the Word file carries the fonts it names', () => {
  /** fontkit, as pdfkit loads it (the documents' own parser). */
  type TGlyph = {
    advanceWidth: number;
    bbox: { minX: number; minY: number; maxX: number; maxY: number };
    path: { commands: Array<{ command: string; args: number[] }> };
  };
  const fontkit = createRequire(createRequire(import.meta.url).resolve('pdfkit'))('fontkit') as {
    create(buffer: Buffer): {
      hasGlyphForCodePoint(codePoint: number): boolean;
      glyphForCodePoint(codePoint: number): TGlyph;
      familyName: string;
    };
  };
  /** Where each segment of a glyph's outline ends, rounded to font units. */
  const segmentEnds = (glyph: TGlyph) =>
    new Set(
      glyph.path.commands
        .filter((c) => c.args.length >= 2)
        .map((c) => `${Math.round(c.args.at(-2)!)},${Math.round(c.args.at(-1)!)}`),
    );

  it.each(SCRIPT_CASES.filter((c) => c.word.eastAsia ?? c.word.cs))(
    '$script: the face is embedded, obfuscated with its key, a font holding the name and the body',
    async ({ name, body, word }) => {
      const zip = await JSZip.loadAsync(await scriptWord(name, body));
      const read = (path: string) => zip.file(path)!.async('string');
      expect(await read('word/settings.xml')).toMatch(/<w:embedTrueTypeFonts\/>/u);
      expect(await read('[Content_Types].xml')).toContain(
        'Extension="odttf" ContentType="application/vnd.openxmlformats-officedocument.obfuscatedFont"',
      );
      const parser = new (documentWindow().DOMParser)();
      const table = parser.parseFromString(await read('word/fontTable.xml'), 'application/xml');
      const rels = parser.parseFromString(await read('word/_rels/fontTable.xml.rels'), 'application/xml');
      const face = (word.eastAsia ?? word.cs)!;
      const entry = Array.from(table.getElementsByTagName('w:font')).find(
        (f) => f.getAttribute('w:name') === face,
      );
      const embed = entry?.getElementsByTagName('w:embedRegular')[0];
      expect(embed, `w:embedRegular of ${face}`).toBeDefined();
      const target = Array.from(rels.getElementsByTagName('Relationship'))
        .find((r) => r.getAttribute('Id') === embed!.getAttribute('r:id'))
        ?.getAttribute('Target');
      expect(target).toMatch(/^fonts\/font\d+\.odttf$/u);
      const stored = await zip.file(`word/${target}`)!.async('uint8array');
      // Obfuscated, it is no font; with the key undone, it is the face.
      expect(() => fontkit.create(Buffer.from(stored))).toThrow();
      const bytes = Buffer.from(obfuscateFont(stored, embed!.getAttribute('w:fontKey')!));
      // TrueType outlines (sfnt version 1.0), which Word for Windows loads: not CFF ('OTTO').
      expect(bytes.readUInt32BE(0).toString(16)).toBe('10000');
      const font = fontkit.create(bytes);
      const original = fontkit.create(Buffer.from(wordFaceFile(face)!));
      const own = (text: string) =>
        Array.from(text).filter((c) => !/[\s\p{P}\p{Cf}]/u.test(c) && scriptRuns(c, text)[0]!.family);
      for (const char of [...own(name), ...own(body)]) {
        expect(font.hasGlyphForCodePoint(char.codePointAt(0)!), `${char} in ${face}`).toBe(true);
        // Each glyph as the face draws it: the same advance, the same box (within a font unit),
        // every point where a segment of the face's outline ends.
        const [ours, theirs] = [font, original].map((f) => f.glyphForCodePoint(char.codePointAt(0)!)) as [
          TGlyph,
          TGlyph,
        ];
        expect(ours.advanceWidth, char).toBe(theirs.advanceWidth);
        for (const side of ['minX', 'minY', 'maxX', 'maxY'] as const)
          expect(Math.abs(ours.bbox[side] - theirs.bbox[side]), `${char} ${side}`).toBeLessThanOrEqual(1);
        const kept = segmentEnds(ours);
        expect(
          [...segmentEnds(theirs)].filter((p) => !kept.has(p)),
          `${char}: points lost`,
        ).toEqual([]);
      }
      // A subset: kilobytes, not the whole face.
      expect(stored.length).toBeLessThan(400_000);
    },
    30_000,
  );
});

describe('bold text in the Word file', () => {
  const fontkit = createRequire(createRequire(import.meta.url).resolve('pdfkit'))('fontkit') as {
    create(buffer: Buffer): {
      hasGlyphForCodePoint(codePoint: number): boolean;
      'OS/2': { usWeightClass: number };
    };
  };

  it.each(SCRIPT_CASES.filter((c) => c.word.eastAsia ?? c.word.cs))(
    '$script: a bold run is bold in its own script, with the bold face embedded',
    async ({ name, word }) => {
      const zip = await JSZip.loadAsync(await renderWord(scriptParts(name, 'x')));
      const read = (path: string) => zip.file(path)!.async('string');
      const parser = new (documentWindow().DOMParser)();
      const doc = parser.parseFromString(await read('word/document.xml'), 'application/xml');
      // The patient's name in bold (the fixture's last paragraph): Word bolds a complex-script
      // run by w:bCs, not w:b.
      const run = Array.from(doc.getElementsByTagName('w:r')).find(
        (r) =>
          Array.from(r.getElementsByTagName('w:t'), (t) => t.textContent).join('') === name &&
          r.getElementsByTagName('w:b').length > 0,
      );
      expect(run, 'the bold run of the name').toBeDefined();
      if (word.cs) expect(run!.getElementsByTagName('w:bCs').length).toBe(1);
      const face = (word.eastAsia ?? word.cs)!;
      const table = parser.parseFromString(await read('word/fontTable.xml'), 'application/xml');
      const rels = parser.parseFromString(await read('word/_rels/fontTable.xml.rels'), 'application/xml');
      const embed = Array.from(table.getElementsByTagName('w:font'))
        .find((f) => f.getAttribute('w:name') === face)
        ?.getElementsByTagName('w:embedBold')[0];
      expect(embed, `w:embedBold of ${face}`).toBeDefined();
      const target = Array.from(rels.getElementsByTagName('Relationship'))
        .find((r) => r.getAttribute('Id') === embed!.getAttribute('r:id'))
        ?.getAttribute('Target');
      const stored = await zip.file(`word/${target}`)!.async('uint8array');
      const font = fontkit.create(Buffer.from(obfuscateFont(stored, embed!.getAttribute('w:fontKey')!)));
      expect(font['OS/2'].usWeightClass).toBeGreaterThanOrEqual(600);
      const own = Array.from(name).filter(
        (c) => !/[\s\p{P}\p{Cf}]/u.test(c) && scriptRuns(c, name)[0]!.family,
      );
      for (const char of own) expect(font.hasGlyphForCodePoint(char.codePointAt(0)!), char).toBe(true);
    },
    30_000,
  );
});

describe('a justified right-to-left paragraph', () => {
  const PARAGRAPHS = {
    Hebrew:
      'עיבוי קל של רירית הסינוס השמאלי עם נוזל מועט בחלל האף ובתאי האתמואיד הקדמיים ללא עדות להרס עצם או לתהליך תופס מקום מומלץ מעקב קליני בעוד שלושה חודשים',
    Arabic:
      'سماكة خفيفة في الغشاء المخاطي للجيب الفكي الأيسر مع سائل قليل في تجويف الأنف والخلايا الغربالية الأمامية دون دليل على تآكل العظم أو آفة شاغلة للحيز ويوصى بالمتابعة السريرية بعد ثلاثة أشهر',
  };
  /** A4 at 2 cm margins (scriptParts), in points. */
  const [LEFT, RIGHT] = [(2 * 72) / 2.54, 595.28 - (2 * 72) / 2.54];

  it.each(Object.entries(PARAGRAPHS))(
    '%s: reads back in logical order, every line but the last from margin to margin',
    async (_, body) => {
      const parts = scriptParts('דוד כהן', body);
      parts.sections[0]!.html = `<p style="text-align: justify">${body}</p>`;
      const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
      const doc = await pdfjs.getDocument({ data: await renderPdf(parts), useSystemFonts: false }).promise;
      try {
        const content = await (await doc.getPage(1)).getTextContent();
        const lines = new Map<number, { text: string; left: number; right: number }>();
        for (const item of content.items) {
          if (!('str' in item) || !RTL_LETTER.test(item.str)) continue;
          const y = Math.round(item.transform[5] as number);
          const line = lines.get(y) ?? { text: '', left: Infinity, right: -Infinity };
          line.text += `${item.str} `;
          line.left = Math.min(line.left, item.transform[4] as number);
          line.right = Math.max(line.right, (item.transform[4] as number) + item.width);
          lines.set(y, line);
        }
        const paragraph = [...lines.values()].filter((line) =>
          body.includes(line.text.trim().split(' ')[0]!),
        );
        expect(paragraph.length, 'lines of the paragraph').toBeGreaterThan(1);
        expect(
          paragraph
            .map((line) => line.text.trim())
            .join(' ')
            .replace(/\s+/gu, ' '),
        ).toBe(body);
        paragraph.forEach((line, i) => {
          expect(line.right, `line ${i + 1}: right edge`).toBeCloseTo(RIGHT, 0);
          if (i < paragraph.length - 1) expect(line.left, `line ${i + 1}: left edge`).toBeCloseTo(LEFT, 0);
        });
      } finally {
        await doc.destroy();
      }
    },
    30_000,
  );
});

describe('punctuation and digits beside right-to-left words, in a face of their own', () => {
  /** The line's text items (pdfjs) holding `marker`, left to right, with their left and right edges. */
  async function lineOf(body: string, marker: string) {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await pdfjs.getDocument({
      data: await renderPdf(scriptParts('X', body)),
      useSystemFonts: false,
    }).promise;
    try {
      const content = await (await doc.getPage(1)).getTextContent();
      const items = content.items.flatMap((item) =>
        'str' in item && item.str.trim() !== ''
          ? [
              {
                text: item.str,
                y: item.transform[5] as number,
                left: item.transform[4] as number,
                right: (item.transform[4] as number) + item.width,
              },
            ]
          : [],
      );
      const y = items.find((item) => item.text.includes(marker))!.y;
      return items.filter((item) => Math.abs(item.y - y) < 1).sort((a, b) => a.left - b.left);
    } finally {
      await doc.destroy();
    }
  }

  it("Hebrew 'word, word': the comma against the word before it, the space after the comma", async () => {
    // Noto Sans Hebrew has no comma: ', ' is a Roboto run between two Hebrew runs.
    const line = await lineOf('דוד כהן, שרה לוי', 'דוד');
    const before = line.find((item) => item.text.includes('דוד'))!;
    const comma = line.find((item) => item.text === ',')!;
    const after = line.find((item) => item.text.includes('שרה'))!;
    expect(before.left - comma.right, 'between the comma and the word it follows').toBeLessThan(0.5);
    expect(comma.left - after.right, 'the space after the comma').toBeGreaterThan(1.5);
  }, 30_000);

  it("Arabic '(45) -': brackets mirrored and in visual order, digits left to right", async () => {
    const line = await lineOf('أحمد (45) - فحص.', '45');
    // Left to right on the page, as a right-to-left reader takes it from the right: 'فحص.', '-',
    // '(45)', 'أحمد'. The run is drawn as '- (45)'; in reading order its '(' comes first, drawn
    // mirrored at the right.
    expect(line.find((item) => item.text.includes('45'))!.text).toBe('- (45)');
  }, 30_000);
});
