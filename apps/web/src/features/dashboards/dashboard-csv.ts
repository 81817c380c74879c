/** A cell of a CSV: quoted when it holds a comma, a quote or a line break (RFC 4180). */
function csvCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  // A leading =, +, - or @ would be a formula in a spreadsheet: kept as text.
  const safe = /^[=+\-@]/.test(text) && typeof value !== 'number' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A chart's numbers as CSV text: a header line, then one line per row, CRLF line ends. */
export function toCsv(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number | null>>,
): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** The file name of a chart's export: its title and range, e.g. 'volumes-by-day_2026-03-01_2026-03-03.csv'. */
export function csvFileName(title: string, startTime: string, endTime: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${slug}_${startTime}_${endTime}.csv`;
}
