import { DEFAULT_LAB_DEPARTMENT } from './entities.js';
import { isRupeeAmount } from './money.js';
import { LAB_TEST_MESSAGES, type TLabTestCreate, labTestModalities } from './tests.js';

/**
 * The Upload Test CSV file (spec-lab §5 "CSV"): columns test code, name, price, type, modality; the
 * first row is a header and is skipped; type NORMAL else PACKAGE; department Radiology. Each row
 * becomes one POST /api/lab/test (spec-lab §9: one at a time, 300 ms apart).
 */

export const LAB_TEST_CSV_MESSAGES = {
  noFile: 'Please select a CSV file',
  parseError: 'Error parsing CSV',
  columns: 'A row needs five columns: test code, name, price, type, modality',
  price: 'Price must be a number of rupees of 0 or more with at most two decimals',
} as const;

/** spec-lab §9 "one at a time, 300 ms interval". */
export const LAB_TEST_CSV_INTERVAL_MS = 300;

/** The sample offered for download: the header, a normal test and a package row. */
export const LAB_TEST_CSV_SAMPLE =
  'Test Code,Test Name,Price,Type,Modality\nCT001,CT Head Plain,1500,NORMAL,CT\nDX010,X-Ray Chest PA,350.50,NORMAL,DX\n';

/**
 * RFC 4180 rows: quoted fields may hold commas, doubled quotes and line breaks. Blank lines are
 * dropped. Throws on an unterminated quote (the screen says 'Error parsing CSV').
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const endRow = () => {
    row.push(field);
    if (row.some((f) => f.trim() !== '')) rows.push(row);
    row = [];
    field = '';
  };
  while (i < src.length) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else field += ch;
      i += 1;
      continue;
    }
    if (ch === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      endRow();
      if (ch === '\r' && src[i + 1] === '\n') i += 1;
    } else {
      field += ch;
    }
    i += 1;
  }
  if (quoted) throw new Error(LAB_TEST_CSV_MESSAGES.parseError);
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

export type TCsvRowResult = { ok: true; test: TLabTestCreate } | { ok: false; reason: string };

/**
 * One data row (the header already skipped) to the test it creates, or the reason it cannot be one.
 * The server checks the rest (a duplicate code, a package without members).
 */
export function labTestFromCsvRow(
  cells: readonly string[],
  opts: { showExtraModalityType: boolean },
): TCsvRowResult {
  if (cells.length < 5) return { ok: false, reason: LAB_TEST_CSV_MESSAGES.columns };
  const [code, name, priceText, typeText, modalityText] = cells.map((c) => c.trim()) as [
    string,
    string,
    string,
    string,
    string,
  ];
  if (code === '') return { ok: false, reason: LAB_TEST_MESSAGES.codeRequired };
  if (name === '') return { ok: false, reason: LAB_TEST_MESSAGES.nameRequired };
  const price = priceText === '' ? Number.NaN : Number(priceText);
  if (!isRupeeAmount(price)) return { ok: false, reason: LAB_TEST_CSV_MESSAGES.price };
  const modality = modalityText.toUpperCase();
  if (modality === '') return { ok: false, reason: LAB_TEST_MESSAGES.modalityRequired };
  if (!labTestModalities(opts.showExtraModalityType).includes(modality)) {
    return { ok: false, reason: `${LAB_TEST_MESSAGES.modalityNotOffered}: ${modalityText}` };
  }
  return {
    ok: true,
    test: {
      testCode: code,
      testName: name,
      price,
      // spec-lab §5: "type NORMAL else PACKAGE".
      testType: typeText.toUpperCase() === 'NORMAL' ? 'NORMAL' : 'PACKAGE',
      labModality: modality as TLabTestCreate['labModality'],
      department: DEFAULT_LAB_DEPARTMENT,
      active: true,
    },
  };
}

/** The data rows of a file: the first row is the header and is skipped. */
export function csvDataRows(text: string): string[][] {
  return parseCsv(text).slice(1);
}
