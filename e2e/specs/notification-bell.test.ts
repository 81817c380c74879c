import { afterEach, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { eventually } from '../support/pages.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

/**
 * Issue 23 §7: the bell counts an assignment made by the assignor and clears when the doctor reads
 * it (the notification's click opens the study and marks it read).
 */
describe('The notification bell', () => {
  const sessions: TBrowserSession[] = [];
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.close();
  });

  it('counts an assignment for the doctor and clears when the doctor reads it', async () => {
    const patient = `E2E Bell ${uniqueTag()}`;
    const center = await openSignedIn('center@demo.local', { home: false });
    sessions.push(center);
    const [reportId] = await createStudiesViaApi(center.page, [patient]);

    const doctor = await openSignedIn('doctor@demo.local');
    sessions.push(doctor);
    const bell = doctor.page.getByRole('button', { name: 'Notifications' });
    // What other stories left for the demo doctor is read first: this story counts from zero.
    expect((await doctor.page.request.post('/api/notifications/all-seen')).status()).toBe(200);

    const assignor = await openSignedIn('assignor@demo.local', { home: false });
    sessions.push(assignor);
    const assigned = await assignor.page.request.post('/api/report-status/assign', {
      data: { reportId, assignedTo: 'doctor@demo.local' },
    });
    expect(assigned.status(), await assigned.text()).toBe(200);

    // The list refetches every 25 s (the live stream makes it sooner); a reload reads it now.
    await doctor.page.reload();
    await eventually(() => bell.getAttribute('title')).toBe('Notifications: 1 unread');
    await bell.click();
    const list = doctor.page.getByRole('region', { name: 'Notification list' });
    const item = list.getByRole('button', { name: new RegExp(`Assigned to you.*${patient}`) });
    await item.click();
    await doctor.page.waitForURL((url) => url.pathname.startsWith('/viewer/'));
    expect(doctor.page.url()).toContain(`/${reportId}?`);

    await doctor.page.goBack();
    await eventually(() => bell.getAttribute('title')).toBe('Notifications');
  });
});
