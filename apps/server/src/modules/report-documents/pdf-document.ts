import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { documentWindow } from './document-images.js';
import {
  PRELIMINARY_TEXT,
  documentMetadataText,
  QR_CAPTION,
  type TDocumentParts,
  regularTables,
  sectionTitle,
} from './document-parts.js';
import { ROBOTO_REGULAR, fontRegistry } from './document-fonts.js';
import { installScriptShaping } from './pdf-shaping.js';

/*
 * The report as a PDF (pdfmake 0.3): A4, the layout's margins, the letterhead images in the margins
 * of every page, page numbers. Report HTML becomes pdfmake content through html-to-pdfmake on the
 * shared jsdom window. pdfmake may neither fetch a URL nor read a file: fonts live in its virtual
 * file system, images are data URLs. Every script prints: document-fonts.ts, pdf-shaping.ts.
 */

const require = createRequire(import.meta.url);

interface TPdfMake {
  virtualfs: { writeFileSync(name: string, content: Buffer): void };
  setFonts(fonts: Record<string, Record<string, string>>): void;
  setUrlAccessPolicy(callback: (url: string) => boolean): void;
  setLocalAccessPolicy(callback: (path: string) => boolean): void;
  createPdf(doc: TDocumentDefinitions): { getBuffer(): Promise<Buffer> };
}

type THtmlToPdfmake = (
  html: string,
  options: { window: unknown; imagesByReference: true; ignoreStyles?: string[]; removeExtraBlanks?: boolean },
) => { content: Content; images: Record<string, string> };

let pdfMakeInstance: TPdfMake | null = null;
let htmlToPdfmake: THtmlToPdfmake | null = null;

/**
 * pdfmake, set up once per process: Roboto and the Noto faces of other scripts (document-fonts.ts) named
 * in its virtual file system, parsed once and shared by every document; script runs, bidi order
 * and readable text added to pdfmake and pdfkit (pdf-shaping.ts); every URL and local file refused.
 */
function pdfMake(): TPdfMake {
  if (pdfMakeInstance) return pdfMakeInstance;
  const made = require('pdfmake') as TPdfMake;
  const robotoDir = join(dirname(require.resolve('pdfmake/package.json')), 'build', 'fonts', 'Roboto');
  const { files, families } = fontRegistry(robotoDir);
  for (const [file, marker] of Object.entries(files)) made.virtualfs.writeFileSync(file, marker);
  made.setFonts(families);
  made.setUrlAccessPolicy(() => false);
  made.setLocalAccessPolicy(() => false);
  // pdfkit's font class is not exported: one font opened on a scratch document gives its prototype.
  const PdfKit = require('pdfkit') as new (options: object) => { font(src: Buffer): { _font: object } };
  const scratch = new PdfKit({ autoFirstPage: false });
  scratch.font(files[ROBOTO_REGULAR]!);
  installScriptShaping(Object.getPrototypeOf((scratch as unknown as { _font: object })._font) as object);
  pdfMakeInstance = made;
  return made;
}

/** The document's title as the PDF's Info dictionary carries it (pdfkit writes it in UTF-16). */
export const pdfMetadataText = documentMetadataText;

const CM_TO_PT = 72 / 2.54;
const A4 = { width: 595.28, height: 841.89 };
const KEY_IMAGE_COLUMNS = 2;

/** Report HTML as pdfmake content; its images are added to `images` under fresh names. */
function htmlContent(html: string, images: Record<string, string>, maxImageWidth: number): Content[] {
  if (html.trim() === '') return [];
  htmlToPdfmake ??= require('html-to-pdfmake') as THtmlToPdfmake;
  const converted = htmlToPdfmake(regularTables(html), {
    window: documentWindow(),
    imagesByReference: true,
    // The editor's font families are not embedded: text prints in Roboto and, for the scripts
    // Roboto lacks, in Noto (DECISIONS.md).
    ignoreStyles: ['font-family'],
    removeExtraBlanks: true,
  });
  Object.assign(images, converted.images);
  fitImages(converted.content, maxImageWidth);
  return Array.isArray(converted.content) ? (converted.content as Content[]) : [converted.content];
}

/**
 * The center's report text (header, footer, disclaimer) is the same on every report of the center:
 * its conversion is kept by the HTML (a few per center; the oldest dropped past 64). pdfmake writes
 * layout state into the content it is given, so every document gets a copy.
 */
const letterTextCache = new Map<string, { content: Content[]; images: Record<string, string> }>();
function cachedHtmlContent(html: string, images: Record<string, string>, maxImageWidth: number): Content[] {
  const key = `${maxImageWidth}|${html}`;
  let hit = letterTextCache.get(key);
  if (!hit) {
    const own: Record<string, string> = {};
    hit = { content: htmlContent(html, own, maxImageWidth), images: own };
    if (letterTextCache.size >= 64) letterTextCache.delete(letterTextCache.keys().next().value as string);
    letterTextCache.set(key, hit);
  }
  Object.assign(images, hit.images);
  return structuredClone(hit.content);
}

/** An image without a width would print at its pixel size, possibly off the page: fit it to the text width. */
function fitImages(node: unknown, maxWidth: number): void {
  if (Array.isArray(node)) {
    for (const child of node) fitImages(child, maxWidth);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as Record<string, unknown>;
  if (typeof record.image === 'string') {
    const width = typeof record.width === 'number' ? Math.min(record.width, maxWidth) : undefined;
    if (width === undefined) record.fit = [maxWidth, 500];
    else record.width = width;
  }
  for (const key of ['stack', 'text', 'ul', 'ol', 'columns']) fitImages(record[key], maxWidth);
  const table = record.table as { body?: unknown } | undefined;
  if (table?.body) fitImages(table.body, maxWidth);
}

function patientTable(rows: Array<[string, string]>): Content {
  // Two label/value pairs per line, like the letterhead forms centers use.
  const body: Content[][] = [];
  for (let i = 0; i < rows.length; i += 2) {
    const [a, b] = [rows[i], rows[i + 1]];
    body.push([
      { text: a?.[0] ?? '', style: 'label' },
      { text: a?.[1] ?? '' },
      { text: b?.[0] ?? '', style: 'label' },
      { text: b?.[1] ?? '' },
    ]);
  }
  return {
    table: { widths: ['auto', '*', 'auto', '*'], body },
    layout: 'lightHorizontalLines',
    margin: [0, 0, 0, 12],
  };
}

function signatureBlock(
  section: TDocumentParts['sections'][number],
  images: Record<string, string>,
  key: string,
) {
  const { signature } = section;
  if (!signature) return [];
  const stack: Content[] = [];
  if (signature.imageDataUrl) {
    images[key] = signature.imageDataUrl;
    stack.push({ image: key, fit: [160, 60], margin: [0, 4, 0, 2] });
  }
  stack.push({ text: signature.name, bold: true }, { text: signature.signedOffLine, style: 'small' });
  return [{ stack, margin: [0, 12, 0, 0], unbreakable: true } as Content];
}

function keyImageGrid(keyImages: string[], images: Record<string, string>, contentWidth: number): Content[] {
  if (keyImages.length === 0) return [];
  const cell = (contentWidth - 10 * (KEY_IMAGE_COLUMNS - 1)) / KEY_IMAGE_COLUMNS;
  const rows: Content[] = [];
  for (let i = 0; i < keyImages.length; i += KEY_IMAGE_COLUMNS) {
    const columns: Content[] = [];
    for (let j = i; j < i + KEY_IMAGE_COLUMNS; j++) {
      const src = keyImages[j];
      if (src === undefined) {
        columns.push({ text: '', width: cell } as Content);
        continue;
      }
      images[`key_${j}`] = src;
      columns.push({ image: `key_${j}`, fit: [cell, cell], width: cell });
    }
    rows.push({ columns, columnGap: 10, margin: [0, 0, 0, 10], unbreakable: true } as Content);
  }
  return [{ text: 'Key images', style: 'heading', pageBreak: 'before' }, ...rows];
}

/** The pdfmake document of the parts (exported for tests of the layout). */
export function pdfDefinition(parts: TDocumentParts): TDocumentDefinitions {
  const m = parts.marginsCm;
  const margins = {
    left: m.left * CM_TO_PT,
    top: m.top * CM_TO_PT,
    right: m.right * CM_TO_PT,
    bottom: m.bottom * CM_TO_PT,
  };
  const contentWidth = A4.width - margins.left - margins.right;
  const images: Record<string, string> = {};
  if (parts.headerImage) images.letterhead_header = parts.headerImage;
  if (parts.footerImage) images.letterhead_footer = parts.footerImage;

  const content: Content[] = [...cachedHtmlContent(parts.reportTextHeader, images, contentWidth)];
  if (parts.isPreliminary) content.push({ text: PRELIMINARY_TEXT, style: 'preliminary' });
  content.push(patientTable(parts.patientRows));
  parts.sections.forEach((section, index) => {
    content.push({ text: sectionTitle(section), style: 'title' });
    content.push(...htmlContent(section.html, images, contentWidth));
    content.push(...signatureBlock(section, images, `signature_${index}`));
  });
  content.push(...cachedHtmlContent(parts.reportTextFooter, images, contentWidth));
  if (parts.disclaimer) {
    content.push({ stack: cachedHtmlContent(parts.disclaimer, images, contentWidth), style: 'disclaimer' });
  }
  if (parts.qr) {
    images.share_qr = parts.qr.dataUrl;
    content.push({
      stack: [
        { image: 'share_qr', fit: [90, 90] },
        { text: QR_CAPTION, style: 'small' },
        { text: parts.qr.url, style: 'tiny' },
      ],
      margin: [0, 16, 0, 0],
      unbreakable: true,
    });
  }
  content.push(...keyImageGrid(parts.keyImages, images, contentWidth));

  return {
    pageSize: 'A4',
    pageMargins: [margins.left, margins.top, margins.right, margins.bottom],
    info: { title: pdfMetadataText(parts.title), creator: pdfMetadataText(parts.productName) },
    defaultStyle: { font: 'Roboto', fontSize: 10, lineHeight: 1.15 },
    images,
    // The letterhead fills the top and bottom margins of every page; without it they stay blank
    // for paper that already carries one (spec-core §9 "with header").
    header: parts.headerImage
      ? () => ({ image: 'letterhead_header', fit: [A4.width, margins.top], alignment: 'center' })
      : undefined,
    footer: (currentPage: number, pageCount: number) =>
      ({
        stack: [
          {
            text: `Page ${currentPage} of ${pageCount}`,
            alignment: 'right',
            style: 'small',
            margin: [margins.left, 4, margins.right, 2],
          },
          ...(parts.footerImage
            ? [
                {
                  image: 'letterhead_footer',
                  fit: [A4.width, Math.max(margins.bottom - 18, 10)],
                  alignment: 'center',
                },
              ]
            : []),
        ],
      }) as Content,
    content,
    styles: {
      title: { fontSize: 13, bold: true, alignment: 'center', margin: [0, 8, 0, 8] },
      heading: { fontSize: 12, bold: true, margin: [0, 0, 0, 8] },
      label: { bold: true, color: '#333333' },
      small: { fontSize: 8, color: '#444444' },
      tiny: { fontSize: 6, color: '#666666' },
      disclaimer: { fontSize: 7, color: '#555555', margin: [0, 12, 0, 0] },
      preliminary: { fontSize: 12, bold: true, color: '#b00020', alignment: 'center', margin: [0, 0, 0, 8] },
    },
  };
}

export async function renderPdf(parts: TDocumentParts): Promise<Uint8Array> {
  return renderPdfDefinition(pdfDefinition(parts));
}

/**
 * Any pdfmake document through the same set-up (fonts of every script, shaping, no URL or file
 * access): the lab's bill, slip and summaries (modules/lab-documents) use it rather than a second
 * renderer.
 */
export async function renderPdfDefinition(doc: TDocumentDefinitions): Promise<Uint8Array> {
  const buffer = await pdfMake().createPdf(doc).getBuffer();
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
