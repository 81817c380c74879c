import type JSZipModule from 'jszip';
import { ROBOTO_ONLY, firstStrongIsRtl, wordFontsOf } from './document-fonts.js';
import { documentWindow } from './document-images.js';
import { embedWordFonts } from './word-fonts.js';
import { type TXmlElement, isUnexpected, readLightXml, writeLightXml } from './word-xml.js';
import {
  PRELIMINARY_TEXT,
  documentMetadataText,
  QR_CAPTION,
  type TDocumentParts,
  regularTables,
  sectionTitle,
} from './document-parts.js';
import { onFirstUse } from '../../on-first-use.js';

const jsZip = onFirstUse<typeof JSZipModule>('jszip');

/*
 * The report as a Word file: one HTML document of the same parts as the PDF, turned into docx by
 * @turbodocx/html-to-docx. Every image src is a data URL already (document-images.ts), so the
 * converter never downloads anything. The converter knows one font per run (w:ascii/w:hAnsi) and
 * one direction per document: `markScripts` adds what Word needs for other scripts afterwards.
 */

/**
 * Characters XML 1.0 cannot hold (C0 controls, lone surrogates, U+FFFE/FFFF): a docx carrying one
 * is refused by Word, and the converter's XML parser fails on some. Names and report text may hold
 * them (a DICOM header, a pasted text); they print as nothing anyway.
 */
const NOT_XML = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;
const xmlText = (s: string) => s.replace(NOT_XML, '');
/** The same characters written as references (`&#1;`), which the converter decodes. */
const NOT_XML_REFERENCE = /&#(x[0-9a-f]+|\d+);?/gi;
function withoutNonXmlReferences(html: string): string {
  return html.replace(NOT_XML_REFERENCE, (reference, code: string) => {
    const point = code[0] === 'x' || code[0] === 'X' ? parseInt(code.slice(1), 16) : Number(code);
    const char = point <= 0x10ffff ? String.fromCodePoint(point) : '';
    return char !== '' && xmlText(char) === char ? reference : '';
  });
}

/** Report HTML (already sanitized) as the converter can take it. */
const reportHtml = (html: string) => withoutNonXmlReferences(xmlText(regularTables(html)));

/**
 * A metadata field as the converter (1.23) can carry it. It puts the field into docProps/core.xml
 * as it is and parses that with an XML parser that keeps text as written (`&lt;` stays four
 * characters and is written out as `&amp;lt;`): a `<` broke the file and markup in a report name
 * became fields of its own. Text without `<` goes through as it is (`&`, `>` and `]]>` come out
 * escaped); text with one goes as a CDATA section, which cannot hold `]]>`: a name with both keeps
 * its `<` as a full-width '＜' and goes as it is.
 */
export function docxMetadataField(text: string): string {
  const s = docxMetadataText(text);
  return s.includes('<') ? `<![CDATA[${s}]]>` : s;
}

/** What the metadata then says: the text itself, less what XML cannot hold (see above). */
export function docxMetadataText(text: string): string {
  // Trimmed: the converter pretty-prints core.xml, which drops a field of spaces alone.
  const s = xmlText(documentMetadataText(text)).trim();
  return s.includes('<') && s.includes(']]>') ? s.replaceAll('<', '\uff1c') : s;
}

const escapeHtml = (s: string) =>
  xmlText(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const CM_TO_TWIP = 1440 / 2.54;
/** A4 in twips, minus nothing: the converter takes the page size and margins separately. */
const A4_TWIPS = { width: 11906, height: 16838 };
const CELL = 'border:1px solid #999999;padding:4px;';
/** The footer's first paragraph: the converter's page number field lands at its end. */
export const PAGE_NUMBER_PARAGRAPH = '<p style="text-align:right;font-size:8pt;">Page&nbsp;</p>';
const LABEL = `${CELL}background-color:#eeeeee;font-weight:bold;`;

function patientTableHtml(rows: Array<[string, string]>): string {
  const lines: string[] = [];
  for (let i = 0; i < rows.length; i += 2) {
    const cells = [rows[i], rows[i + 1]]
      .map((pair) =>
        pair
          ? `<td style="${LABEL}">${escapeHtml(pair[0])}</td><td style="${CELL}">${escapeHtml(pair[1])}</td>`
          : `<td style="${CELL}"></td><td style="${CELL}"></td>`,
      )
      .join('');
    lines.push(`<tr>${cells}</tr>`);
  }
  return `<table style="width:100%;border-collapse:collapse;">${lines.join('')}</table>`;
}

function signatureHtml(section: TDocumentParts['sections'][number]): string {
  const { signature } = section;
  if (!signature) return '';
  const image = signature.imageDataUrl ? `<p><img src="${signature.imageDataUrl}" width="160" /></p>` : '';
  return `${image}<p><strong>${escapeHtml(signature.name)}</strong></p><p style="font-size:8pt;">${escapeHtml(
    signature.signedOffLine,
  )}</p>`;
}

/** The one HTML of the Word document (exported for tests). */
export function wordHtml(parts: TDocumentParts): string {
  const html: string[] = [reportHtml(parts.reportTextHeader)];
  if (parts.isPreliminary) {
    html.push(
      `<p style="text-align:center;color:#b00020;font-weight:bold;">${escapeHtml(PRELIMINARY_TEXT)}</p>`,
    );
  }
  html.push(patientTableHtml(parts.patientRows));
  for (const section of parts.sections) {
    const title = sectionTitle(section);
    html.push(
      `<h3 style="text-align:center;">${escapeHtml(title)}</h3>`,
      reportHtml(section.html),
      signatureHtml(section),
    );
  }
  if (parts.keyImages.length > 0) {
    html.push(
      '<h3>Key images</h3>',
      ...parts.keyImages.map((src) => `<p><img src="${src}" width="300" /></p>`),
    );
  }
  html.push(reportHtml(parts.reportTextFooter));
  if (parts.disclaimer)
    html.push(`<div style="font-size:7pt;color:#555555;">${reportHtml(parts.disclaimer)}</div>`);
  if (parts.qr) {
    html.push(
      `<p><img src="${parts.qr.dataUrl}" width="90" height="90" /></p>`,
      `<p style="font-size:8pt;">${escapeHtml(QR_CAPTION)}</p>`,
      `<p style="font-size:6pt;">${escapeHtml(parts.qr.url)}</p>`,
    );
  }
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(parts.title)}</title></head><body>${html.join('')}</body></html>`;
}

export async function renderWord(parts: TDocumentParts): Promise<Uint8Array> {
  const m = parts.marginsCm;
  const header = parts.headerImage
    ? `<p style="text-align:center;"><img src="${parts.headerImage}" width="600" /></p>`
    : null;
  // The converter (1.23) appends one PAGE field to the footer's first paragraph and offers no total
  // (NUMPAGES): this paragraph makes it read "Page n", worded and placed like the PDF's "Page n of m".
  const footer =
    PAGE_NUMBER_PARAGRAPH +
    (parts.footerImage
      ? `<p style="text-align:center;"><img src="${parts.footerImage}" width="600" /></p>`
      : '');
  // Loaded on the first Word file (about half a second to load), not at every server start.
  const { default: HTMLtoDOCX } = await import('@turbodocx/html-to-docx');
  const result = await HTMLtoDOCX(
    wordHtml(parts),
    header,
    {
      title: docxMetadataField(parts.title),
      creator: docxMetadataField(parts.productName),
      pageSize: A4_TWIPS,
      margins: {
        top: Math.round(m.top * CM_TO_TWIP),
        bottom: Math.round(m.bottom * CM_TO_TWIP),
        left: Math.round(m.left * CM_TO_TWIP),
        right: Math.round(m.right * CM_TO_TWIP),
      },
      header: header !== null,
      footer: true,
      pageNumber: true,
      font: 'Arial',
      fontSize: 20,
      table: { row: { cantSplit: true } },
    },
    footer,
  );
  let bytes: Uint8Array;
  if (result instanceof ArrayBuffer) bytes = new Uint8Array(result);
  else if (Buffer.isBuffer(result))
    bytes = new Uint8Array(result.buffer, result.byteOffset, result.byteLength);
  else bytes = new Uint8Array(await result.arrayBuffer());
  // A report all in Latin, Greek or Cyrillic (the usual one) needs nothing more.
  const text = [parts.title, ...parts.patientRows.flat(), ...parts.sections.flatMap((s) => [s.html, s.title])]
    .concat(
      parts.sections.map((s) => s.signature?.name ?? ''),
      parts.reportTextHeader,
      parts.reportTextFooter,
    )
    .concat(parts.disclaimer);
  if (text.every((t) => ROBOTO_ONLY.test(t))) return bytes;
  const zip = await jsZip().loadAsync(bytes);
  const documentXml = zip.file('word/document.xml');
  if (!documentXml) return bytes;
  const textByFace = new Map<string, string>();
  const boldTextByFace = new Map<string, string>();
  zip.file('word/document.xml', markScripts(await documentXml.async('string'), textByFace, boldTextByFace));
  await embedWordFonts(zip, textByFace, boldTextByFace);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** Child order of w:rPr and w:pPr (ECMA-376 §17.3.2.28, §17.3.1.26): Word refuses a file out of order. */
const RPR_ORDER = [
  'rStyle',
  'rFonts',
  'b',
  'bCs',
  'i',
  'iCs',
  'caps',
  'smallCaps',
  'strike',
  'dstrike',
  'outline',
  'shadow',
  'emboss',
  'imprint',
  'noProof',
  'snapToGrid',
  'vanish',
  'webHidden',
  'color',
  'spacing',
  'w',
  'kern',
  'position',
  'sz',
  'szCs',
  'highlight',
  'u',
  'effect',
  'bdr',
  'shd',
  'fitText',
  'vertAlign',
  'rtl',
  'cs',
  'em',
  'lang',
  'eastAsianLayout',
  'specVanish',
  'oMath',
];
const PPR_ORDER = [
  'pStyle',
  'keepNext',
  'keepLines',
  'pageBreakBefore',
  'framePr',
  'widowControl',
  'numPr',
  'suppressLineNumbers',
  'pBdr',
  'shd',
  'tabs',
  'suppressAutoHyphens',
  'kinsoku',
  'wordWrap',
  'overflowPunct',
  'topLinePunct',
  'autoSpaceDE',
  'autoSpaceDN',
  'bidi',
  'adjustRightInd',
  'snapToGrid',
  'spacing',
  'ind',
  'contextualSpacing',
  'mirrorIndents',
  'suppressOverlap',
  'jc',
  'textDirection',
  'textAlignment',
  'textboxTightWrap',
  'outlineLvl',
  'divId',
  'cnfStyle',
  'rPr',
  'sectPr',
  'pPrChange',
];

/**
 * `parent`'s child elements, in order: the same as `Array.from(parent.children)`, without jsdom's
 * live HTMLCollection (its proxy looks every index up as a name too, which cost more than the rest
 * of the pass on a long report).
 */
function childElements(parent: TXmlElement): TXmlElement[] {
  const children: TXmlElement[] = [];
  for (let child = parent.firstElementChild; child; child = child.nextElementSibling) children.push(child);
  return children;
}

/** `parent`'s child w:`name`, made and put in its place in `order` when missing. */
function childInOrder(parent: TXmlElement, name: string, order: string[]): TXmlElement {
  const children = childElements(parent);
  const existing = children.find((c) => c.localName === name);
  if (existing) return existing;
  const made = parent.ownerDocument.createElementNS(parent.namespaceURI, `w:${name}`);
  const rank = order.indexOf(name);
  const after = children.find((c) => order.indexOf(c.localName) > rank);
  parent.insertBefore(made, after ?? null);
  return made;
}

/** An on/off property (CT_OnOff, ECMA-376 Part 1 §17.17.4): present and not 0, false or off. */
function isOn(element: TXmlElement | undefined): boolean {
  if (!element) return false;
  const value = element.getAttribute('w:val');
  return value === null || !['0', 'false', 'off'].includes(value);
}

/** The element's first child w:`name` (w:rPr of a run, w:pPr of a paragraph), made first if missing. */
function firstChild(parent: TXmlElement, name: string): TXmlElement {
  const existing = childElements(parent).find((c) => c.localName === name);
  if (existing) return existing;
  const made = parent.ownerDocument.createElementNS(parent.namespaceURI, `w:${name}`);
  parent.insertBefore(made, parent.firstElementChild);
  return made;
}

/** The w:p an element is in (CSS selectors cannot name a prefixed XML element). */
export function paragraphOf(element: Element): Element | null {
  let at = element.parentElement;
  while (at && at.tagName !== 'w:p') at = at.parentElement;
  return at;
}

/**
 * Every w:p under `root` in document order, with its runs (the w:r whose nearest w:p is it, in
 * document order) and each run's text (its w:t descendants' text, joined), read in one walk of the
 * tree: what asking each paragraph and run for its w:r and w:t elements (`getElementsByTagName`,
 * `paragraphOf`) gives, without walking a paragraph's subtree once per paragraph and run.
 */
function paragraphRuns(
  root: TXmlElement | null,
): Array<{ paragraph: TXmlElement; runs: TXmlElement[]; texts: string[] }> {
  type TParagraph = { paragraph: TXmlElement; runs: TXmlElement[]; texts: string[] };
  const paragraphs: TParagraph[] = [];
  /** The open w:p elements and, per run open, its paragraph's entry and index there. */
  const openParagraphs: TParagraph[] = [];
  const openRuns: Array<{ of: TParagraph; index: number }> = [];
  const visit = (element: TXmlElement) => {
    const name = element.tagName;
    if (name === 'w:t') {
      const text = element.textContent ?? '';
      for (const { of, index } of openRuns) of.texts[index] += text;
    }
    let paragraph: TParagraph | null = null;
    let run = false;
    if (name === 'w:p') {
      paragraph = { paragraph: element, runs: [], texts: [] };
      paragraphs.push(paragraph);
      openParagraphs.push(paragraph);
    } else if (name === 'w:r') {
      const of = openParagraphs.at(-1);
      if (of) {
        of.runs.push(element);
        of.texts.push('');
        openRuns.push({ of, index: of.runs.length - 1 });
        run = true;
      }
    }
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) visit(child);
    if (paragraph) openParagraphs.pop();
    if (run) openRuns.pop();
  };
  if (root) visit(root);
  return paragraphs;
}

/**
 * word/document.xml with what Word needs for scripts other than Latin, Greek and Cyrillic: every
 * run names its East Asian and complex-script faces (w:rFonts w:eastAsia / w:cs) and is marked
 * right to left (w:rtl) when it holds a right-to-left letter; a paragraph whose first strong letter
 * is right to left is a right-to-left paragraph (w:bidi). The text itself stays in logical order,
 * as Word stores it. A bold run in a complex script is bold by w:bCs (Word ignores w:b there).
 * `textByFace` gathers, per face named, the text of its runs, and `boldTextByFace` of its bold
 * runs (what to embed of the regular and the bold face).
 */
export function markScripts(
  xml: string,
  textByFace?: Map<string, string>,
  boldTextByFace?: Map<string, string>,
): string {
  const light = readLightXml(xml);
  if (light) {
    // Gathered apart, so that a part found unexpected halfway leaves the maps as they were.
    const [faces, boldFaces] = [new Map<string, string>(), new Map<string, string>()];
    try {
      markParagraphs(light.root, faces, boldFaces);
      const marked = writeLightXml(light.declaration, light.root);
      for (const [into, from] of [
        [textByFace, faces],
        [boldTextByFace, boldFaces],
      ] as const)
        for (const [face, text] of from) into?.set(face, (into.get(face) ?? '') + text);
      return marked;
    } catch (error) {
      if (!isUnexpected(error)) throw error;
    }
  }
  const window = documentWindow();
  const doc = new window.DOMParser().parseFromString(xml, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) return xml;
  markParagraphs(doc.documentElement as unknown as TXmlElement, textByFace, boldTextByFace);
  // The serializer drops the XML declaration; Word's own files carry it.
  const declaration = /^<\?xml[^>]*\?>\s*/u.exec(xml)?.[0] ?? '';
  return declaration + new window.XMLSerializer().serializeToString(doc);
}

/** markScripts on a tree (jsdom's or word-xml.ts's). */
function markParagraphs(
  root: TXmlElement | null,
  textByFace?: Map<string, string>,
  boldTextByFace?: Map<string, string>,
): void {
  for (const { paragraph, runs, texts } of paragraphRuns(root)) {
    const context = texts.join('');
    if (ROBOTO_ONLY.test(context)) continue;
    if (firstStrongIsRtl(context)) childInOrder(firstChild(paragraph, 'pPr'), 'bidi', PPR_ORDER);
    runs.forEach((run, i) => {
      const fonts = wordFontsOf(texts[i]!, context);
      if (!fonts.eastAsia && !fonts.cs && !fonts.rtl) return;
      const properties = firstChild(run, 'rPr');
      const bold = isOn(childElements(properties).find((c) => c.localName === 'b'));
      for (const face of [fonts.eastAsia, fonts.cs]) {
        if (!face) continue;
        textByFace?.set(face, (textByFace.get(face) ?? '') + texts[i]!);
        if (bold) boldTextByFace?.set(face, (boldTextByFace.get(face) ?? '') + texts[i]!);
      }
      if (bold && fonts.cs) childInOrder(properties, 'bCs', RPR_ORDER);
      if (fonts.eastAsia || fonts.cs) {
        const rFonts = childInOrder(properties, 'rFonts', RPR_ORDER);
        if (fonts.eastAsia) {
          rFonts.setAttributeNS(rFonts.namespaceURI, 'w:eastAsia', fonts.eastAsia);
          rFonts.setAttributeNS(rFonts.namespaceURI, 'w:hint', 'eastAsia');
        }
        if (fonts.cs) rFonts.setAttributeNS(rFonts.namespaceURI, 'w:cs', fonts.cs);
      }
      if (fonts.rtl) childInOrder(properties, 'rtl', RPR_ORDER);
    });
  }
}
