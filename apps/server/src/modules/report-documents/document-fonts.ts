import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { inflateSync } from 'node:zlib';
import bidiFactory from 'bidi-js';

/*
 * Fonts for every script a patient's name or a report is written in (issue 21 §1). Roboto prints
 * Latin, Greek and Cyrillic; each other script gets a Noto face, chosen per run of text
 * (`scriptRuns`), loaded from its npm package the first time a run needs it and parsed once per
 * process. pdfkit embeds only the glyphs a document uses (subsets). The Word file names the same
 * faces (`wordFontsOf`) and carries a subset of each (word-fonts.ts, `wordFaceFile`).
 */

const require = createRequire(import.meta.url);

interface TFontkitGlyph {
  codePoints: number[];
}

/** A glyph's outline and metrics as fontkit reads them (font units). */
export interface TGlyphOutline {
  path: { commands: Array<{ command: string; args: number[] }> };
  bbox: { minX: number; minY: number; maxX: number; maxY: number };
  advanceWidth: number;
}

interface TFontkitFont {
  hasGlyphForCodePoint(codePoint: number): boolean;
  getGlyph(id: number, codePoints?: number[]): TFontkitGlyph | null;
}

interface TFontkit {
  create(buffer: Uint8Array): TFontkitFont;
  registerFormat(format: { probe(buffer: Uint8Array): boolean }): void;
}

/** A face: its family name in pdfmake, its name in Word, where its regular and bold files are. */
interface TFace {
  family: string;
  wordName: string;
  /** Word's slot for it: East Asian (CJK) or complex script (right to left, Indic). */
  slot: 'eastAsia' | 'cs';
  regular: () => string;
  bold: () => string;
}

const packageDir = (resolvable: string, up: string) => join(dirname(require.resolve(resolvable)), up);
/** A @fontsource package's script slice (woff: fontkit reads it; woff2 would need brotli per start). */
function fontsource(family: string, wordName: string, pkg: string, slice: string): TFace {
  const file = (weight: number) =>
    join(packageDir(`@fontsource/${pkg}/LICENSE`, '.'), 'files', `${pkg}-${slice}-${weight}-normal.woff`);
  return { family, wordName, slot: 'cs', regular: () => file(400), bold: () => file(700) };
}
/** An @embedpdf/fonts-* package: whole OpenType files beside its dist folder. */
function embedpdf(
  family: string,
  wordName: string,
  slot: TFace['slot'],
  pkg: string,
  base: string,
  ext: 'otf' | 'ttf',
): TFace {
  const file = (weight: string) =>
    join(packageDir(`@embedpdf/${pkg}`, '../fonts'), `${base}-${weight}.${ext}`);
  return { family, wordName, slot, regular: () => file('Regular'), bold: () => file('Bold') };
}

const ROBOTO_FAMILY = 'Roboto';
export const ROBOTO_REGULAR = 'Roboto-Regular.ttf';
const ROBOTO = {
  normal: ROBOTO_REGULAR,
  bold: 'Roboto-Medium.ttf',
  italics: 'Roboto-Italic.ttf',
  bolditalics: 'Roboto-MediumItalic.ttf',
};

const F = {
  devanagari: fontsource('NotoSansDevanagari', 'Noto Sans Devanagari', 'noto-sans-devanagari', 'devanagari'),
  bengali: fontsource('NotoSansBengali', 'Noto Sans Bengali', 'noto-sans-bengali', 'bengali'),
  gurmukhi: fontsource('NotoSansGurmukhi', 'Noto Sans Gurmukhi', 'noto-sans-gurmukhi', 'gurmukhi'),
  gujarati: fontsource('NotoSansGujarati', 'Noto Sans Gujarati', 'noto-sans-gujarati', 'gujarati'),
  tamil: fontsource('NotoSansTamil', 'Noto Sans Tamil', 'noto-sans-tamil', 'tamil'),
  telugu: fontsource('NotoSansTelugu', 'Noto Sans Telugu', 'noto-sans-telugu', 'telugu'),
  kannada: fontsource('NotoSansKannada', 'Noto Sans Kannada', 'noto-sans-kannada', 'kannada'),
  malayalam: fontsource('NotoSansMalayalam', 'Noto Sans Malayalam', 'noto-sans-malayalam', 'malayalam'),
  oriya: fontsource('NotoSansOriya', 'Noto Sans Oriya', 'noto-sans-oriya', 'oriya'),
  sinhala: fontsource('NotoSansSinhala', 'Noto Sans Sinhala', 'noto-sans-sinhala', 'sinhala'),
  thai: fontsource('NotoSansThai', 'Noto Sans Thai', 'noto-sans-thai', 'thai'),
  hebrew: embedpdf('NotoSansHebrew', 'Noto Sans Hebrew', 'cs', 'fonts-hebrew', 'NotoSansHebrew', 'ttf'),
  arabic: embedpdf('NotoNaskhArabic', 'Noto Naskh Arabic', 'cs', 'fonts-arabic', 'NotoNaskhArabic', 'ttf'),
  japanese: embedpdf('NotoSansJP', 'Noto Sans JP', 'eastAsia', 'fonts-jp', 'NotoSansJP', 'otf'),
  simplifiedChinese: embedpdf('NotoSansSC', 'Noto Sans SC', 'eastAsia', 'fonts-sc', 'NotoSansHans', 'otf'),
  traditionalChinese: embedpdf('NotoSansTC', 'Noto Sans TC', 'eastAsia', 'fonts-tc', 'NotoSansHant', 'otf'),
  korean: embedpdf('NotoSansKR', 'Noto Sans KR', 'eastAsia', 'fonts-kr', 'NotoSansKR', 'otf'),
} satisfies Record<string, TFace>;
const FACES: TFace[] = Object.values(F);

/** Code point ranges of each script's own letters (and its marks), first match wins. */
const SCRIPT_RANGES: Array<[number, number, TFace | 'han' | 'kana']> = [
  [0x0590, 0x05ff, F.hebrew],
  [0xfb1d, 0xfb4f, F.hebrew],
  [0x0600, 0x06ff, F.arabic],
  [0x0750, 0x077f, F.arabic],
  [0x0870, 0x08ff, F.arabic],
  [0xfb50, 0xfdff, F.arabic],
  [0xfe70, 0xfeff, F.arabic],
  [0x0900, 0x097f, F.devanagari],
  [0xa8e0, 0xa8ff, F.devanagari],
  [0x1cd0, 0x1cff, F.devanagari],
  [0x0980, 0x09ff, F.bengali],
  [0x0a00, 0x0a7f, F.gurmukhi],
  [0x0a80, 0x0aff, F.gujarati],
  [0x0b00, 0x0b7f, F.oriya],
  [0x0b80, 0x0bff, F.tamil],
  [0x0c00, 0x0c7f, F.telugu],
  [0x0c80, 0x0cff, F.kannada],
  [0x0d00, 0x0d7f, F.malayalam],
  [0x0d80, 0x0dff, F.sinhala],
  [0x0e00, 0x0e7f, F.thai],
  [0x1100, 0x11ff, F.korean],
  [0x3130, 0x318f, F.korean],
  [0xa960, 0xa97f, F.korean],
  [0xac00, 0xd7ff, F.korean],
  [0x3040, 0x30ff, 'kana'],
  [0x31f0, 0x31ff, 'kana'],
  [0xff66, 0xff9f, 'kana'],
  [0x2e80, 0x2fdf, 'han'],
  [0x3000, 0x303f, 'han'],
  [0x3190, 0x31ef, 'han'],
  [0x3200, 0x33ff, 'han'],
  [0x3400, 0x4dbf, 'han'],
  [0x4e00, 0x9fff, 'han'],
  [0xf900, 0xfaff, 'han'],
  [0xfe30, 0xfe4f, 'han'],
  [0xff00, 0xffef, 'han'],
  [0x20000, 0x3ffff, 'han'],
];

/** Danda, joiners, the dotted circle, combining marks: they belong to the letters around them. */
// eslint-disable-next-line no-misleading-character-class -- single marks and joiners, each on its own
const SHARED = /[\u0300-\u036f\u0964\u0965\u200c\u200d\u25cc\ufe00-\ufe0f]/u;
/** Text Roboto prints whole: the fast path for the usual report. */
export const ROBOTO_ONLY =
  // eslint-disable-next-line no-control-regex -- every character below U+0530, controls included
  /^[\u0000-\u052f\u1e00-\u1fff\u2000-\u20cf\u2100-\u218f\u2190-\u23ff\u25a0-\u25ff]*$/u;

function scriptOf(codePoint: number): TFace | 'han' | 'kana' | null {
  for (const [from, to, face] of SCRIPT_RANGES) if (codePoint >= from && codePoint <= to) return face;
  return null;
}

/**
 * Fonts parsed once per process, served to every document. pdfkit parses each font anew for every
 * document (fontkit `create`): with four Roboto faces that was a third of a report's CPU time.
 * fontkit tries its registered formats in turn, so a format of our own that recognises a 5-byte
 * marker "file" and answers the font parsed once serves the same object to every document. Sharing
 * is safe: pdfkit makes its subset and layout cache per document; the fontkit font only caches
 * glyphs. A Noto face is read and parsed the first time a document uses it (the CJK files are 4–9 MB).
 */
const CACHED_FONT_MAGIC = [0x52, 0x46, 0x43, 0x46];
const fileLoaders: Array<() => Uint8Array> = [];
const parsedFonts: Array<TFontkitFont | undefined> = [];
let fontkitModule: TFontkit | null = null;

function fontkit(): TFontkit {
  if (fontkitModule) return fontkitModule;
  const pdfkitRequire = createRequire(require.resolve('pdfkit'));
  const made = pdfkitRequire('fontkit') as TFontkit;
  const isMarker = (buffer: Uint8Array) =>
    buffer.length === CACHED_FONT_MAGIC.length + 1 && CACHED_FONT_MAGIC.every((b, i) => buffer[i] === b);
  // A constructor that returns an object gives that object to `new`: the cached font.
  function CachedFont(this: unknown, stream: { buffer: Uint8Array }) {
    return parsedFont(stream.buffer[CACHED_FONT_MAGIC.length] ?? -1);
  }
  CachedFont.probe = isMarker;
  made.registerFormat(CachedFont as unknown as { probe(buffer: Uint8Array): boolean });
  fontkitModule = made;
  return made;
}

function parsedFont(index: number): TFontkitFont {
  let font = parsedFonts[index];
  if (!font) {
    const load = fileLoaders[index];
    if (!load) throw new Error(`no font ${index}`);
    font = ownCodePoints(fontkit().create(load()));
    parsedFonts[index] = font;
  }
  return font;
}

/**
 * A glyph as its text asks for it. fontkit keeps one glyph object per glyph id, holding the code
 * points it was made for, and pdfkit writes those into the PDF's text map (what a reader copies
 * and searches). With the font shared by every document, a glyph first made for another text, or
 * for none (a part of an accented or Greek capital embedded before the letter itself was ever
 * drawn), read back wrong in every later document: after a Greek report, "ALEX" read as control
 * characters. A glyph asked for with other code points than its own is now a view of it holding
 * the ones asked for; outlines and metrics stay the shared glyph's.
 */
function ownCodePoints(font: TFontkitFont): TFontkitFont {
  const getGlyph = font.getGlyph.bind(font);
  font.getGlyph = (id: number, codePoints: number[] = []) => {
    const glyph = getGlyph(id, codePoints);
    if (!glyph || codePoints.length === 0) return glyph;
    const own = glyph.codePoints;
    if (own.length === codePoints.length && own.every((c, i) => c === codePoints[i])) return glyph;
    return Object.create(glyph, { codePoints: { value: codePoints } }) as TFontkitGlyph;
  };
  return font;
}

/** The virtual files (markers) and pdfmake font families: Roboto and every Noto face. */
export function fontRegistry(robotoDir: string): {
  files: Record<string, Buffer>;
  families: Record<string, Record<string, string>>;
} {
  fontkit();
  const files: Record<string, Buffer> = {};
  const indexOfFile = new Map<string, number>();
  const add = (name: string, load: () => Uint8Array) => {
    fileLoaders.push(load);
    indexOfFile.set(name, fileLoaders.length - 1);
    files[name] = Buffer.from([...CACHED_FONT_MAGIC, fileLoaders.length - 1]);
  };
  for (const file of Object.values(ROBOTO)) add(file, () => readFileSync(join(robotoDir, file)));
  // Roboto is what nearly every report prints in: parsed now, at the first document.
  parsedFont(indexOfFile.get(ROBOTO.normal)!);
  const families: Record<string, Record<string, string>> = { [ROBOTO_FAMILY]: ROBOTO };
  for (const face of FACES) {
    const regular = `${face.family}-Regular`;
    const bold = `${face.family}-Bold`;
    add(regular, () => readFontFile(face.regular()));
    add(bold, () => readFontFile(face.bold()));
    families[face.family] = { normal: regular, bold, italics: regular, bolditalics: bold };
    faceIndex.set(face, indexOfFile.get(regular)!);
  }
  robotoIndex = indexOfFile.get(ROBOTO.normal)!;
  return { files, families };
}

/**
 * A font file as fontkit reads it fastest. fontkit reads WOFF, but inflates a table again at every
 * access (the glyph table once per glyph a subset takes: most of a Devanagari report's CPU), so a
 * WOFF is unpacked once into the plain OpenType file it wraps (WOFF 1.0 §5: each table zlib-packed
 * unless its packed length equals its length).
 */
function readFontFile(path: string): Uint8Array {
  const woff = readFileSync(path);
  if (woff.readUInt32BE(0) !== 0x774f4646) return woff; // 'wOFF'
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const at = 44 + i * 20;
    const [offset, packed, length] = [
      woff.readUInt32BE(at + 4),
      woff.readUInt32BE(at + 8),
      woff.readUInt32BE(at + 12),
    ];
    const raw = woff.subarray(offset, offset + packed);
    return {
      tag: woff.readUInt32BE(at),
      checksum: woff.readUInt32BE(at + 16),
      data: packed < length ? inflateSync(raw) : raw,
    };
  });
  const entrySelector = Math.floor(Math.log2(numTables));
  const head = 12 + 16 * numTables;
  const size = tables.reduce((total, t) => total + ((t.data.length + 3) & ~3), head);
  const out = Buffer.alloc(size);
  out.writeUInt32BE(woff.readUInt32BE(4), 0); // the wrapped font's sfnt version
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(16 * 2 ** entrySelector, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(numTables * 16 - 16 * 2 ** entrySelector, 10);
  let offset = head;
  tables.forEach((table, i) => {
    out.writeUInt32BE(table.tag, 12 + i * 16);
    out.writeUInt32BE(table.checksum, 16 + i * 16);
    out.writeUInt32BE(offset, 20 + i * 16);
    out.writeUInt32BE(table.data.length, 24 + i * 16);
    out.set(table.data, offset);
    offset += (table.data.length + 3) & ~3;
  });
  return out;
}

const faceIndex = new Map<TFace, number>();
let robotoIndex = -1;
/** Whether a face (its regular file: the bold has the same characters) has a glyph. */
function covers(face: TFace | null, codePoint: number): boolean {
  const index = face ? faceIndex.get(face) : robotoIndex;
  return index !== undefined && index >= 0 && parsedFont(index).hasGlyphForCodePoint(codePoint);
}

/**
 * Han characters are shared by Chinese, Japanese and Korean, drawn differently in each: the text
 * around them decides (kana: Japanese; Hangul: Korean; else Simplified Chinese). A character the
 * chosen face lacks (a Traditional or Hong Kong one outside it) goes to the next face that has it.
 */
function hanFaces(context: string): TFace[] {
  if (/[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/u.test(context))
    return [F.japanese, F.traditionalChinese, F.simplifiedChinese, F.korean];
  if (/[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]/u.test(context))
    return [F.korean, F.traditionalChinese, F.simplifiedChinese, F.japanese];
  return [F.simplifiedChinese, F.traditionalChinese, F.japanese, F.korean];
}

export interface TScriptRun {
  text: string;
  /** The pdfmake family, or null for the document's own font (Roboto). */
  family: string | null;
}

/**
 * Text split into runs of one face each. A character of a script with a face of its own goes to
 * that face; spaces, digits and punctuation stay with the run they are in when its face has them
 * (an Arabic phrase keeps its spaces, so it is shaped and reordered as one); everything else is
 * Roboto's. `context` (the paragraph) chooses the face of Han characters.
 */
export function scriptRuns(text: string, context: string = text): TScriptRun[] {
  if (ROBOTO_ONLY.test(text)) return [{ text, family: null }];
  const runs: TScriptRun[] = [];
  let han: TFace[] | null = null;
  let current: TFace | null = null;
  let start = 0;
  let index = 0;
  const push = (end: number) => {
    if (end > start) runs.push({ text: text.slice(start, end), family: current?.family ?? null });
    start = end;
  };
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    const script = scriptOf(codePoint);
    let face: TFace | null;
    if (script === 'han' || script === 'kana') {
      han ??= hanFaces(context);
      face =
        (current && han.includes(current) && covers(current, codePoint) ? current : null) ??
        han.find((f) => covers(f, codePoint)) ??
        han[0]!;
    } else if (script && !SHARED.test(char)) face = script;
    else if (current && covers(current, codePoint)) face = current;
    else if (SHARED.test(char) && current) face = current;
    else face = null;
    if (face !== current) {
      push(index);
      current = face;
    }
    index += char.length;
  }
  push(index);
  return runs;
}

/**
 * The characters of a text that its runs' faces cannot draw (they would print as empty boxes): what
 * a script without a face of its own looks like. Spaces and format characters draw nothing anyway.
 * Needs the fonts registered (`fontRegistry`, done by the first document).
 */
export function charactersWithoutGlyph(text: string, context: string = text): string[] {
  const missing: string[] = [];
  for (const run of scriptRuns(text, context)) {
    const face = run.family === null ? null : (FACES.find((f) => f.family === run.family) ?? null);
    for (const char of run.text) {
      if (/^[\s\p{Cf}]$/u.test(char)) continue;
      if (!covers(face, char.codePointAt(0)!)) missing.push(char);
    }
  }
  return missing;
}

/** Each glyph of a font file, by id, as fontkit reads it (the documents' own font parser). */
export function glyphOutlinesOf(bytes: Uint8Array): (id: number) => TGlyphOutline {
  const font = fontkit().create(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return (id) => font.getGlyph(id) as unknown as TGlyphOutline;
}

/**
 * The font file of a face Word names (`wordFontsOf`'s names), regular or bold, as OpenType bytes:
 * what the Word file embeds.
 */
export function wordFaceFile(wordName: string, weight: 'regular' | 'bold' = 'regular'): Uint8Array | null {
  const face = FACES.find((f) => f.wordName === wordName);
  return face ? readFontFile(weight === 'bold' ? face.bold() : face.regular()) : null;
}

/** Letters written right to left (Hebrew, Arabic and their presentation forms). */
export const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;

export interface TWordFonts {
  eastAsia?: string;
  cs?: string;
  rtl: boolean;
}

/**
 * What Word needs to show a run: it picks a run's font by the class of each character (East Asian,
 * complex script, the rest), so the run names the East Asian and the complex-script face of the
 * scripts in it (the first of each), the same faces the PDF draws, and is marked right to left
 * when it holds a right-to-left letter. `context` (the paragraph) chooses the Han face.
 */
export function wordFontsOf(text: string, context: string = text): TWordFonts {
  const fonts: TWordFonts = { rtl: RTL_LETTER.test(text) };
  if (ROBOTO_ONLY.test(text)) return fonts;
  for (const char of text) {
    const script = scriptOf(char.codePointAt(0)!);
    if (!script) continue;
    const face = script === 'han' || script === 'kana' ? hanFaces(context)[0]! : script;
    fonts[face.slot] ??= face.wordName;
    if (fonts.eastAsia && fonts.cs) break;
  }
  return fonts;
}

const bidi = bidiFactory();
/** A paragraph's direction (UAX #9 P2–P3): its first strong letter's. */
export function firstStrongIsRtl(text: string): boolean {
  for (const char of text) {
    const type = bidi.getBidiCharTypeName(char);
    if (type === 'L') return false;
    if (type === 'R' || type === 'AL') return true;
  }
  return false;
}
