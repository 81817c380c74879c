import type QRCodeModule from 'qrcode';
import { REPORT_DOCUMENT_MESSAGES, formatDisplayTime } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { assetDataUrl, documentWindow, opaqueImage, resolveHtmlImages } from './document-images.js';
import type { TDocumentReport, TReportDocumentData } from './report-document-data.js';
import { loadGroupBrand } from '../brand/brand.js';
import { onFirstUse } from '../../on-first-use.js';

const qrCode = onFirstUse<typeof QRCodeModule>('qrcode');

/*
 * What a report document says, decided once for both formats: the PDF (pdf-document.ts) and the
 * Word file (word-document.ts) lay out the same parts.
 */

/** A report (main or addendum) ready to lay out: HTML with images resolved, its signature. */
export interface TDocumentSection {
  title: string;
  html: string;
  isAddendum: boolean;
  signature: { name: string; imageDataUrl: string | null; signedOffLine: string } | null;
}

export interface TDocumentParts {
  title: string;
  /** The group's product name (issue 29 §8 brand): the document's creator in its metadata. */
  productName: string;
  /** The report is not final: not signed off, or a text that is not the signed one. */
  isPreliminary: boolean;
  patientRows: Array<[string, string]>;
  reportTextHeader: string;
  reportTextFooter: string;
  disclaimer: string;
  sections: TDocumentSection[];
  headerImage: string | null;
  footerImage: string | null;
  keyImages: string[];
  qr: { dataUrl: string; url: string } | null;
  marginsCm: TReportDocumentData['layout']['marginsCm'];
}

export interface TPartsOptions {
  withHeader: boolean;
  keyImages: string[];
  shareUrl: string | null;
  customHtml: string | null;
  reportName: string | null;
}

/** A section's heading: the report's name; an addendum says so (once, whatever its name). */
export function sectionTitle(section: Pick<TDocumentSection, 'title' | 'isAddendum'>): string {
  if (!section.isAddendum) return section.title;
  return /^addendum\b/i.test(section.title) ? section.title : `Addendum: ${section.title}`;
}

/**
 * The report's name as a document's metadata (PDF Info title, Word core title) carries it, one
 * rule for both: a name is one line, so a run of tabs and line breaks is one space (XML reads a
 * bare CR as LF, and the PDF once dropped it, so "a\rb" read back three ways); other control
 * characters go (PDFDocEncoding reads 0x18–0x1F as accents, no name needs one); a lone surrogate
 * (a name cut mid-character) becomes U+FFFD, which UTF-16 and UTF-8 can both hold.
 */
export function documentMetadataText(text: string): string {
  return (
    text
      .replace(/[\t\n\v\f\r]+/g, ' ')
      // eslint-disable-next-line no-control-regex -- the control characters are what it removes
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
  );
}

/**
 * Report tables as both layouts can take them. The sanitizer keeps what an editor (or a pasted
 * page) wrote: `<table></table>`, rows of different lengths, spans past the table's edge. pdfmake
 * needs every row as wide as the table and html-to-pdfmake reads a cell under each row span, so an
 * irregular table failed the whole document. Here a table without cells goes; a span is a whole
 * number from 1 to what the table holds (a column span at most the fullest row's cell count and
 * never over a cell spanning down from above, a row span at most the rows left); short rows are
 * filled with empty cells. What a reader sees of a
 * regular table is unchanged.
 */
export function regularTables(html: string): string {
  // Parsing with jsdom costs ~10 ms a report: only a table that needs it pays, once (see below).
  if (!/<table/i.test(html) || tablesAreRegular(html)) return html;
  const known = regularised.get(html);
  if (known !== undefined) {
    regularised.delete(html);
    regularised.set(html, known);
    return known;
  }
  const made = regularise(html);
  regularised.set(html, made);
  regularisedChars += html.length + made.length;
  for (const [key, value] of regularised) {
    if (regularisedChars <= REGULARISED_MAX_CHARS) break;
    regularised.delete(key);
    regularisedChars -= key.length + value.length;
  }
  return made;
}

/**
 * The same HTML is made regular several times: each format converts every part (the PDF its
 * sections, Word each part), and a report is downloaded, printed and shared again. The jsdom pass
 * is a pure function of the HTML, so its answer is kept (least recently used out past 4 M chars).
 */
const REGULARISED_MAX_CHARS = 4_000_000;
const regularised = new Map<string, string>();
let regularisedChars = 0;

function regularise(html: string): string {
  const template = documentWindow().document.createElement('template');
  template.innerHTML = html;
  // Innermost first: a table's own rows are read after the tables inside its cells are settled.
  const tables = Array.from(template.content.querySelectorAll('table')).reverse();
  for (const table of tables) {
    sectionsInRowOrder(table);
    const rows = Array.from(table.rows);
    const widest = Math.max(0, ...rows.map((row) => row.cells.length));
    if (widest === 0) {
      table.remove();
      continue;
    }
    const taken = rows.map(() => new Set<number>());
    rows.forEach((row, r) => {
      let column = 0;
      for (const cell of Array.from(row.cells)) {
        while (taken[r]!.has(column)) column++;
        // Up to the next column a cell above already spans into: cells may not overlap.
        let free = 1;
        while (free < widest && !taken[r]!.has(column + free)) free++;
        const colSpan = spanOf(cell, 'colspan', free);
        const rowSpan = spanOf(cell, 'rowspan', rows.length - r);
        for (let dr = 0; dr < rowSpan; dr++)
          for (let dc = 0; dc < colSpan; dc++) taken[r + dr]!.add(column + dc);
        column += colSpan;
      }
    });
    const width = Math.max(...taken.map((cells) => (cells.size === 0 ? 0 : Math.max(...cells) + 1)));
    rows.forEach((row, r) => {
      for (let missing = width - taken[r]!.size; missing > 0; missing--) row.insertCell(-1);
    });
    // A row whose every column a cell above spans into has no cells of its own, and html-to-pdfmake
    // skips it while still counting it for the spans: it goes, and the spans over it shrink.
    const bare = new Set(rows.filter((row) => row.cells.length === 0));
    if (bare.size === 0) continue;
    rows.forEach((row, r) => {
      for (const cell of Array.from(row.cells)) {
        const span = Number(cell.getAttribute('rowspan') ?? 1);
        const over = rows.slice(r + 1, r + span).filter((below) => bare.has(below)).length;
        if (over > 0) spanOf(cell, 'rowspan', span - over);
      }
    });
    for (const row of bare) row.remove();
  }
  return template.innerHTML;
}

/**
 * The table's sections in the order of `table.rows` (its head's rows first, the foot's last, the
 * others in between): html-to-pdfmake reads rows in document order, so a head written after the
 * body (the parser moves a stray `<thead>` there) had its row spans checked against rows it was not
 * drawn with, and pdfmake read a cell that did not exist. A second head or foot, which `rows` leaves
 * out, becomes a body.
 */
function sectionsInRowOrder(table: HTMLTableElement): void {
  const { tHead, tFoot } = table;
  for (const section of Array.from(table.children)) {
    if (
      (section.localName === 'thead' && section !== tHead) ||
      (section.localName === 'tfoot' && section !== tFoot)
    ) {
      const body = table.ownerDocument.createElement('tbody');
      body.append(...Array.from(section.childNodes));
      section.replaceWith(body);
    }
  }
  if (tHead) table.insertBefore(tHead, table.caption ? table.caption.nextSibling : table.firstChild);
  if (tFoot) table.append(tFoot);
}

const TABLE_TAG = /<(\/?)(table|tr|td|th)\b([^>]*)>/gi;

/**
 * Whether every table of sanitized HTML already has rows of one width and no spans, read from its
 * tags alone (the sanitizer writes balanced tags, escapes `<` in text and allows td/th no attribute
 * but the spans). Unsure is false: the DOM pass decides then.
 */
function tablesAreRegular(html: string): boolean {
  const open: number[][] = [];
  for (const [, close, name, attributes] of html.matchAll(TABLE_TAG)) {
    const tag = name!.toLowerCase();
    const rows = open.at(-1);
    if (tag === 'table') {
      if (!close) open.push([]);
      else {
        const closed = open.pop();
        if (!closed || closed.length === 0 || closed.some((cells) => cells === 0 || cells !== closed[0]))
          return false;
      }
    } else if (!close) {
      if (!rows) return false;
      if (tag === 'tr') rows.push(0);
      else if (rows.length === 0 || /span/i.test(attributes ?? '')) return false;
      else rows[rows.length - 1]! += 1;
    }
  }
  return open.length === 0;
}

/** A cell's span as a whole number from 1 to `most`, written back (or removed when 1). */
function spanOf(cell: HTMLTableCellElement, attribute: 'colspan' | 'rowspan', most: number): number {
  const raw = cell.getAttribute(attribute);
  const parsed = raw !== null && /^\s*\d+\s*$/.test(raw) ? Number(raw) : 1;
  const span = Math.min(Math.max(parsed, 1), Math.max(most, 1));
  if (span === 1) cell.removeAttribute(attribute);
  else cell.setAttribute(attribute, String(span));
  return span;
}

export const QR_CAPTION = 'Scan to open this report online';
export const PRELIMINARY_TEXT = REPORT_DOCUMENT_MESSAGES.preliminary;

/** The patient and study table (spec-core §3 fields); the patient id only with showPatientIdInReportPage. */
export function patientRowsOf(data: TReportDocumentData): Array<[string, string]> {
  const { patient, study } = data;
  const ageSex = [patient.age, patient.sex].filter(Boolean).join(' / ');
  const rows: Array<[string, string]> = [['Patient name', patient.name]];
  if (data.showPatientId) rows.push(['Patient ID', patient.id]);
  if (patient.uhid) rows.push(['UHID', patient.uhid]);
  rows.push(
    ['Age / Sex', ageSex],
    ['Study', study.name],
    ['Modality', study.modalities.join(', ')],
    ['Study date', study.date],
    ['Referring physician', study.referringPhysician],
    ['Center', study.center],
  );
  return rows;
}

const qrCache = new Map<string, string>();
/** A QR (png data URL) of the share page address; the last few are kept (one per row at most). */
async function qrDataUrl(url: string): Promise<string> {
  const hit = qrCache.get(url);
  if (hit) return hit;
  const png = await qrCode().toBuffer(url, { type: 'png', errorCorrectionLevel: 'M', margin: 1, width: 240 });
  const made = `data:image/png;base64,${(await opaqueImage(png, 'image/png')).toString('base64')}`;
  if (qrCache.size >= 256) qrCache.delete(qrCache.keys().next().value as string);
  qrCache.set(url, made);
  return made;
}

async function sectionOf(
  ctx: AppContext,
  report: TDocumentReport,
  html: string,
  title: string,
  timeZone: string,
) {
  const signed = report.signedOffAt !== null && html === report.contentHtml;
  return {
    title,
    html: await resolveHtmlImages(ctx, html),
    isAddendum: report.isAddendum,
    signature: signed
      ? {
          name: report.signatureName ?? report.doctorName,
          imageDataUrl: report.signatureAssetId ? await assetDataUrl(ctx, report.signatureAssetId) : null,
          // The group's display time zone, labelled (core formatDisplayTime), as on every screen.
          signedOffLine: `${report.isAddendum ? 'Addendum signed off' : 'Signed off'}: ${formatDisplayTime(
            report.signedOffAt,
            timeZone,
          )}`,
        }
      : null,
  };
}

/** The parts of the document, images resolved to data URLs. */
export async function documentParts(
  ctx: AppContext,
  data: TReportDocumentData,
  opts: TPartsOptions,
): Promise<TDocumentParts> {
  const main = data.reports.find((r) => !r.isAddendum);
  const addenda = data.reports.filter((r) => r.isAddendum);
  const bodyHtml = opts.customHtml ?? main?.contentHtml ?? '';
  const title = opts.reportName || main?.name || data.study.name || 'Report';
  const sections: TDocumentSection[] = [];
  const zone = data.displayTimeZone;
  if (main) sections.push(await sectionOf(ctx, main, bodyHtml, title, zone));
  for (const addendum of addenda) {
    sections.push(await sectionOf(ctx, addendum, addendum.contentHtml, addendum.name || 'Addendum', zone));
  }
  const rowSigned = data.status === 'SIGNED_OFF' || data.status === 'DELETED';
  const { layout } = data;
  return {
    title,
    productName: (await loadGroupBrand(ctx.db, data.groupId)).productName,
    isPreliminary: !rowSigned || sections[0]?.signature == null,
    patientRows: patientRowsOf(data),
    reportTextHeader: await resolveHtmlImages(ctx, data.reportText.header),
    reportTextFooter: await resolveHtmlImages(ctx, data.reportText.footer),
    disclaimer: await resolveHtmlImages(ctx, data.reportText.disclaimer),
    sections,
    headerImage:
      opts.withHeader && layout.headerAssetId ? await assetDataUrl(ctx, layout.headerAssetId) : null,
    footerImage:
      opts.withHeader && layout.footerAssetId ? await assetDataUrl(ctx, layout.footerAssetId) : null,
    keyImages: opts.keyImages,
    qr: opts.shareUrl ? { dataUrl: await qrDataUrl(opts.shareUrl), url: opts.shareUrl } : null,
    marginsCm: layout.marginsCm,
  };
}
