import type * as fontEditorModule from 'fonteditor-core';
import { onFirstUse } from '../../on-first-use.js';
import { type TGlyphOutline, glyphOutlinesOf } from './document-fonts.js';

const fontEditor = onFirstUse<typeof fontEditorModule>('fonteditor-core');

/*
 * The CJK faces are CFF-flavoured OpenType ('OTTO'); Word for Windows embeds and reliably loads
 * TrueType outlines only (LibreOffice reads either). A CJK subset for a Word file is rewritten with
 * TrueType outlines (issue 21 §1). fonteditor-core reads the tables and writes the TrueType file,
 * but its own CFF reading draws most glyphs of the CID-keyed KR/SC/TC faces wrong (8-11 of 12
 * glyph boxes off): the outlines are fontkit's (the parser the PDFs embed these faces with),
 * each cubic curve made two quadratic ones.
 */

type TPoint = { x: number; y: number; onCurve: boolean };
type TXY = { x: number; y: number };

const mid = (a: TXY, b: TXY): TXY => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/**
 * TrueType contours of a glyph's path: integer points, quadratic curves. A cubic is split at its
 * middle, and each half is the quadratic through its ends whose control point is the mean of the
 * two the cubic's control points imply (3(c1 + c2) - (p0 + p3)) / 4: within a font unit for the
 * strokes of a CJK glyph (the boxes match the CFF glyphs').
 */
export function trueTypeContours(commands: TGlyphOutline['path']['commands']): TPoint[][] {
  const contours: TPoint[][] = [];
  let contour: TPoint[] = [];
  let last: TXY = { x: 0, y: 0 };
  const on = (p: TXY) => {
    contour.push({ x: Math.round(p.x), y: Math.round(p.y), onCurve: true });
    last = p;
  };
  const off = (p: TXY) => contour.push({ x: Math.round(p.x), y: Math.round(p.y), onCurve: false });
  const close = () => {
    const [first, end] = [contour[0], contour.at(-1)];
    if (first && end && contour.length > 1 && end.onCurve && end.x === first.x && end.y === first.y)
      contour.pop();
    if (contour.length > 1) contours.push(contour);
    contour = [];
  };
  for (const { command, args: a } of commands) {
    if (command === 'moveTo') {
      close();
      on({ x: a[0]!, y: a[1]! });
    } else if (command === 'lineTo') on({ x: a[0]!, y: a[1]! });
    else if (command === 'quadraticCurveTo') {
      off({ x: a[0]!, y: a[1]! });
      on({ x: a[2]!, y: a[3]! });
    } else if (command === 'bezierCurveTo') {
      const [p0, c1, c2, p3] = [last, { x: a[0]!, y: a[1]! }, { x: a[2]!, y: a[3]! }, { x: a[4]!, y: a[5]! }];
      const [q1, q2, q3] = [mid(p0, c1), mid(c1, c2), mid(c2, p3)];
      const [r1, r2] = [mid(q1, q2), mid(q2, q3)];
      const middle = mid(r1, r2);
      for (const [s0, s1, s2, s3] of [
        [p0, q1, r1, middle],
        [middle, r2, q3, p3],
      ] as const) {
        off({ x: (3 * (s1.x + s2.x) - (s0.x + s3.x)) / 4, y: (3 * (s1.y + s2.y) - (s0.y + s3.y)) / 4 });
        on(s3);
      }
    } else if (command === 'closePath') close();
  }
  close();
  return contours;
}

interface TEditorGlyph {
  contours?: TPoint[][];
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
  leftSideBearing: number;
  advanceWidth: number;
}

/** The font with TrueType outlines: a CFF-flavoured one rewritten, any other as it is. */
export function trueTypeOutlines(font: Uint8Array): Uint8Array {
  if (String.fromCharCode(...font.subarray(0, 4)) !== 'OTTO') return font;
  const outlineOf = glyphOutlinesOf(font);
  const buffer = Buffer.from(font.buffer, font.byteOffset, font.byteLength);
  const editor = fontEditor().Font.create(buffer, { type: 'otf' });
  const glyphs = (editor.get() as unknown as { glyf: TEditorGlyph[] }).glyf;
  glyphs.forEach((glyph, id) => {
    const outline = outlineOf(id);
    glyph.contours = trueTypeContours(outline.path.commands);
    const box = glyph.contours.length > 0 ? outline.bbox : { minX: 0, minY: 0, maxX: 0, maxY: 0 };
    glyph.xMin = Math.floor(box.minX);
    glyph.yMin = Math.floor(box.minY);
    glyph.xMax = Math.ceil(box.maxX);
    glyph.yMax = Math.ceil(box.maxY);
    glyph.leftSideBearing = glyph.xMin;
    glyph.advanceWidth = outline.advanceWidth;
  });
  return new Uint8Array(editor.write({ type: 'ttf', toBuffer: true }) as Buffer);
}
