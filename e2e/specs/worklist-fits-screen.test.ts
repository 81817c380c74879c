import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { StudyList, eventually } from '../support/pages.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

const VIEWPORT = { width: 1280, height: 720 };
const RUN = uniqueTag();

/**
 * Issue 21 §6: at 1280×720 the study table's default columns fit beside the menu, the first row's
 * action buttons are on screen without scrolling sideways (a pinned actions column, which stays on
 * screen however many columns a user turns on), and a double click opens what the user opens most:
 * the doctor the report editor, the center its signed report. Issue 21 §5: the doctor's list says
 * which studies are theirs (the Assigned column).
 */

/** The user's own column choice, or none (the defaults), saved in their preferences. */
async function saveColumns(page: Page, tableKey: string, columns: string[] | null): Promise<void> {
  const tableColumnSettings =
    columns === null
      ? {}
      : { [tableKey]: columns.map((colName, index) => ({ colName, visible: true, index })) };
  const res = await page.request.post('/api/setting/update/USER_TABLE_PREFERENCES', {
    data: { tableColumnSettings },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** A browser signed in at 1280×720 with the default columns. */
async function openAt1280(email: string, tableKey: string): Promise<TBrowserSession> {
  const session = await openSignedIn(email);
  await session.page.setViewportSize(VIEWPORT);
  await saveColumns(session.page, tableKey, null);
  return session;
}

/** Nothing scrolls sideways: neither the page nor the table's own scroller. */
async function scrollsSideways(table: Locator): Promise<{ page: boolean; table: boolean }> {
  return table.evaluate((el) => {
    const scroller = el.parentElement!;
    return {
      page: document.documentElement.scrollWidth > window.innerWidth,
      table: scroller.scrollWidth > scroller.clientWidth,
    };
  });
}

/** Each named button of the row lies wholly inside the 1280 px viewport. */
async function expectOnScreen(row: Locator, names: string[]): Promise<void> {
  for (const name of names) {
    const box = await row.getByRole('button', { name, exact: true }).boundingBox();
    expect(box, name).not.toBeNull();
    expect(box!.x, name).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, name).toBeLessThanOrEqual(VIEWPORT.width);
  }
}

/**
 * The pinned actions cell is opaque (what scrolls under it must not show through): under the
 * pointer it paints the row's hover shade too, so the actions read as part of the row pointed at.
 */
async function expectPinnedCellShadesWithRow(row: Locator): Promise<void> {
  await row.locator('td').first().hover();
  await eventually(() =>
    row.evaluate((tr) => {
      const rowShade = getComputedStyle(tr).backgroundColor;
      const pinned = tr.querySelector('[data-pinned="right"]')!;
      return rowShade !== 'rgba(0, 0, 0, 0)' && getComputedStyle(pinned).backgroundImage.includes(rowShade);
    }),
  ).toBe(true);
}

describe('Worklist at 1280×720: the row actions on screen, a double click opens the study', () => {
  const signedName = `E2E Fit Signed ${RUN}`;
  const openName = `E2E Fit Open ${RUN}`;
  let signedId: number;
  let openId: number;
  let open: TBrowserSession | undefined;

  beforeAll(async () => {
    const center = await openSignedIn('center@demo.local', { home: false });
    try {
      [signedId, openId] = (await createStudiesViaApi(center.page, [signedName, openName])) as [
        number,
        number,
      ];
    } finally {
      await center.close();
    }
    // The doctor reports and signs off the first study (the API the editor calls).
    const doctor = await openSignedIn('doctor@demo.local', { home: false });
    try {
      const locked = await doctor.page.request.post(`/api/report/lock/${signedId}`, { data: {} });
      expect(locked.status(), await locked.text()).toBe(200);
      const signed = await doctor.page.request.post(`/api/report/save/${signedId}`, {
        // A freshly locked study has no saved version: the save starts from none.
        data: {
          name: 'Report',
          content: `<p>Normal study ${RUN}</p>`,
          signOff: true,
          baseVersion: null,
        },
      });
      expect(signed.status(), await signed.text()).toBe(200);
    } finally {
      await doctor.close();
    }
  });
  afterAll(async () => {
    await open?.close();
  });

  it('the center: actions on screen, no sideways scroll; a double click opens the signed report', async () => {
    open = await openAt1280('center@demo.local', 'centerReportList');
    const { page } = open;
    const list = new StudyList(page);
    await list.open('/status');
    await list.filterBy('Patient', RUN, 2);
    const table = page.getByRole('table').first();
    expect(await scrollsSideways(table)).toEqual({ page: false, table: false });

    const first = list.rows.first();
    await expectOnScreen(first, ['View images', 'Edit details', 'Print report', 'More actions']);
    await expectPinnedCellShadesWithRow(first);

    const signedRow = list.row(signedId);
    await signedRow
      .locator('td')
      .nth(await list.columnIndex('Patient'))
      .dblclick();
    await page.waitForURL(
      (url) => url.pathname.startsWith('/report-edit/') && url.pathname.endsWith(`/${signedId}`),
    );
    await eventually(() => page.getByTestId('report-status-line').innerText()).toMatch(/Signed off by/);
    await open.close();
    open = undefined;
  });

  it('the center with every column turned on: the actions stay pinned on screen', async () => {
    open = await openAt1280('center@demo.local', 'centerReportList');
    const { page } = open;
    const every = ['id', 'patient', 'patientId', 'age', 'studyName', 'imageCount', 'history', 'tag'];
    every.push('referral', 'status', 'reportStatus', 'studyDate', 'uploadedDate', 'assigned');
    every.push('signedOffDate', 'report', 'share', 'actions', 'uploadStudy');
    await saveColumns(page, 'centerReportList', every);
    const list = new StudyList(page);
    await list.open('/status');
    await list.filterBy('Patient', RUN, 2);
    const table = page.getByRole('table').first();
    // The table is wider than the screen now and scrolls in its own box, the page does not.
    expect(await scrollsSideways(table)).toEqual({ page: false, table: true });
    await expectOnScreen(list.rows.first(), ['View images', 'Edit details', 'Print report']);
    // Scrolled to the far end, the actions are still there, once.
    await table.evaluate((el) => el.parentElement!.scrollTo({ left: el.parentElement!.scrollWidth }));
    await expectOnScreen(list.rows.first(), ['View images', 'Edit details', 'Print report']);
    await saveColumns(page, 'centerReportList', null);
    await open.close();
    open = undefined;
  });

  it('the doctor: an Assigned column, actions on screen; a double click opens the report editor', async () => {
    open = await openAt1280('doctor@demo.local', 'studyList');
    const { page } = open;
    const list = new StudyList(page);
    await list.open('/');
    await list.filterBy('Patient', RUN, 2);
    expect(await list.columnLabels()).toContain('Assigned');
    const table = page.getByRole('table').first();
    expect(await scrollsSideways(table)).toEqual({ page: false, table: false });
    await expectOnScreen(list.rows.first(), ['View images', 'Open report', 'More actions']);

    const openRow = list.row(openId);
    await openRow
      .locator('td')
      .nth(await list.columnIndex('Patient'))
      .dblclick();
    await page.waitForURL(
      (url) => url.pathname.startsWith('/report-edit/') && url.pathname.endsWith(`/${openId}`),
    );
    await page.getByRole('textbox', { name: 'Report', exact: true }).waitFor();
    await open.close();
    open = undefined;
  });

  it('the admin and the assignor (with row checkboxes): the default columns fit, the actions on screen', async () => {
    for (const email of ['admin@demo.local', 'assignor@demo.local']) {
      open = await openAt1280(email, 'adminStudyList');
      const { page } = open;
      const list = new StudyList(page);
      await list.open('/');
      await list.filterBy('Patient', RUN, 2);
      expect(await scrollsSideways(page.getByRole('table').first()), email).toEqual({
        page: false,
        table: false,
      });
      await expectOnScreen(list.rows.first(), ['View images', 'Open report', 'Assign doctor']);
      await open.close();
      open = undefined;
    }
  });
});
