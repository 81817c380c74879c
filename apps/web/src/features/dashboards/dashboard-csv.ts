import { csvLine } from '@radflow/core';

/** A chart's numbers as CSV text: a header line, then one line per row (core csvLine: quoting, formula-safe, CRLF). */
export function toCsv(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number | null>>,
): string {
  return [header, ...rows].map(csvLine).join('');
}

/** The file name of a chart's export: its title and range, e.g. 'volumes-by-day_2026-03-01_2026-03-03.csv'. */
export function csvFileName(title: string, startTime: string, endTime: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${slug}_${startTime}_${endTime}.csv`;
}
