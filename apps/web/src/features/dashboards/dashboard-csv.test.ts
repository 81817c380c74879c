import { describe, expect, it } from 'vitest';
import { csvFileName, toCsv } from './dashboard-csv';

describe('a chart export', () => {
  it('writes a header and the rows, quoting what needs it', () => {
    expect(
      toCsv(
        ['Center', 'Uploaded'],
        [
          ['A, north', 3],
          ['Say "hi"', 0],
          ['=SUM(A1)', null],
        ],
      ),
    ).toBe('Center,Uploaded\r\n"A, north",3\r\n"Say ""hi""",0\r\n\'=SUM(A1),\r\n');
  });

  it('names the file by the chart and the range', () => {
    expect(csvFileName('Volumes by day', '2026-03-01', '2026-03-03')).toBe(
      'volumes-by-day_2026-03-01_2026-03-03.csv',
    );
  });
});
