import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { studyEvents } from '../../db/schema.js';
import { recordStudyEvent } from './record-study-event.js';
import { type TestApp, createTestApp, createTestUser } from '../../../test/test-app.js';
import { createTestStudy, createTestWorld } from '../../../test/worklist-test-data.js';

/**
 * Issue 22 §2: recordStudyEvent is the one writer of study timeline rows. What it stores, and its
 * "unless one was written since" form (SHARE_OPENED per visitor and hour, FOREIGN_IMAGES_REFUSED
 * per hour), on the real database. The writers' own rows are asserted by their modules' tests.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function aRow() {
  const { group, center } = await createTestWorld(t.db);
  const { row } = await createTestStudy(t.db, { groupId: group.id, centerId: center.id });
  return { row, group, center };
}

const eventsOf = (reportStatusId: number) =>
  t.db
    .select()
    .from(studyEvents)
    .where(eq(studyEvents.reportStatusId, reportStatusId))
    .orderBy(asc(studyEvents.id));

describe('recordStudyEvent', () => {
  it('stores the type, the actor, the statuses, the detail and the time given', async () => {
    const { row, group, center } = await aRow();
    const user = await createTestUser(t.db, {
      groupId: group.id,
      centerId: center.id,
      roles: ['ROLE_ASSIGNOR'],
    });
    const at = new Date('2026-05-01T10:00:00.000Z');
    await recordStudyEvent(t.db, {
      type: 'ASSIGNED',
      reportStatusId: row.id,
      actor: { userId: user.id },
      fromStatus: 'HISTORY_CREATED',
      toStatus: 'HISTORY_CREATED',
      payload: { assignedTo: 'doc@example.test', previousAssignedToUserId: null },
      at,
    });
    await recordStudyEvent(t.db, {
      type: 'URGENT_MARKED',
      reportStatusId: row.id,
      actor: { label: 'DEMO_AE' },
      payload: null,
    });
    const [assigned, urgent] = await eventsOf(row.id);
    expect(assigned).toMatchObject({
      eventType: 'ASSIGNED',
      actorUserId: user.id,
      actorLabel: null,
      fromStatus: 'HISTORY_CREATED',
      toStatus: 'HISTORY_CREATED',
      detail: { assignedTo: 'doc@example.test', previousAssignedToUserId: null },
      createdAt: at,
    });
    expect(urgent).toMatchObject({
      eventType: 'URGENT_MARKED',
      actorUserId: null,
      actorLabel: 'DEMO_AE',
      fromStatus: null,
      toStatus: null,
      detail: null,
    });
    // No detail is SQL NULL (not a JSON null), and no time is the database's now.
    const [stored] = await t.db
      .select({
        detailIsNull: sql<boolean>`${studyEvents.detail} is null`,
        recent: sql<boolean>`${studyEvents.createdAt} > now() - interval '1 minute'`,
      })
      .from(studyEvents)
      .where(eq(studyEvents.id, urgent!.id));
    expect(stored).toEqual({ detailIsNull: true, recent: true });
  });

  it('with unlessSince writes once per window and detail value, and again after the window', async () => {
    const { row } = await aRow();
    const opened = (visitor: string, at: Date) =>
      recordStudyEvent(t.db, {
        type: 'SHARE_OPENED',
        reportStatusId: row.id,
        actor: { label: 'Share link' },
        fromStatus: 'SIGNED_OFF',
        toStatus: 'SIGNED_OFF',
        payload: { visitor },
        at,
        unlessSince: { since: new Date(at.getTime() - 3_600_000), sameDetail: 'visitor' },
      });
    const t0 = new Date('2026-05-01T10:00:00.000Z');
    const later = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
    await opened('a', t0);
    await opened('a', later(30)); // same visitor within the hour: nothing
    await opened('b', later(31)); // another visitor: written
    await opened('a', later(61)); // the hour has passed: written
    const events = await eventsOf(row.id);
    expect(events.map((e) => [e.detail, e.createdAt])).toEqual([
      [{ visitor: 'a' }, t0],
      [{ visitor: 'b' }, later(31)],
      [{ visitor: 'a' }, later(61)],
    ]);
    expect(events[0]).toMatchObject({
      eventType: 'SHARE_OPENED',
      actorUserId: null,
      actorLabel: 'Share link',
      fromStatus: 'SIGNED_OFF',
      toStatus: 'SIGNED_OFF',
    });
  });

  it("with a database-time window (the archive's refusals) writes one per type whatever the detail", async () => {
    const { row, center } = await aRow();
    const refused = (studyInstanceUid: string) =>
      recordStudyEvent(t.db, {
        type: 'FOREIGN_IMAGES_REFUSED',
        reportStatusId: row.id,
        actor: { label: 'Another center' },
        payload: { source: 'STOW', studyInstanceUid, centerId: center.id },
        unlessSince: { since: sql`now() - interval '1 hour'` },
      });
    await refused('1.2.3');
    await refused('1.2.4');
    await recordStudyEvent(t.db, {
      type: 'STUDY_CREATED',
      reportStatusId: row.id,
      actor: { label: 'Another center' },
      payload: { source: 'STOW', studyInstanceUid: '1.2.3' },
      unlessSince: { since: sql`now() - interval '1 hour'` },
    });
    const events = await t.db
      .select({ type: studyEvents.eventType, detail: studyEvents.detail })
      .from(studyEvents)
      .where(eq(studyEvents.reportStatusId, row.id))
      .orderBy(asc(studyEvents.id));
    expect(events).toEqual([
      {
        type: 'FOREIGN_IMAGES_REFUSED',
        detail: { source: 'STOW', studyInstanceUid: '1.2.3', centerId: center.id },
      },
      { type: 'STUDY_CREATED', detail: { source: 'STOW', studyInstanceUid: '1.2.3' } },
    ]);
  });
});
