import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studyScopeOf } from '@radflow/core';
import { type TTestUser, type TestApp, createTestApp, createTestUser } from '../../../test/test-app.js';
import { createTestStudies, createTestWorld } from '../../../test/worklist-test-data.js';
import { reportStatuses } from '../../db/schema.js';
import { rolesOf } from '../current-user/current-user.js';
import { type TFeedRow, eventsBySubscriber } from './live-feed.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('eventsBySubscriber (who receives a batch of events)', () => {
  it('asks the access rule for many scopes in a few statements and gives each doctor only their own row', async () => {
    const world = await createTestWorld(t.db);
    const other = await createTestWorld(t.db);
    // More doctors than one statement's 50 scopes, each assigned one row.
    const doctors = await Promise.all(
      Array.from({ length: 60 }, () =>
        createTestUser(t.db, { roles: ['ROLE_DOCTOR'], groupId: world.group.id }),
      ),
    );
    const made = await createTestStudies(t.db, doctors.length, {
      groupId: world.group.id,
      centerId: world.center.id,
      row: { status: 'REPORTED' },
    });
    const rows: TFeedRow[] = [];
    for (const [i, { row }] of made.entries()) {
      await t.db
        .update(reportStatuses)
        .set({ assignedToUserId: doctors[i]!.id })
        .where(eq(reportStatuses.id, row.id));
      rows.push({
        id: 1_000 + i,
        reportStatusId: row.id,
        type: 'ASSIGNED',
        groupId: world.group.id,
        actorUserId: null,
        createdAt: new Date(),
        assignedBefore: null,
        chatMessageId: null,
      });
    }
    const subscriberOf = (user: TTestUser) => ({
      userId: user.id,
      scope: studyScopeOf({ ...user, roles: rolesOf(user), mobileNumber: null, email: null }),
    });
    const doctorSubscribers = doctors.map((d) => subscriberOf(d));
    const admin = subscriberOf(
      await createTestUser(t.db, { roles: ['ROLE_ADMIN'], groupId: world.group.id }),
    );
    const stranger = subscriberOf(
      await createTestUser(t.db, { roles: ['ROLE_ADMIN'], groupId: other.group.id }),
    );
    // The doctor a row was taken from gets that row's event though the rule no longer shows it.
    const formerDoctor = subscriberOf(
      await createTestUser(t.db, { roles: ['ROLE_DOCTOR'], groupId: world.group.id }),
    );
    rows[0] = { ...rows[0]!, assignedBefore: { userId: formerDoctor.userId } };

    const shares = await eventsBySubscriber(t.db, rows, [
      ...doctorSubscribers,
      admin,
      stranger,
      formerDoctor,
    ]);
    for (const [i, doctor] of doctorSubscribers.entries()) {
      expect(
        shares.get(doctor)?.map((e) => e.reportStatusId),
        `doctor ${i}`,
      ).toEqual([made[i]!.row.id]);
    }
    expect(shares.get(admin)).toHaveLength(doctors.length);
    expect(shares.get(stranger)).toBeUndefined();
    expect(shares.get(formerDoctor)?.map((e) => e.reportStatusId)).toEqual([made[0]!.row.id]);
  });
});
