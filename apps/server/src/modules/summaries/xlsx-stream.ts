import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

/**
 * A streamed .xlsx (Office Open XML SpreadsheetML, ECMA-376) of one sheet: the zip is written as the
 * rows come, each part deflated, the sheet through one deflate stream with a data descriptor after
 * it (APPNOTE 4.3.9), so a file of 100,000 rows never sits in memory. Written here rather than taken
 * from exceljs: the summary needs one sheet of text and numbers with a bold header and totals row,
 * which is five small fixed parts and a sheet of inline strings; exceljs's streaming writer brings
 * archiver, unzipper and their dependencies for that (summaries/DECISIONS.md "Excel").
 * Sizes are 32-bit: the writer refuses a part over 4 GiB (a 180-day summary is far below).
 */

export type TXlsxCell = string | number;

const LIMIT32 = 0xffffffff;
const FLAGS = 0x0808; // bit 3: sizes in a data descriptor; bit 11: UTF-8 names
const VERSION = 20;
const DEFLATE = 8;
const STYLE_BOLD = 1;

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;
const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

const workbookXml = (sheetName: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

const SHEET_START = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><sheetData>`;
const SHEET_END = '</sheetData></worksheet>';

/** Characters XML 1.0 does not allow (a pasted control character must not break the file). */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A column's letters: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

interface TEntry {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** MS-DOS time and date of an instant (UTC, 2-second steps). */
function dosDateTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/** Flush the sheet's text to the deflate stream in pieces of about this many characters. */
const FLUSH_CHARS = 64 * 1024;

export class XlsxStreamWriter {
  /** The file, to be piped to the answer while rows are added. */
  readonly stream: Readable;
  private readonly out = new PassThrough();
  private offset = 0;
  private readonly entries: TEntry[] = [];
  private readonly stamp = dosDateTime(new Date());
  private sheet: { deflate: ReturnType<typeof createDeflateRaw>; entry: TEntry; done: Promise<void> } | null =
    null;
  private pending = '';
  private rowNumber = 0;

  constructor(private readonly sheetName = 'Sheet1') {
    this.stream = this.out;
  }

  /** Writes the fixed parts and opens the sheet. */
  async start(): Promise<void> {
    await this.addPart('[Content_Types].xml', CONTENT_TYPES);
    await this.addPart('_rels/.rels', ROOT_RELS);
    await this.addPart('xl/workbook.xml', workbookXml(this.sheetName));
    await this.addPart('xl/_rels/workbook.xml.rels', WORKBOOK_RELS);
    await this.addPart('xl/styles.xml', STYLES);
    await this.openSheet();
  }

  /** One row of the sheet; `bold` for a header or a totals row. Empty text leaves the cell empty. */
  async addRow(cells: readonly TXlsxCell[], opts: { bold?: boolean } = {}): Promise<void> {
    this.rowNumber += 1;
    const r = this.rowNumber;
    const style = opts.bold ? ` s="${STYLE_BOLD}"` : '';
    let xml = `<row r="${r}">`;
    cells.forEach((value, i) => {
      const ref = `${columnLetters(i)}${r}`;
      if (typeof value === 'number') {
        if (Number.isFinite(value)) xml += `<c r="${ref}"${style}><v>${value}</v></c>`;
      } else if (value !== '') {
        xml += `<c r="${ref}"${style} t="inlineStr"><is><t xml:space="preserve">${escapeXml(value)}</t></is></c>`;
      }
    });
    xml += '</row>';
    this.pending += xml;
    if (this.pending.length >= FLUSH_CHARS) await this.flushSheet();
  }

  /** Closes the sheet, writes the central directory and ends the stream. */
  async finish(): Promise<void> {
    const sheet = this.sheet;
    if (!sheet) throw new Error('xlsx: start() was not called');
    this.pending += SHEET_END;
    await this.flushSheet();
    sheet.deflate.end();
    await sheet.done;
    this.sheet = null;
    await this.write(this.dataDescriptor(sheet.entry));
    await this.writeCentralDirectory();
    this.out.end();
  }

  /** Ends the file with an error (the answer is cut; the client sees a broken download, not a short file). */
  fail(error: Error): void {
    this.sheet?.deflate.destroy();
    this.out.destroy(error);
  }

  private async write(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    if (this.offset > LIMIT32) throw new Error('xlsx: the file is over 4 GiB');
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  private localHeader(entry: TEntry): Buffer {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(VERSION, 4);
    h.writeUInt16LE(FLAGS, 6);
    h.writeUInt16LE(DEFLATE, 8);
    h.writeUInt16LE(this.stamp.time, 10);
    h.writeUInt16LE(this.stamp.date, 12);
    // crc and sizes (14-25) stay 0: they follow the data (bit 3).
    h.writeUInt16LE(entry.name.length, 26);
    h.writeUInt16LE(0, 28);
    return Buffer.concat([h, entry.name]);
  }

  private dataDescriptor(entry: TEntry): Buffer {
    if (entry.compressed > LIMIT32 || entry.size > LIMIT32) throw new Error('xlsx: a part is over 4 GiB');
    const d = Buffer.alloc(16);
    d.writeUInt32LE(0x08074b50, 0);
    d.writeUInt32LE(entry.crc >>> 0, 4);
    d.writeUInt32LE(entry.compressed, 8);
    d.writeUInt32LE(entry.size, 12);
    return d;
  }

  private newEntry(name: string): TEntry {
    const entry = { name: Buffer.from(name, 'utf8'), crc: 0, compressed: 0, size: 0, offset: this.offset };
    this.entries.push(entry);
    return entry;
  }

  private async addPart(name: string, text: string): Promise<void> {
    const entry = this.newEntry(name);
    const data = Buffer.from(text, 'utf8');
    const packed = deflateRawSync(data);
    entry.crc = crc32(data);
    entry.size = data.length;
    entry.compressed = packed.length;
    await this.write(this.localHeader(entry));
    await this.write(packed);
    await this.write(this.dataDescriptor(entry));
  }

  private async openSheet(): Promise<void> {
    const entry = this.newEntry('xl/worksheets/sheet1.xml');
    await this.write(this.localHeader(entry));
    const deflate = createDeflateRaw({ level: 6 });
    // The deflated bytes go to the answer as they come; the deflate stream waits while it is full.
    deflate.on('data', (chunk: Buffer) => {
      entry.compressed += chunk.length;
      this.offset += chunk.length;
      if (!this.out.write(chunk)) {
        deflate.pause();
        this.out.once('drain', () => deflate.resume());
      }
    });
    const done = new Promise<void>((resolve, reject) => {
      deflate.once('end', resolve);
      deflate.once('error', reject);
    });
    // A failure is reported by `done` (or by the next write); never an unhandled rejection.
    done.catch(() => undefined);
    this.sheet = { deflate, entry, done };
    this.pending = SHEET_START;
  }

  private async flushSheet(): Promise<void> {
    const sheet = this.sheet;
    if (!sheet || this.pending === '') return;
    const data = Buffer.from(this.pending, 'utf8');
    this.pending = '';
    sheet.entry.crc = crc32(data, sheet.entry.crc);
    sheet.entry.size += data.length;
    if (!sheet.deflate.write(data)) await once(sheet.deflate, 'drain');
  }

  private async writeCentralDirectory(): Promise<void> {
    const start = this.offset;
    const records = this.entries.map((entry) => {
      const c = Buffer.alloc(46);
      c.writeUInt32LE(0x02014b50, 0);
      c.writeUInt16LE(VERSION, 4);
      c.writeUInt16LE(VERSION, 6);
      c.writeUInt16LE(FLAGS, 8);
      c.writeUInt16LE(DEFLATE, 10);
      c.writeUInt16LE(this.stamp.time, 12);
      c.writeUInt16LE(this.stamp.date, 14);
      c.writeUInt32LE(entry.crc >>> 0, 16);
      c.writeUInt32LE(entry.compressed, 20);
      c.writeUInt32LE(entry.size, 24);
      c.writeUInt16LE(entry.name.length, 28);
      // extra, comment, disk, internal attributes (30-37) are 0; external attributes 0.
      c.writeUInt32LE(entry.offset, 42);
      return Buffer.concat([c, entry.name]);
    });
    const directory = Buffer.concat(records);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(start, 16);
    await this.write(Buffer.concat([directory, end]));
  }
}
