import { randomUUID } from 'node:crypto';
import type JSZip from 'jszip';
import type subsetFontModule from 'subset-font';
import { onFirstUse } from '../../on-first-use.js';
import { wordFaceFile } from './document-fonts.js';
import { trueTypeOutlines } from './truetype-outlines.js';

const subsetFont = onFirstUse<typeof subsetFontModule>('subset-font');

/*
 * The Noto faces a Word file names, embedded in it (issue 21 §1): a PC without Noto showed boxes
 * for CJK, Indic, Hebrew and Arabic names. OOXML embedding (ECMA-376 Part 1 §17.8.1, §17.8.3.3
 * and §17.15.1.44): each face a part word/fonts/fontN.odttf, obfuscated with its w:fontKey, named
 * by w:embedRegular in fontTable.xml, and settings.xml saying w:embedTrueTypeFonts and
 * w:saveSubsetFonts. Each face is a subset holding the characters the document writes in it, with
 * the glyphs its shaping reaches (HarfBuzz hb-subset, `subset-font`: conjuncts, Arabic joining
 * forms), so a Japanese name adds kilobytes, not the 4 MB face; with TrueType outlines
 * (truetype-outlines.ts).
 */

const FONT_RELATIONSHIP = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/font';
const OBFUSCATED_FONT = 'application/vnd.openxmlformats-officedocument.obfuscatedFont';

/**
 * A font part's bytes XORed with its key (ECMA-376 Part 1 §17.8.1): the first 32 bytes, with the
 * GUID's 16 bytes taken from the last hex pair of its text to the first. The same call undoes it.
 */
export function obfuscateFont(font: Uint8Array, fontKey: string): Uint8Array {
  const hex = fontKey.replace(/[{}-]/gu, '');
  if (!/^[0-9a-fA-F]{32}$/u.test(hex)) throw new Error(`not a font key: ${fontKey}`);
  const key = Array.from({ length: 16 }, (_, i) => Number.parseInt(hex.slice(30 - 2 * i, 32 - 2 * i), 16));
  const out = new Uint8Array(font);
  for (let i = 0; i < Math.min(32, out.length); i++) out[i]! ^= key[i % 16]!;
  return out;
}

/**
 * Embeds in a converted docx a subset of each face in `textByFace` (Word's font name → the text
 * the document writes in it), and of its bold face for the text of `boldTextByFace` (without it
 * Word makes bold by smearing the regular one). Faces without a file of ours are left to Word.
 */
export async function embedWordFonts(
  zip: JSZip,
  textByFace: Map<string, string>,
  boldTextByFace: Map<string, string> = new Map(),
): Promise<void> {
  const fontTable = zip.file('word/fontTable.xml');
  const settings = zip.file('word/settings.xml');
  const types = zip.file('[Content_Types].xml');
  if (!fontTable || !settings || !types || textByFace.size === 0) return;
  /** Each font part, in order (fontN.odttf, rIdFontN). */
  const parts: Array<{ id: string; key: string }> = [];
  const embedPart = async (file: Uint8Array, text: string) => {
    // The whole text of the runs: the face's own characters plus the spaces and digits between.
    const subset = trueTypeOutlines(
      await subsetFont()(Buffer.from(file), [...new Set(text)].join(''), { targetFormat: 'sfnt' }),
    );
    const key = `{${randomUUID().toUpperCase()}}`;
    const index = parts.length + 1;
    zip.file(`word/fonts/font${index}.odttf`, obfuscateFont(subset, key));
    const part = { id: `rIdFont${index}`, key };
    parts.push(part);
    return part;
  };
  const faces: Array<{
    name: string;
    regular: { id: string; key: string };
    bold?: { id: string; key: string };
  }> = [];
  for (const [name, text] of textByFace) {
    const file = wordFaceFile(name);
    if (!file) continue;
    const regular = await embedPart(file, text);
    const boldText = boldTextByFace.get(name);
    const boldFile = boldText ? wordFaceFile(name, 'bold') : null;
    faces.push({
      name,
      regular,
      ...(boldText && boldFile ? { bold: await embedPart(boldFile, boldText) } : {}),
    });
  }
  if (faces.length === 0) return;
  let table = await fontTable.async('string');
  // CT_Font: …, embedRegular, embedBold, embedItalic, embedBoldItalic.
  const entries = faces
    .map(
      ({ name, regular, bold }) =>
        `<w:font w:name="${escapeXml(name)}"><w:charset w:val="00"/><w:family w:val="auto"/>` +
        `<w:pitch w:val="variable"/><w:embedRegular r:id="${regular.id}" w:fontKey="${regular.key}" w:subsetted="1"/>` +
        (bold ? `<w:embedBold r:id="${bold.id}" w:fontKey="${bold.key}" w:subsetted="1"/>` : '') +
        '</w:font>',
    )
    .join('');
  table = table.replace(/<\/w:fonts>\s*$/u, `${entries}</w:fonts>`);
  if (!/xmlns:r=/u.test(table))
    table = table.replace(
      '<w:fonts ',
      '<w:fonts xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ',
    );
  zip.file('word/fontTable.xml', table);
  zip.file(
    'word/_rels/fontTable.xml.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      parts
        .map(
          ({ id }, i) =>
            `<Relationship Id="${id}" Type="${FONT_RELATIONSHIP}" Target="fonts/font${i + 1}.odttf"/>`,
        )
        .join('') +
      '</Relationships>',
  );
  let typesXml = await types.async('string');
  if (!typesXml.includes('Extension="odttf"'))
    typesXml = typesXml
      .replace('<Types ', '<Types ')
      .replace(/(<Types[^>]*>)/u, `$1<Default Extension="odttf" ContentType="${OBFUSCATED_FONT}"/>`);
  zip.file('[Content_Types].xml', typesXml);
  zip.file('word/settings.xml', withEmbedSettings(await settings.async('string')));
}

/**
 * w:embedTrueTypeFonts and w:saveSubsetFonts in their place (CT_Settings: after writeProtection,
 * view, zoom and the other elements before them, which the converter writes only w:zoom of).
 */
function withEmbedSettings(xml: string): string {
  if (xml.includes('w:embedTrueTypeFonts')) return xml;
  const flags = '<w:embedTrueTypeFonts/><w:saveSubsetFonts/>';
  const before =
    /<w:(?:writeProtection|view|zoom|removePersonalInformation|removeDateAndTime|doNotDisplayPageBoundaries|displayBackgroundShape|printPostScriptOverText|printFractionalCharacterWidth|printFormsData)\b[^>]*?(?:\/>|>[\s\S]*?<\/w:\w+>)/gu;
  let end = -1;
  for (const match of xml.matchAll(before)) end = match.index + match[0].length;
  if (end < 0)
    end =
      (/<w:settings\b[^>]*>/u.exec(xml)?.index ?? -1) + (/<w:settings\b[^>]*>/u.exec(xml)?.[0].length ?? 0);
  return xml.slice(0, end) + flags + xml.slice(end);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/gu, (c) => `&#${c.charCodeAt(0)};`);
}
