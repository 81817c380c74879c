import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarDayIn } from '@radflow/core';
import type { TBrowserSession } from '../support/browser.js';
import { zipEntry } from '../support/documents.js';
import { eventually } from '../support/pages.js';
import { downloadOf } from '../support/reporting.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

/** The first sheet's rows of an .xlsx, read back from its zip (inline strings and numbers). */
async function sheetRows(file: Buffer): Promise<string[][]> {
  const xml = (await zipEntry(file, 'xl/worksheets/sheet1.xml'))?.toString('utf8');
  if (!xml) throw new Error('no sheet in the file');
  const text = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
  return [...xml.matchAll(/<row\b[^>]*>([\s\S]*?)<\/row>/g)].map((row) => {
    const cells: string[] = [];
    for (const cell of (row[1] ?? '').matchAll(/<c r="([A-Z]+)\d+"[^>]*>([\s\S]*?)<\/c>/g)) {
      const column = [...(cell[1] ?? '')].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
      const value =
        /<t[^>]*>([\s\S]*?)<\/t>/.exec(cell[2] ?? '')?.[1] ?? /<v>([\s\S]*?)<\/v>/.exec(cell[2] ?? '')?.[1];
      while (cells.length < column) cells.push('');
      cells[column] = text(value ?? '');
    }
    return cells;
  });
}

/**
 * Issue 24 §6: a center's report summary for a date range (spec-core §2 Summary screen), downloaded
 * with 'Download Excel'; the file read back holds the rows on screen, column for column, and the
 * totals.
 */
describe("Report summary: a center's range as Excel", () => {
  let session: TBrowserSession;
  beforeAll(async () => {
    session = await openSignedIn('center@demo.local', { home: false });
  });
  afterAll(() => session.close());

  it('downloads a file that reads back as the rows on screen', async () => {
    const { page } = session;
    const prefix = `E2E Summary ${uniqueTag()}`;
    await createStudiesViaApi(page, [`${prefix} A`, `${prefix} B`, `${prefix} C`]);
    // The studies were uploaded today, a day of the demo group's zone (+05:30).
    const today = calendarDayIn(new Date());

    await page.goto('/summary');
    await page.getByText('Please select date').waitFor();
    await page.getByLabel('Start date').fill(today);
    await page.getByLabel('End date').fill(today);
    await page.getByLabel('Filter Patient').fill(prefix);
    const rows = page.locator('tbody [data-testid^="summary-row-"]');
    await eventually(() => rows.count()).toBe(3);
    await eventually(() => page.getByTestId('summary-total-total').innerText()).toBe('Total: 3');

    const headers = await page.locator('thead tr').first().locator('th').allInnerTexts();
    const onScreen = await rows.evaluateAll((trs) =>
      trs.map((tr) =>
        [...tr.querySelectorAll('td')].map((td) => {
          const text = (td as HTMLElement).innerText.trim();
          return text === '—' ? '' : text;
        }),
      ),
    );
    expect(
      onScreen.every((cells) =>
        cells.some((c) => c.startsWith(prefix.toUpperCase()) || c.startsWith(prefix)),
      ),
    ).toBe(true);

    const file = await downloadOf(page, () => page.getByRole('button', { name: 'Download Excel' }).click());
    expect(file.name).toBe(`report-summary-${today}-to-${today}.xlsx`);
    const sheet = await sheetRows(file.bytes);
    const padded = (cells: string[] | undefined) =>
      [...(cells ?? []), ...Array(headers.length).fill('')].slice(0, headers.length);
    expect(sheet[0]).toEqual(headers.map((h) => h.trim()));
    expect(sheet.slice(1, -1).map(padded)).toEqual(onScreen);
    expect(sheet.at(-1)?.slice(0, 2)).toEqual(['Total', '3']);
  });
});
