/**
 * CSV files the product writes (the report summary's download, a dashboard chart's export): one
 * rule for the server and the browser. RFC 4180: a field with a comma, a quote or a line break is
 * quoted, its quotes doubled. And a spreadsheet runs a text cell that starts with =, +, -, @, a tab
 * or a carriage return as a formula (OWASP "CSV injection"): a patient name or a history comes from
 * whoever sent the study, so such text is written with a leading apostrophe, which spreadsheets
 * show as text. Numbers stay numbers (a negative count is not text).
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  const safe = typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line of `cells`, ended by CRLF (RFC 4180). */
export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}
