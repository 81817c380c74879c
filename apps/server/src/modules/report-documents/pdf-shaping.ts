import { createRequire } from 'node:module';
import bidiFactory from 'bidi-js';
import { ROBOTO_ONLY, RTL_LETTER, firstStrongIsRtl, scriptRuns } from './document-fonts.js';

/*
 * What pdfmake 0.3 and pdfkit lack for scripts other than Latin, added to them once per process
 * (issue 21 §1; DECISIONS.md, Fonts):
 *   1. font fallback: each word pdfmake measures is split into runs of one face (document-fonts.ts);
 *   2. bidi: pdfmake lays a line's words left to right in logical order; each line is put in
 *      visual order (Unicode bidi, bidi-js) and a right-to-left paragraph is aligned right;
 *   3. text that reads back: fontkit shapes (Arabic joining, Indic reordering and conjuncts) and
 *      pdfkit maps each glyph to the characters it was made from, in glyph order, so a reordered
 *      Indic vowel sign read back before its consonant and a right-to-left ligature backwards.
 *      Here a word whose glyphs do not map in order has its characters cut over its glyphs in
 *      reading order (per occurrence: the same glyph elsewhere keeps its own mapping; see
 *      wordMapping), and a right-to-left glyph maps to its characters reversed, as readers reverse
 *      visual order.
 * And one for speed: 4. a word's shape kept for the process, not per document (sharedWordShapes).
 * The hooks are pdfmake's and pdfkit's own prototypes (pdfmake/js/*.js, pdfkit's EmbeddedFont),
 * held by package-lock.json (pdfmake 0.3.11, pdfkit 0.19.1, fontkit 2.0.4); document-scripts.test.ts
 * reads every script back, so an update that moves them fails there.
 */

const require = createRequire(import.meta.url);
const bidi = bidiFactory();

const RTL = RTL_LETTER;
/** Scripts whose glyphs may not map to the characters in order: right-to-left and Indic. */
const COMPLEX = /[\u0590-\u08ff\u0900-\u0dff\ufb1d-\ufdff\ufe70-\ufeff]/u;

interface TInline {
  text: string;
  font?: unknown;
  width: number;
  x: number;
  alignment?: string;
  noNewLine?: boolean;
  lineEnd?: boolean;
  leadingCut?: number;
  trailingCut?: number;
}

interface TLine {
  inlines: TInline[];
  leadingCut: number;
  trailingCut: number;
  maxWidth: number;
  newLineForced?: boolean;
  lastLineInParagraph?: boolean;
}

interface TStyleContextStack {
  getStyleProperty(item: unknown, stack: unknown, property: string, fallback: unknown): unknown;
}

interface TGlyph {
  id: number;
  codePoints: number[];
  advanceWidth: number;
  path: { commands: unknown[] };
}

/** A glyph's place as fontkit shapes it and pdfkit scales it (1000 units to the size). */
interface TPosition {
  xAdvance: number;
  advanceWidth: number;
  xOffset?: number;
  yOffset?: number;
}

interface TGlyphRun {
  glyphs: TGlyph[];
  positions: unknown[];
  direction: 'ltr' | 'rtl';
}

interface TEmbeddedFont {
  font: { hasGlyphForCodePoint(c: number): boolean; glyphForCodePoint(c: number): TGlyph };
  markCarrier?: TGlyph | null;
  layout(text: string, features?: unknown, onlyWidth?: boolean): unknown;
  subset: { includeGlyph(id: number): number; glyphs: number[] };
  widths: number[];
  unicode: number[][];
  scale: number;
  layoutRun(text: string, features?: unknown): TGlyphRun;
  layoutCached(text: string): TGlyphRun;
  /** pdfkit's per-document cache of word shapes; absent when the document turned it off. */
  layoutCache?: object;
  encode(text: string, features?: unknown): [string[], unknown[]];
  /** Glyphs added again under another mapping, by "glyph id:code points". */
  extraGlyphs?: Map<string, number>;
}

let installed = false;

/** Adds the three to pdfmake and pdfkit; `embeddedFont` is any pdfkit font of a document. */
export function installScriptShaping(embeddedFontPrototype: object): void {
  if (installed) return;
  installed = true;
  installScriptRuns();
  installVisualOrder();
  installClusterMapping(embeddedFontPrototype as TEmbeddedFont);
  installSharedWordShapes(embeddedFontPrototype as TEmbeddedFont);
}

/** 1. Each word pdfmake measures, split into runs of one face; the runs of a word stay together. */
function installScriptRuns(): void {
  const TextInlines = (require('pdfmake/js/TextInlines.js') as { default: { prototype: object } }).default;
  const StyleContextStack = (require('pdfmake/js/StyleContextStack.js') as { default: TStyleContextStack })
    .default;
  const proto = TextInlines.prototype as { measure(array: TInline[], stack: unknown): TInline[] };
  const measure = proto.measure;
  proto.measure = function (array: TInline[], stack: unknown) {
    if (array.every((item) => ROBOTO_ONLY.test(item.text))) return measure.call(this, array, stack);
    const context = array.map((item) => item.text).join('');
    const split: TInline[] = [];
    for (const item of array) {
      const family = StyleContextStack.getStyleProperty(item, stack, 'font', 'Roboto');
      const runs = family === 'Roboto' ? scriptRuns(item.text, context) : [{ text: item.text, family: null }];
      if (runs.length === 1) {
        // One face for the whole word (every CJK character is a word of its own to pdfmake).
        if (runs[0]!.family) item.font = runs[0]!.family;
        split.push(item);
        continue;
      }
      runs.forEach((run, i) => {
        const last = i === runs.length - 1;
        const piece: TInline = { ...item, text: run.text };
        if (run.family) piece.font = run.family;
        // pdfmake keeps inlines marked noNewLine on one line with the next: one word stays whole.
        if (!last) {
          piece.noNewLine = true;
          delete piece.lineEnd;
        }
        split.push(piece);
      });
    }
    return measure.call(this, split, stack);
  };
}

/** 2. Each line of a paragraph in visual order; a right-to-left paragraph aligned right. */
function installVisualOrder(): void {
  const LayoutBuilder = (require('pdfmake/js/LayoutBuilder.js') as { default: { prototype: object } })
    .default;
  const proto = LayoutBuilder.prototype as { buildNextLine(node: { _inlines?: TInline[] }): TLine | null };
  const buildNextLine = proto.buildNextLine;
  const paragraphIsRtl = new WeakMap<object, boolean>();
  proto.buildNextLine = function (node) {
    let rtl = paragraphIsRtl.get(node);
    if (rtl === undefined) {
      rtl = node._inlines ? firstStrongIsRtl(node._inlines.map((inline) => inline.text).join('')) : false;
      paragraphIsRtl.set(node, rtl);
    }
    const line = buildNextLine.call(this, node);
    if (line && (rtl || line.inlines.some((inline) => RTL.test(inline.text)))) visualOrder(line, rtl);
    return line;
  };
}

const STYLE_KEYS = [
  'font',
  'fontSize',
  'fontFeatures',
  'characterSpacing',
  'color',
  'opacity',
  'decoration',
  'decorationColor',
  'decorationStyle',
  'decorationThickness',
  'background',
  'link',
  'linkToPage',
  'linkToDestination',
  'sup',
  'sub',
  'alignment',
  'height',
] as const;
function sameStyle(a: TInline, b: TInline): boolean {
  const [x, y] = [a as unknown as Record<string, unknown>, b as unknown as Record<string, unknown>];
  return STYLE_KEYS.every((key) => x[key] === y[key]) && !x._pageNodeRef && !y._pageNodeRef;
}

/**
 * The inlines of a line placed in visual order, by their bidi levels (UAX #9 L2, a word being the
 * unit: fontkit already writes a right-to-left word's glyphs right to left), then neighbours of
 * one style merged.
 */
function visualOrder(line: TLine, rtl: boolean): void {
  const logical = line.inlines;
  if (logical.length === 0) return;
  const text = logical.map((inline) => inline.text).join('');
  const { levels } = bidi.getEmbeddingLevels(text, rtl ? 'rtl' : 'ltr');
  const base = rtl ? 1 : 0;
  let offset = 0;
  const starts: number[] = [];
  const units = logical.map((inline, index) => {
    const strong = inline.text.search(/\S/u);
    const level = strong < 0 ? base : (levels[offset + strong] ?? base);
    starts.push(offset);
    offset += inline.text.length;
    return { inline, index, level };
  });
  // The characters a run draws, left to right (drawnText): a right-to-left face's run is put in
  // visual order by its shaping, any other run here.
  const drawn = (inline: TInline, start: number) => drawnText(inline.text, levels, start);
  const visual = reorderByLevel(units);
  // The cut spaces of the line's ends: a right-to-left word carries its trailing space on its left.
  const first = visual[0]!;
  const cut =
    first.index === logical.length - 1 && first.level % 2 === 1
      ? line.trailingCut
      : first.index === 0
        ? line.leadingCut
        : 0;
  // A justified right-to-left line (not a paragraph's last or one ended by a break) spans the
  // line: the gaps between words share what is left. pdfmake would shift the inlines in array
  // order, which is no longer left to right, so the words are placed here and the line left alone.
  const justified =
    rtl &&
    logical[0]!.alignment === 'justify' &&
    !line.newLineForced &&
    !line.lastLineInParagraph &&
    visual.length > 1;
  const used =
    logical.reduce((total, inline) => total + inline.width, 0) - line.leadingCut - line.trailingCut;
  const gap = justified ? Math.max(0, (line.maxWidth - used) / (visual.length - 1)) : 0;
  let x = -cut;
  for (const { inline } of visual) {
    inline.x = x;
    x += inline.width + gap;
    // Justifying shifts inlines in array order, which is no longer left to right.
    if (justified) inline.alignment = 'left';
    else if (rtl && inline.alignment !== 'center') inline.alignment = 'right';
  }
  // Justified words stay inlines of their own, in reading order (what readers take them in).
  if (justified) {
    logical.forEach((inline, i) => {
      inline.text = drawn(inline, starts[i]!);
    });
    return;
  }
  // Neighbouring words of one style become one inline, drawn as one run (visualWords): a reader
  // (pdfjs) puts the words of one run in reading order, not those of separate runs.
  const merged: TInline[] = [];
  const mergedStarts: number[] = [];
  logical.forEach((inline, i) => {
    const previous = merged.at(-1);
    if (previous && sameStyle(previous, inline)) {
      merged[merged.length - 1] = {
        ...previous,
        text: previous.text + inline.text,
        width: previous.width + inline.width,
        x: Math.min(previous.x, inline.x),
        trailingCut: inline.trailingCut,
        lineEnd: inline.lineEnd,
        noNewLine: inline.noNewLine,
      };
    } else {
      merged.push(inline);
      mergedStarts.push(starts[i]!);
    }
  });
  merged.forEach((inline, i) => {
    inline.text = drawn(inline, mergedStarts[i]!);
  });
  line.inlines = merged;
}

/**
 * The text of a run as it must be drawn from the left. A run with a right-to-left letter is shaped
 * right to left by fontkit (its words put in visual order by visualWords): as is. Any other run
 * drawn at a right-to-left level (punctuation, spaces, digits and brackets beside right-to-left
 * words, in a face of their own, Roboto) would be drawn left to right in reading order: 'שלום, '
 * put its space between the word and the comma, '(45) -' read as '- (45)'. Its characters are put
 * in visual order by their levels (UAX #9 L2: digits stay left to right inside) and those at a
 * right-to-left level mirrored (L4: '(' drawn as ')').
 */
function drawnText(text: string, levels: Uint8Array, start: number): string {
  if (RTL.test(text)) return text;
  const characters: Array<{ character: string; level: number }> = [];
  let at = start;
  for (const character of text) {
    characters.push({ character, level: levels[at] ?? 0 });
    at += character.length;
  }
  if (!characters.some((c) => c.level % 2 === 1)) return text;
  return reorderByLevel(characters)
    .map(({ character, level }) =>
      level % 2 === 1 ? (bidi.getMirroredCharacter(character) ?? character) : character,
    )
    .join('');
}

/**
 * Text cut into words and spaces, in the order they are drawn from the left (UAX #9 L2 on their
 * levels; the text's first strong letter sets its direction). The PDF then holds one right-to-left
 * line as one run of glyphs in visual order, which readers turn back into reading order.
 */
function visualWords(text: string): string[] {
  const { levels } = bidi.getEmbeddingLevels(text, firstStrongIsRtl(text) ? 'rtl' : 'ltr');
  let offset = 0;
  const units = (text.match(/\s+|\S+/gu) ?? []).map((word) => {
    const unit = { word, level: levels[offset] ?? 0 };
    offset += word.length;
    return unit;
  });
  return reorderByLevel(units).map((unit) => unit.word);
}

/** UAX #9 L2: from the highest level down to the lowest odd one, reverse every run at or above it. */
function reorderByLevel<T extends { level: number }>(units: T[]): T[] {
  const out = [...units];
  if (out.length < 2) return out;
  const highest = Math.max(...out.map((unit) => unit.level));
  const lowestOdd = Math.min(
    ...out.map((unit) => unit.level).filter((level) => level % 2 === 1),
    highest + 1,
  );
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < out.length; i++) {
      if (out[i]!.level < level) continue;
      let end = i;
      while (end + 1 < out.length && out[end + 1]!.level >= level) end++;
      out.splice(i, end - i + 1, ...out.slice(i, end + 1).reverse());
      i = end;
    }
  }
  return out;
}

/** 3. Glyphs mapped to the characters they show, in the order a reader extracts them. */
let plainEncoding: { proto: TEmbeddedFont; encode: TEmbeddedFont['encode'] } | null = null;

/**
 * Runs `render` with pdfkit's own glyph encoding, without the read-back mapping of 3 (pieces,
 * carriers, advances moved between glyphs): for the test that the mapping changes what a reader
 * reads and never what is drawn. Not for documents.
 */
export async function withoutReadBackMapping<T>(render: () => Promise<T>): Promise<T> {
  if (!plainEncoding) throw new Error('the script shaping is not installed yet');
  const { proto, encode } = plainEncoding;
  const mapped = proto.encode;
  proto.encode = encode;
  try {
    return await render();
  } finally {
    proto.encode = mapped;
  }
}

function installClusterMapping(proto: TEmbeddedFont): void {
  // fontkit 2.0.4 fails on some Indic mark anchors (Noto Sans Telugu 'abvm': a null anchor), which
  // failed the whole document: such a word is shaped again without mark positioning, then plain.
  const layoutRun = proto.layoutRun;
  proto.layoutRun = function (this: TEmbeddedFont, text: string, features?: unknown) {
    for (const fallback of [
      features,
      { abvm: false, blwm: false },
      { abvm: false, blwm: false, mark: false, mkmk: false },
    ]) {
      try {
        return layoutRun.call(this, text, fallback);
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
      }
    }
    return layoutRun.call(this, text, {
      abvm: false,
      blwm: false,
      mark: false,
      mkmk: false,
      dist: false,
      kern: false,
    });
  };
  const encode = proto.encode;
  plainEncoding = { proto, encode };
  proto.encode = function (this: TEmbeddedFont, text: string, features?: unknown) {
    if (!COMPLEX.test(text)) return encode.call(this, text, features);
    const hex: string[] = [];
    const positions: unknown[] = [];
    // Words as pdfkit lays them out (layout(): split after each space or tab), each shaped alone;
    // right-to-left text in visual order, word by word (fontkit reverses each word's glyphs).
    const words = RTL.test(text) ? visualWords(text) : (text.match(/[^ \t]*[ \t]?/gu) ?? []);
    for (const word of words) {
      if (word === '') continue;
      const run = features ? this.layoutRun(word, features) : this.layoutCached(word);
      const rtl = run.direction === 'rtl';
      const inOrder = rtl ? [...run.glyphs].reverse() : run.glyphs;
      const characters = Array.from(word, (c) => c.codePointAt(0)!);
      const simple = sameNumbers(
        inOrder.flatMap((glyph) => glyph.codePoints),
        characters,
      );
      const shapedPositions = run.positions as TPosition[];
      let advances = shapedPositions.map((p) => p.xAdvance);
      let mapping = simple
        ? run.glyphs.map((glyph) => (rtl ? [...glyph.codePoints].reverse() : glyph.codePoints))
        : wordMapping(word, run.glyphs, advances, rtl);
      // Right to left, the marks of a glyph would have to go before it: not done (Arabic marks are
      // glyphs of their own).
      const carrier = rtl ? null : markCarrier(this);
      if (carrier && mapping.some((piece, i) => (advances[i] ?? 0) > 0 && readsBackBadly(piece))) {
        const reading = markSafeReading(word, run.glyphs, shapedPositions);
        if (reading) ({ mapping, advances } = reading);
      }
      // How far the pen is from where the shaping put it, after advances moved between glyphs.
      let penShift = 0;
      run.glyphs.forEach((glyph, i) => {
        const shaped = shapedPositions[i]!;
        const xAdvance = advances[i]!;
        const placed =
          xAdvance === shaped.xAdvance && penShift === 0
            ? shaped
            : { ...shaped, xAdvance, xOffset: (shaped.xOffset ?? 0) - penShift };
        penShift += xAdvance - shaped.xAdvance;
        // An advancing glyph reads as its piece up to the first nonspacing mark, and the rest
        // rides on the carrier, a zero-width glyph drawn after it (headAndTail says why).
        const [own, marks] = carrier && xAdvance > 0 ? headAndTail(mapping[i]!) : [mapping[i]!, []];
        // A glyph the shaping widened (a Bengali conjunct's 'dist' spacing; one that took a
        // folded glyph's advance) is drawn with a width of its advance here: pdfkit would write
        // the difference as a TJ adjustment, and pdfjs takes a step forward of over a tenth of the
        // size after a glyph for a word gap.
        const widened = placed.xAdvance > placed.advanceWidth && !placed.xOffset && !placed.yOffset;
        const position = widened ? { ...placed, advanceWidth: placed.xAdvance } : placed;
        hex.push(`0000${glyphFor(this, glyph, own, position.advanceWidth).toString(16)}`.slice(-4));
        positions.push(position);
        if (marks.length > 0 && carrier) {
          hex.push(`0000${glyphFor(this, carrier, marks, 0).toString(16)}`.slice(-4));
          positions.push({ xAdvance: 0, yAdvance: 0, xOffset: 0, yOffset: 0, advanceWidth: 0 });
        }
      });
    }
    return [hex, positions];
  };
}

/**
 * The characters each glyph of a word reads back as, when its glyphs are not in character order
 * (a reordered vowel sign, a reph, a half form): the word's characters, in the order a reader takes
 * them (reversed when right to left), cut into one piece per glyph that advances, from the left.
 * fontkit's own `codePoints` of a substituted glyph are a reverse cmap look-up, not what it was
 * made from, so they only size the pieces. pdfjs reads a lone nonspacing mark as zero width, so a
 * piece that is one (a virama on a half form) takes a neighbour's character too, or the reader
 * sees a gap and adds a space; a glyph that does not advance (a mark placed over another) reads as
 * WORD JOINER, which readers skip. A word with more advancing glyphs than characters even in
 * its canonical decomposition (a split vowel: Bengali ো is ে + া) reads each glyph as itself.
 */
function wordMapping(word: string, glyphs: TGlyph[], advances: number[], rtl: boolean): number[][] {
  // The word's trailing spaces are its last glyphs (its first, right to left) and read as spaces.
  const spaces = /\s*$/u.exec(word)![0].length;
  if (spaces > 0 && spaces < glyphs.length) {
    const core = rtl ? glyphs.slice(spaces) : glyphs.slice(0, -spaces);
    const coreAdvances = rtl ? advances.slice(spaces) : advances.slice(0, -spaces);
    const own = (rtl ? glyphs.slice(0, spaces) : glyphs.slice(-spaces)).map((glyph) => glyph.codePoints);
    const mapped = wordMapping(word.slice(0, -spaces), core, coreAdvances, rtl);
    return rtl ? [...own, ...mapped] : [...mapped, ...own];
  }
  const advancing = glyphs.map((_, i) => (advances[i] ?? 0) > 0);
  const count = advancing.filter(Boolean).length;
  let characters = Array.from(word, (c) => c.codePointAt(0)!);
  if (characters.length < count) characters = Array.from(word.normalize('NFD'), (c) => c.codePointAt(0)!);
  if (characters.length < count || count === 0) return glyphs.map((glyph) => glyph.codePoints);
  if (rtl) characters.reverse();
  let shares = glyphs.filter((_, i) => advancing[i]).map((glyph) => Math.max(1, glyph.codePoints.length));
  if (shares.reduce((a, b) => a + b, 0) !== characters.length) {
    shares = shares.map((_, i) => (i < count - 1 ? 1 : characters.length - count + 1));
  }
  // Boundaries between pieces; a lone nonspacing mark moves its boundary.
  const bounds = [0];
  for (const share of shares) bounds.push(bounds.at(-1)! + share);
  for (let i = 0; i < count; i++) {
    const [from, to] = [bounds[i]!, bounds[i + 1]!];
    if (to - from !== 1 || !isNonspacingMark(characters[from]!)) continue;
    if (i > 0 && from - bounds[i - 1]! > 1) bounds[i] = from - 1;
    else if (i < count - 1 && bounds[i + 2]! - to > 1) bounds[i + 1] = to + 1;
  }
  const pieces = shares.map((_, i) => characters.slice(bounds[i], bounds[i + 1]));
  let next = 0;
  return glyphs.map((_, i) => (advancing[i] ? pieces[next++]! : [WORD_JOINER]));
}
const WORD_JOINER = 0x2060;

const isNonspacingMark = (codePoint: number) => /^\p{Mn}$/u.test(String.fromCodePoint(codePoint));
const isFormatCharacter = (codePoint: number) => /^\p{Cf}$/u.test(String.fromCodePoint(codePoint));

/**
 * What an advancing glyph reads as (`head`: its piece up to the first nonspacing mark) and what the
 * zero-width carrier drawn after it reads as (`tail`: the rest, from that mark on). pdfjs (4.10,
 * `getCharUnicodeCategory`) takes a glyph whose text holds a nonspacing mark anywhere for a
 * zero-width diacritic and does not advance past it, so the next absolute position (a glyph drawn
 * at a GPOS offset, the next run) looked like a word gap: 'পুরুত্ব ।', 'অর্ পিতা', 'ದಪ್ಪ .'. On the
 * carrier, which does not advance, that reading is right, and its text joins the word.
 */
function headAndTail(piece: number[]): [number[], number[]] {
  const firstMark = piece.findIndex(isNonspacingMark);
  // None, or the piece starts with one: nothing for the glyph to read as (readsBackBadly).
  if (firstMark <= 0) return [piece, []];
  return [piece.slice(0, firstMark), piece.slice(firstMark)];
}

/**
 * Whether an advancing glyph's piece reads back wrong even cut by headAndTail: it starts with a
 * nonspacing mark (the glyph reads as zero width), or it ends with a format character (a joiner):
 * pdfjs skips a glyph whose text ends with one, text and advance both.
 */
function readsBackBadly(piece: number[]): boolean {
  return piece.length > 0 && (isNonspacingMark(piece[0]!) || isFormatCharacter(piece.at(-1)!));
}

/**
 * What each glyph of a word (left to right) reads back as, and how far it advances, so that no
 * advancing glyph reads back badly (readsBackBadly): each advancing glyph takes one or more whole
 * units, a unit being a letter with the nonspacing marks after it and the joiners before it; a
 * glyph that does not advance reads as WORD JOINER. With more units than advancing glyphs the
 * first units join; with fewer (a spacing vowel sign drawn as a glyph of its own, Malayalam 'മുഴ'),
 * such a glyph, its code points all marks, gives its advance to the glyph before it and is drawn
 * back where it was. Reading order is the word's; which glyph holds which letter is approximate,
 * as in wordMapping. Null when the word cannot be cut so (it starts with a mark or ends with a
 * joiner, or no glyph can give way).
 */
function markSafeReading(
  word: string,
  glyphs: TGlyph[],
  positions: TPosition[],
): { mapping: number[][]; advances: number[] } | null {
  const spaces = /\s*$/u.exec(word)![0].length;
  if (spaces >= glyphs.length) return null;
  const coreLength = glyphs.length - spaces;
  const core = word.slice(0, word.length - spaces);
  for (const form of [core, core.normalize('NFD')]) {
    const characters = Array.from(form, (c) => c.codePointAt(0)!);
    if (characters.length === 0 || isNonspacingMark(characters[0]!)) continue;
    const units: number[][] = [];
    let joiners: number[] = [];
    for (const c of characters) {
      if (isFormatCharacter(c)) joiners.push(c);
      else if (isNonspacingMark(c) && joiners.length === 0) units.at(-1)!.push(c);
      else {
        units.push([...joiners, c]);
        joiners = [];
      }
    }
    if (joiners.length > 0) continue;
    const advances = positions.map((p) => p.xAdvance);
    const advancing = () => advances.slice(0, coreLength).filter((a) => a > 0).length;
    for (let i = coreLength - 1; i > 0 && advancing() > units.length; i--) {
      const before = positions[i - 1]!;
      const marksOnly = glyphs[i]!.codePoints.length > 0 && glyphs[i]!.codePoints.every(isNonspacingMark);
      if (!marksOnly || advances[i]! <= 0 || advances[i - 1]! <= 0 || before.xOffset || before.yOffset)
        continue;
      advances[i - 1]! += advances[i]!;
      advances[i] = 0;
    }
    const count = advancing();
    if (count === 0 || count > units.length) continue;
    const pieces = units.slice(units.length - count + 1);
    pieces.unshift(units.slice(0, units.length - count + 1).flat());
    let next = 0;
    const mapping = glyphs.map((glyph, i) =>
      i >= coreLength ? glyph.codePoints : advances[i]! > 0 ? pieces[next++]! : [WORD_JOINER],
    );
    return { mapping, advances };
  }
  return null;
}

/**
 * A glyph that draws nothing, for the carrier: the font's zero-width joiner when it does not
 * advance, else its space (drawn with a width of 0, glyphFor).
 */
function markCarrier(font: TEmbeddedFont): TGlyph | null {
  if (font.markCarrier !== undefined) return font.markCarrier;
  const blank = (codePoint: number) => {
    const glyph = font.font.hasGlyphForCodePoint(codePoint) ? font.font.glyphForCodePoint(codePoint) : null;
    return glyph && glyph.path.commands.length === 0 ? glyph : null;
  };
  const joiner = blank(0x200d);
  font.markCarrier = joiner && joiner.advanceWidth === 0 ? joiner : blank(0x20);
  return font.markCarrier;
}

function sameNumbers(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

/**
 * The subset glyph id that draws `glyph` with `width` (its advance) and reads back as `codePoints`.
 * The ToUnicode map and the widths are one entry per glyph id, so a glyph that must read back or
 * advance differently here than elsewhere is added to the subset again (the same outline under a
 * second id).
 */
function glyphFor(
  font: TEmbeddedFont,
  glyph: TGlyph,
  codePoints: number[],
  width: number = glyph.advanceWidth * font.scale,
): number {
  const gid = font.subset.includeGlyph(glyph.id);
  if (font.widths[gid] == null) font.widths[gid] = glyph.advanceWidth * font.scale;
  // Every id of the subset needs its text (pdfkit writes the ToUnicode map from them all).
  font.unicode[gid] ??= codePoints;
  if (sameNumbers(font.unicode[gid], codePoints) && font.widths[gid] === width) return gid;
  font.extraGlyphs ??= new Map();
  const key = `${glyph.id}:${codePoints.join(',')}:${width}`;
  let extra = font.extraGlyphs.get(key);
  if (extra === undefined) {
    font.subset.glyphs.push(glyph.id);
    extra = font.subset.glyphs.length - 1;
    font.widths[extra] = width;
    font.unicode[extra] = codePoints;
    font.extraGlyphs.set(key, extra);
  }
  return extra;
}

/**
 * 4. Word shapes shared by every document. pdfkit keeps a word's shape (fontkit layout: glyphs and
 * positions, scaled to 1000 units) per document, so every report shaped "the", "Patient name" and
 * "Page 1 of 2" anew: a third of a Latin report's layout time. The shape depends only on the font
 * (parsed once per process, document-fonts.ts) and the text, and nothing writes into it (pdfkit
 * copies a position it changes for word spacing), so one kept for the process serves every
 * document. Bounded by glyphs, the least recently used word out first.
 */
const SHARED_SHAPE_GLYPHS = 200_000;
function installSharedWordShapes(proto: TEmbeddedFont): void {
  const fontIds = new WeakMap<object, number>();
  let fonts = 0;
  const shapes = new Map<string, TGlyphRun>();
  let glyphs = 0;
  proto.layoutCached = function (this: TEmbeddedFont, text: string) {
    if (!this.layoutCache) return this.layoutRun(text);
    let id = fontIds.get(this.font);
    if (id === undefined) {
      id = fonts++;
      fontIds.set(this.font, id);
    }
    const key = `${id}\u0000${text}`;
    const hit = shapes.get(key);
    if (hit) {
      shapes.delete(key);
      shapes.set(key, hit);
      return hit;
    }
    const run = this.layoutRun(text);
    shapes.set(key, run);
    glyphs += run.glyphs.length;
    for (const [oldKey, old] of shapes) {
      if (glyphs <= SHARED_SHAPE_GLYPHS) break;
      shapes.delete(oldKey);
      glyphs -= old.glyphs.length;
    }
    return run;
  };
}
