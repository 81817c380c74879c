import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { StudyList, eventually } from '../support/pages.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

const ROWS = 25;

/**
 * The generic study table (spec-core §2 Generic study table behaviour, §9 page sizes): paging with
 * 20 and 50 rows, and the search (filter, sort, size), the column choice and the selected tab kept
 * across a reload (issue 4 §3, §6). The center's report list at /status, over more than 20 studies
 * of this run made through the API.
 */
describe('Worklist table: paging and what survives a reload', () => {
  const prefix = `E2E Page ${uniqueTag()}`;
  const nameOf = (n: number) => `${prefix} ${String(n).padStart(2, '0')}`;
  let session: TBrowserSession;
  let list: StudyList;
  let urgentId: number;

  beforeAll(async () => {
    session = await openSignedIn('center@demo.local', { home: false });
    const ids = await createStudiesViaApi(
      session.page,
      Array.from({ length: ROWS }, (_, i) => nameOf(i + 1)),
    );
    // One urgent study, so the remembered Urgent tab has something to show after the reload.
    urgentId = ids[6]!;
    const res = await session.page.request.post(`/api/report-status/urgent/${urgentId}`);
    expect(res.ok(), await res.text()).toBe(true);
    list = new StudyList(session.page);
    await list.open('/status');
  });
  afterAll(async () => {
    // Put the center's column choice back (it is saved in the user's preferences, not the browser).
    const dialog = list.columnSettings;
    await dialog.open();
    await dialog.root.getByRole('button', { name: 'Reset' }).click();
    await dialog.save();
    await session.close();
  });

  it('pages 20 rows at a time, and all 25 with page size 50', async () => {
    const { page } = session;
    await list.selectTab('All');
    await list.filterBy('Patient', prefix);
    expect(await list.pageSize.innerText()).toBe('20');
    await eventually(() => list.rows.count()).toBe(20);
    await page.getByText(`1–20 of ${ROWS}`).waitFor();

    await page.getByRole('button', { name: 'Go to next page' }).click();
    await page.getByText(`21–${ROWS} of ${ROWS}`).waitFor();
    await eventually(() => list.rows.count()).toBe(ROWS - 20);

    await list.setPageSize(50);
    await page.getByText(`1–${ROWS} of ${ROWS}`).waitFor();
    await eventually(() => list.rows.count()).toBe(ROWS);
  });

  it('keeps the filter, the sort, the page size, the columns and the tab across reloads', async () => {
    const { page } = session;
    await list.selectTab('All');
    await list.filterBy('Patient', prefix);
    await list.setPageSize(50);
    await list.sortBy('Patient', 'ascending');
    await eventually(() => list.cellText(list.rows.first(), 'Patient')).toBe(nameOf(1));
    await eventually(() => list.cellText(list.rows.last(), 'Patient')).toBe(nameOf(ROWS));

    const columns = list.columnSettings;
    await columns.open();
    await columns.visibility('History').check();
    await columns.visibility('Age').uncheck();
    await columns.moveUp('Patient');
    await columns.save();
    await eventually(async () => (await list.columnLabels()).slice(0, 2)).toEqual(['Patient', 'Id']);
    expect(await list.columnLabels()).toContain('History');
    expect(await list.columnLabels()).not.toContain('Age');

    await page.reload();
    await list.waitUntilLoaded();
    expect(await list.tab('All').getAttribute('aria-selected')).toBe('true');
    expect(await list.filter('Patient').inputValue()).toBe(prefix);
    expect(await list.header('Patient').getAttribute('aria-sort')).toBe('ascending');
    expect(await list.pageSize.innerText()).toBe('50');
    await eventually(() => list.rows.count()).toBe(ROWS);
    expect(await list.cellText(list.rows.first(), 'Patient')).toBe(nameOf(1));
    expect(await list.cellText(list.rows.last(), 'Patient')).toBe(nameOf(ROWS));
    const labels = await list.columnLabels();
    expect(labels.slice(0, 2)).toEqual(['Patient', 'Id']);
    expect(labels).toContain('History');
    expect(labels).not.toContain('Age');

    await list.selectTab('Urgent');
    await eventually(() => list.rows.count()).toBe(1);
    await list.row(urgentId).waitFor();
    await page.reload();
    await list.waitUntilLoaded();
    expect(await list.tab('Urgent').getAttribute('aria-selected')).toBe('true');
    expect(await list.filter('Patient').inputValue()).toBe(prefix);
    await list.row(urgentId).waitFor();
    expect(await list.rows.count()).toBe(1);
  });
});
