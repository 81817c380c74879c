import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TDashboard, calendarDayIn } from '@radflow/core';
import type { TBrowserSession } from '../support/browser.js';
import { DashboardScreen } from '../support/dashboards.js';
import { eventually } from '../support/pages.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

/**
 * Issue 24 §3 and §6: the dashboard viewer's dashboard shows non-empty charts whose numbers are the
 * API's, and a bar opens the list of the studies behind it.
 */

const tag = uniqueTag();
let viewer: TBrowserSession;
beforeAll(async () => {
  // Two studies uploaded today at the demo center, so today's bar is there whatever ran before.
  const center = await openSignedIn('center@demo.local', { home: false });
  try {
    await createStudiesViaApi(center.page, [`DASH${tag}^ONE`, `DASH${tag}^TWO`]);
  } finally {
    await center.close();
  }
  viewer = await openSignedIn('dashboard-viewer@demo.local', { home: false });
});
afterAll(() => viewer?.close());

describe('the dashboard viewer’s dashboard (issue 24 §3)', () => {
  it("shows the API's numbers in non-empty charts, and a bar lists the studies behind it", async () => {
    // The demo group's zone is the spec's +05:30: the last seven of its days.
    const now = Date.now();
    const today = calendarDayIn(new Date(now), 'Asia/Kolkata');
    const startTime = calendarDayIn(new Date(now - 6 * 24 * 3600 * 1000), 'Asia/Kolkata');
    const range = { startTime, endTime: today };

    const res = await viewer.page.request.get(`/api/dashboard?startTime=${startTime}&endTime=${today}`);
    expect(res.status(), await res.text()).toBe(200);
    const api = (await res.json()) as TDashboard;
    const todayUploaded = api.byDay.find((d) => d.day === today)?.uploaded ?? 0;
    expect(todayUploaded).toBeGreaterThanOrEqual(2);

    const screen = new DashboardScreen(viewer.page);
    await screen.open('/admin-page/dashboard', range);
    await screen.total('Uploaded', String(api.uploaded)).waitFor();
    await screen.total('Open now', String(api.open)).waitFor();
    await screen.total('Signed off', String(api.turnaround.signedOff)).waitFor();
    // The charts are drawn: today's uploads are a bar.
    await eventually(() => screen.bars('Volumes by day', 'uploaded').count()).toBeGreaterThan(0);
    await eventually(() => screen.bars('Uploaded by modality', 'uploaded').count()).toBeGreaterThan(0);

    // Today is the last day of the range: the last bar of the uploaded series.
    await screen.bars('Volumes by day', 'uploaded').last().click();
    const dialog = screen.drillDown(`Uploaded — ${today}`);
    await dialog.getByText(`${todayUploaded} studies`, { exact: false }).waitFor();
    // The dashboard viewer reads which studies, not whose: the list has no patient column.
    expect(await dialog.getByRole('columnheader', { name: 'Patient' }).count()).toBe(0);
    await eventually(() => dialog.locator('[data-study-row]').count()).toBe(Math.min(todayUploaded, 20));
  });
});
