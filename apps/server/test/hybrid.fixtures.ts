import { expect } from 'vitest';
import { OFFLINE_REPORT_GRANT_PATH } from '@radflow/core';
import { apiTokenFor } from './api-token.helpers.js';
import { createTestUser, createTestWorld, signInAs, type TestApp, type TTestUser } from './test-app.js';
import { createTestStudy } from './worklist-test-data.js';

/**
 * The cloud's side of the router's offline hybrid (modules/hybrid-reports): a center with the API
 * token its router uploads with, a hybrid doctor with the grant of their online sign-in on that
 * router, and a study of the center in the cloud.
 */
export function hybridFixtures(getApp: () => TestApp) {
  /** What the router gets for a hybrid doctor's online sign-in: a grant, asked with their own session. */
  async function grantOf(user: TTestUser): Promise<string> {
    const browser = await signInAs(getApp(), user);
    const res = await browser.post(OFFLINE_REPORT_GRANT_PATH);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { grant: string }).grant;
  }

  async function hybridWorld() {
    const t = getApp();
    const world = await createTestWorld(t.db);
    const center = await createTestUser(t.db, {
      roles: ['ROLE_CENTER'],
      groupId: world.group.id,
      centerId: world.center.id,
    });
    const token = await apiTokenFor(t, center);
    const author = await createTestUser(t.db, {
      roles: ['ROLE_DOCTOR'],
      groupId: world.group.id,
      hybridModeOn: true,
    });
    const grant = await grantOf(author);
    const { study, row } = await createTestStudy(t.db, {
      groupId: world.group.id,
      centerId: world.center.id,
    });
    return { world, center, token, author, grant, study, row };
  }

  return { hybridWorld, grantOf };
}

export type THybridWorld = Awaited<ReturnType<ReturnType<typeof hybridFixtures>['hybridWorld']>>;
