import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_WINDOW_DAYS, type TNotificationsPage } from '@radflow/core';
import { notificationSeen, studyEvents } from '../../db/schema.js';
import { type TestApp, type TestClient, createTestApp } from '../../../test/test-app.js';
import { createTestStudy, createTwoWorlds } from '../../../test/worklist-test-data.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { pruneSeenNotifications } from './seen-prune.js';

/*
 * A seen mark is read only while its event is inside the bell's window (NOTIFICATION_WINDOW_DAYS);
 * past it the row is never read again, so the sweep deletes it and nothing a user sees changes.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY_MS = 24 * 3600 * 1000;

async function bell(browser: TestClient): Promise<TNotificationsPage> {
  const res = await browser.get('/api/notifications');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TNotificationsPage>();
}

describe('pruning seen notifications', () => {
  it('deletes the seen marks of events past the window and keeps the rest, with the bell unchanged', async () => {
    const w = await createTwoWorlds(t, { assignor: ['ROLE_ASSIGNOR'], doctor: ['ROLE_DOCTOR'] }, {});
    const { row } = await createTestStudy(t.db, {
      groupId: w.group.id,
      centerId: w.center.id,
      row: { status: 'HISTORY_CREATED', assignedToUserId: w.doctor.user.id },
    });
    const now = t.app.ctx.now().getTime();
    const event = (daysAgo: number) =>
      recordStudyEvent(t.db, {
        reportStatusId: row.id,
        type: 'ASSIGNED',
        actor: { userId: w.assignor.user.id },
        payload: { assignedTo: w.doctor.user.email, previousAssignedToUserId: null },
        at: new Date(now - daysAgo * DAY_MS),
      });
    await event(NOTIFICATION_WINDOW_DAYS + 5); // past the window: never listed
    await event(NOTIFICATION_WINDOW_DAYS - 1); // inside it, near the edge
    await event(0);
    const all = await t.db
      .select()
      .from(notificationSeen)
      .where(eq(notificationSeen.userId, w.doctor.user.id));
    expect(all).toHaveLength(0);
    expect((await w.doctor.browser.post('/api/notifications/all-seen', {})).statusCode).toBe(200);
    const before = await bell(w.doctor.browser);
    expect(before.unseen).toBe(0);
    const seenIds = async () =>
      (await t.db.select().from(notificationSeen).where(eq(notificationSeen.userId, w.doctor.user.id)))
        .map((s) => s.studyEventId)
        .sort((a, b) => a - b);
    const inWindow = await seenIds();
    expect(inWindow).toHaveLength(2);

    // One more seen mark for the old event, as if written while it was still in the window.
    const [old] = await t.db
      .select({ id: studyEvents.id })
      .from(studyEvents)
      .where(eq(studyEvents.reportStatusId, row.id))
      .orderBy(asc(studyEvents.createdAt))
      .limit(1);
    await t.db.insert(notificationSeen).values({ userId: w.doctor.user.id, studyEventId: old!.id });

    expect(await pruneSeenNotifications(t.app.ctx)).toBe(1);
    expect(await seenIds()).toEqual(inWindow);
    expect(await bell(w.doctor.browser)).toEqual(before);

    // Time moves on: the edge event leaves the window and its mark goes too.
    t.clock.advance(2 * 24 * 3600);
    expect(await pruneSeenNotifications(t.app.ctx)).toBe(1);
    expect(await seenIds()).toEqual(inWindow.slice(1));
  });
});
