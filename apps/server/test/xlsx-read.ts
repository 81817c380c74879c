import JSZip from 'jszip';

/*
 * Reads back the first sheet of an .xlsx the way a spreadsheet program does: the zip's directory,
 * the workbook's first sheet, its cells by reference (inline strings, shared strings, numbers). For
 * the summary tests: the file must hold what the API and the screen show.
 */

const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');

function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** The sheet's rows as text cells ('' for an empty cell), in row order. */
export async function readXlsxRows(file: Buffer | Uint8Array): Promise<string[][]> {
  const zip = await JSZip.loadAsync(file);
  const workbook = await zip.file('xl/workbook.xml')?.async('string');
  if (!workbook || !/<sheet [^>]*r:id="rId1"/.test(workbook)) throw new Error('xlsx: no first sheet');
  const sheet = await zip.file('xl/worksheets/sheet1.xml')?.async('string');
  if (!sheet) throw new Error('xlsx: no sheet1.xml');
  const sharedXml = await zip.file('xl/sharedStrings.xml')?.async('string');
  const shared = sharedXml
    ? [...sharedXml.matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
        [...(m[1] ?? '').matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => unescapeXml(t[1] ?? '')).join(''),
      )
    : [];
  const rows: string[][] = [];
  for (const rowMatch of sheet.matchAll(/<row\b[^>]*>([\s\S]*?)<\/row>/g)) {
    const cells: string[] = [];
    for (const cell of (rowMatch[1] ?? '').matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attrs = cell[1] ?? '';
      const body = cell[2] ?? '';
      const ref = /\br="([A-Z]+)\d+"/.exec(attrs)?.[1];
      const index = ref ? columnIndex(ref) : cells.length;
      const type = /\bt="(\w+)"/.exec(attrs)?.[1];
      let value = '';
      if (type === 'inlineStr') {
        value = [...body.matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => unescapeXml(t[1] ?? '')).join('');
      } else {
        const v = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1] ?? '';
        value = type === 's' ? (shared[Number(v)] ?? '') : unescapeXml(v);
      }
      while (cells.length < index) cells.push('');
      cells[index] = value;
    }
    rows.push(cells);
  }
  return rows;
}
