import { describe, expect, it } from 'vitest';
import { LAB_TEST_MESSAGES } from './tests.js';
import {
  LAB_TEST_CSV_MESSAGES as M,
  LAB_TEST_CSV_SAMPLE,
  csvDataRows,
  labTestFromCsvRow,
  parseCsv,
} from './test-csv.js';

describe('parseCsv', () => {
  it('reads quoted fields, CRLF, a BOM and drops blank lines', () => {
    expect(parseCsv('\ufeffa,b\r\n"x, y","say ""hi"""\r\n\r\n1,2')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['1', '2'],
    ]);
  });
  it('throws on an unterminated quote', () => {
    expect(() => parseCsv('a,"b\n1,2')).toThrow(M.parseError);
  });
  it('skips the header row; the sample has two data rows that parse', () => {
    const rows = csvDataRows(LAB_TEST_CSV_SAMPLE);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(labTestFromCsvRow(row, { showExtraModalityType: false }).ok).toBe(true);
  });
});

describe('labTestFromCsvRow (spec-lab §5 CSV)', () => {
  const opts = { showExtraModalityType: false };
  it('code, name, price, type, modality; department RADIOLOGY', () => {
    expect(labTestFromCsvRow(['CT01 ', 'CT Head', '1500.5', 'normal', 'ct'], opts)).toEqual({
      ok: true,
      test: {
        testCode: 'CT01',
        testName: 'CT Head',
        price: 1500.5,
        testType: 'NORMAL',
        labModality: 'CT',
        department: 'RADIOLOGY',
        active: true,
      },
    });
  });
  it.each(['PACKAGE', 'package', 'Pkg', ''])('type %j is PACKAGE (NORMAL else PACKAGE)', (type) => {
    const r = labTestFromCsvRow(['C', 'N', '1', type, 'CT'], opts);
    expect(r.ok && r.test.testType).toBe('PACKAGE');
  });
  it.each([
    [['C', 'N', '1', 'NORMAL'], M.columns],
    [['', 'N', '1', 'NORMAL', 'CT'], LAB_TEST_MESSAGES.codeRequired],
    [['C', ' ', '1', 'NORMAL', 'CT'], LAB_TEST_MESSAGES.nameRequired],
    [['C', 'N', 'abc', 'NORMAL', 'CT'], M.price],
    [['C', 'N', '', 'NORMAL', 'CT'], M.price],
    [['C', 'N', '-5', 'NORMAL', 'CT'], M.price],
    [['C', 'N', '1', 'NORMAL', ''], LAB_TEST_MESSAGES.modalityRequired],
    [['C', 'N', '1', 'NORMAL', 'NM'], `${LAB_TEST_MESSAGES.modalityNotOffered}: NM`],
    [['C', 'N', '1', 'NORMAL', 'PET'], `${LAB_TEST_MESSAGES.modalityNotOffered}: PET`],
  ])('%j fails: %s', (cells, reason) => {
    expect(labTestFromCsvRow(cells, opts)).toEqual({ ok: false, reason });
  });
  it('NM with the extra modalities on', () => {
    expect(labTestFromCsvRow(['C', 'N', '1', 'NORMAL', 'nm'], { showExtraModalityType: true }).ok).toBe(true);
  });
});
