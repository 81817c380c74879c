import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokenFor } from '../../../test/api-token.helpers.js';
import { type TestApp, createTestApp, createTestUser, createTestWorld } from '../../../test/test-app.js';
import { MESSAGE_NOT_ALLOWED } from '../../plugins/auth.js';
import { messageNoRouterRelease } from './router-releases.routes.js';

/*
 * Issue 27 §5: the installed router checks for and downloads its updates with the center's API token
 * (ROUTER_API_TOKEN), the only cloud credential it keeps. So the two release routes take a token as
 * the DICOMweb routes do — still center only — and every other route still refuses one.
 */

let t: TestApp;
let dir: string;
let centerToken: string;
let doctorToken: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'router-token-'));
  t = await createTestApp({ routerReleasesDir: dir });
  const world = await createTestWorld(t.db);
  const center = await createTestUser(t.db, {
    roles: ['ROLE_CENTER'],
    groupId: world.group.id,
    centerId: world.center.id,
  });
  const doctor = await createTestUser(t.db, { roles: ['ROLE_DOCTOR'], groupId: world.group.id });
  centerToken = await apiTokenFor(t, center);
  doctorToken = await apiTokenFor(t, doctor);
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("the router's API token on the release routes", () => {
  it("a center's token is accepted on /api/router/latest and /api/router/download", async () => {
    for (const url of ['/api/router/latest?platform=linux', '/api/router/download?platform=linux']) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(centerToken) });
      // No release in the folder: the token passed, the route itself answers.
      expect(res.statusCode, `${url} ${res.body}`).toBe(404);
      expect(res.json()).toMatchObject({ errorDescription: messageNoRouterRelease('linux') });
    }
  });

  it("another role's token is 403, as its session would be", async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/router/latest?platform=linux',
      headers: bearer(doctorToken),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errorDescription: MESSAGE_NOT_ALLOWED });
  });

  it('the token still opens no other route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user/token', headers: bearer(centerToken) });
    expect(res.statusCode).toBe(401);
  });
});
