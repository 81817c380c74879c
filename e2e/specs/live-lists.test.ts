import { afterEach, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { StudyList } from '../support/pages.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

const RUN = uniqueTag();

/**
 * Issue 23 §4: an open list updates itself when a study changes elsewhere, over the tab's live
 * stream. The wait is far below the list's 25 s auto refresh, which restarts when the filter
 * changes the list's query: without the stream the cell would not change in time.
 */
describe('Live lists', () => {
  const sessions: TBrowserSession[] = [];
  afterEach(async () => {
    for (const session of sessions.splice(0)) await session.close();
  });

  it("an assignment made by the admin shows in the assignor's open list within seconds", async () => {
    const patient = `E2E Live ${RUN}`;
    const center = await openSignedIn('center@demo.local', { home: false });
    sessions.push(center);
    const [id] = await createStudiesViaApi(center.page, [patient]);

    // Open before the list is filtered: the assignment follows the filter's fetch at once.
    const admin = await openSignedIn('admin@demo.local', { home: false });
    sessions.push(admin);
    const assignor = await openSignedIn('assignor@demo.local');
    sessions.push(assignor);
    const list = new StudyList(assignor.page);
    await list.waitUntilLoaded();
    await list.filterBy('Patient', patient, 1);
    const row = list.row(patient);
    expect(await list.cellText(row, 'Assigned')).toBe('—');

    const assigned = await admin.page.request.post('/api/report-status/assign', {
      data: { reportId: id, assignedTo: 'doctor@demo.local' },
    });
    expect(assigned.status(), await assigned.text()).toBe(200);

    await expect
      .poll(() => list.cellText(row, 'Assigned'), { timeout: 5_000, interval: 100 })
      .toMatch(/Demo Doctor|doctor@demo\.local/);
  });
});
