import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRole } from '@radflow/core';
import type { TestClient } from '../../../test/test-app.js';
import { type TestApp, createTestApp, setGroupPreference, signIn } from '../../../test/test-app.js';
import { createTestStudy, createTestWorld } from '../../../test/worklist-test-data.js';

/**
 * spec-core §6 "Assignors with showActiveInViewer see the top 3 recently active viewer users
 * (userEmail, lastActive)": the viewer's heartbeat records who has a study open; the assignor's list
 * asks who was last active on the rows it shows.
 */

let t: TestApp;
let world: Awaited<ReturnType<typeof createTestWorld>>;
let studyId = 0;
let otherStudyId = 0;
let foreignStudyId = 0;

async function signedIn(roles: TRole[], groupId = world.group.id) {
  const { user, browser } = await signIn(t, { roles, groupId, centerId: null });
  return { user, client: browser };
}

const beat = (client: TestClient, id: number) => client.post(`/api/viewer/${id}/activity`);
const activeUsers = (client: TestClient, ids: number[]) => client.post('/api/viewer/active-users', { ids });

beforeAll(async () => {
  t = await createTestApp();
  world = await createTestWorld(t.db, { showActiveInViewer: true });
  const study = (groupId: number, centerId: number) =>
    createTestStudy(t.db, {
      groupId,
      centerId,
      row: { lastUploadCompletedAt: new Date('2026-11-20T10:00:00Z') },
    });
  studyId = (await study(world.group.id, world.center.id)).row.id;
  otherStudyId = (await study(world.group.id, world.center.id)).row.id;
  const elsewhere = await createTestWorld(t.db, { showActiveInViewer: true });
  foreignStudyId = (await study(elsewhere.group.id, elsewhere.center.id)).row.id;
});
afterAll(() => t.close());

describe('viewer activity', () => {
  it('lists the three users most recently active on each study, newest first, for an assignor', async () => {
    const { client: assignor } = await signedIn(['ROLE_ASSIGNOR']);
    const readers = [];
    for (let i = 0; i < 4; i += 1) readers.push(await signedIn(['ROLE_ASSIGNOR']));
    for (const reader of readers) expect((await beat(reader.client, studyId)).statusCode).toBe(204);
    // The first reader comes back: now the most recent; the second is the oldest and drops out.
    expect((await beat(readers[0]!.client, studyId)).statusCode).toBe(204);

    const res = await activeUsers(assignor, [studyId, otherStudyId]);
    expect(res.statusCode).toBe(200);
    const { enabled, activeUsers: byId } = res.json() as {
      enabled: boolean;
      activeUsers: Record<string, { userEmail: string; lastActive: string }[]>;
    };
    expect(enabled).toBe(true);
    expect(Object.keys(byId)).toEqual([String(studyId)]);
    const shown = byId[String(studyId)]!;
    expect(shown.map((a) => a.userEmail)).toEqual([
      readers[0]!.user.email,
      readers[3]!.user.email,
      readers[2]!.user.email,
    ]);
    expect(Date.parse(shown[0]!.lastActive)).toBeGreaterThanOrEqual(Date.parse(shown[1]!.lastActive));
  });

  it('never shows activity on another group’s study, and refuses a heartbeat on a study the caller cannot see', async () => {
    const { client: assignor } = await signedIn(['ROLE_ASSIGNOR']);
    const stranger = await signedIn(['ROLE_ASSIGNOR']);
    expect((await beat(stranger.client, foreignStudyId)).statusCode).toBe(404);
    const res = await activeUsers(assignor, [foreignStudyId]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ enabled: true, activeUsers: {} });
  });

  it('is for assignors (403 for other roles); with the switch off it says so and shows no one', async () => {
    const { client: doctor } = await signedIn(['ROLE_DOCTOR']);
    expect((await activeUsers(doctor, [studyId])).statusCode).toBe(403);

    const { client: assignor } = await signedIn(['ROLE_ASSIGNOR']);
    expect((await beat(assignor, studyId)).statusCode).toBe(204);
    await setGroupPreference(t.db, world.group.id, 'GROUP_SWITCHES', { showActiveInViewer: false });
    try {
      const res = await activeUsers(assignor, [studyId]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ enabled: false, activeUsers: {} });
    } finally {
      await setGroupPreference(t.db, world.group.id, 'GROUP_SWITCHES', { showActiveInViewer: true });
    }
  });

  it('answers 400 for a body that is not a list of row ids', async () => {
    const { client: assignor } = await signedIn(['ROLE_ASSIGNOR']);
    expect((await assignor.post('/api/viewer/active-users', { ids: ['x'] })).statusCode).toBe(400);
    expect((await assignor.post('/api/viewer/active-users', { ids: Array(101).fill(1) })).statusCode).toBe(
      400,
    );
    expect((await beat(assignor, 0)).statusCode).toBe(400);
  });
});
