import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRouterCloudSettings } from '@radflow/core';
import { apiTokenFor } from '../../../test/api-token.helpers.js';
import {
  type TestApp,
  createTestApp,
  createTestUser,
  createTestWorld,
  setGroupPreference,
} from '../../../test/test-app.js';

/*
 * issue 29 §6: the group switches a center's router follows (removeCenterNameWhileUploading,
 * sendCapabilityAtCenter) reach it through GET /api/router/settings, read with the center's API
 * token like its update check.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function centerToken(flags: Record<string, boolean> = {}) {
  const world = await createTestWorld(t.db, flags);
  const center = await createTestUser(t.db, {
    roles: ['ROLE_CENTER'],
    groupId: world.group.id,
    centerId: world.center.id,
  });
  return { world, token: await apiTokenFor(t, center) };
}

const read = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/router/settings', headers: { authorization: `Bearer ${token}` } });

describe("the router's settings from the cloud", () => {
  it("answers the group's two router switches to the center's token, and follows a change", async () => {
    const { world, token } = await centerToken({ removeCenterNameWhileUploading: true });
    const first = await read(token);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<TRouterCloudSettings>()).toEqual({
      removeCenterNameWhileUploading: true,
      sendCapabilityAtCenter: false,
    });
    await setGroupPreference(t.db, world.group.id, 'USER_ADMIN_VISIBLE_PREFERENCES', {
      removeCenterNameWhileUploading: false,
      sendCapabilityAtCenter: true,
    });
    expect((await read(token)).json<TRouterCloudSettings>()).toEqual({
      removeCenterNameWhileUploading: false,
      sendCapabilityAtCenter: true,
    });
  });

  it("refuses another role's token (403) and no token (401)", async () => {
    const world = await createTestWorld(t.db);
    const doctor = await createTestUser(t.db, { roles: ['ROLE_DOCTOR'], groupId: world.group.id });
    expect((await read(await apiTokenFor(t, doctor))).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/router/settings' })).statusCode).toBe(401);
  });
});
