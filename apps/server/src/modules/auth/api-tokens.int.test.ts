import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { API_TOKEN_TTL_DAYS, type TRole } from '@radflow/core';
import { apiTokens, devices, users } from '../../db/schema.js';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
  setGroupPreference,
  signIn,
} from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const signedIn = (roles: TRole[], opts: { groupId?: number; centerId?: number } = {}) =>
  signIn(t, { roles, ...opts });

async function mint(browser: TestClient): Promise<string> {
  const res = await browser.get('/api/user/token');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token as string;
}

/** A DICOMweb client: no cookie, its own address. */
const dicomClient = () => new TestClient(t.app);

describe('API tokens (issue: tokens are for DICOM clients)', () => {
  it('mints a different random token each time, stores only its hash, with an expiry', async () => {
    const { user, browser } = await signedIn(['ROLE_DOCTOR']);
    const first = await mint(browser);
    const second = await mint(browser);
    expect(first).not.toBe(second);
    expect(first).toMatch(/^rft_[A-Za-z0-9_-]{43}$/);
    const rows = await t.db.select().from(apiTokens).where(eq(apiTokens.userId, user.id));
    expect(rows).toHaveLength(2);
    const hashes = rows.map((r) => r.tokenHash);
    expect(hashes).toContain(createHash('sha256').update(first).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(first);
    for (const row of rows) {
      expect(row.deviceId).toBe(browser.deviceId);
      expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(API_TOKEN_TTL_DAYS * 86_400_000);
    }
  });

  it('opens the DICOMweb reads, and no other route answers to it', async () => {
    const { browser } = await signedIn(['ROLE_ADMIN']);
    const token = await mint(browser);
    const qido = await dicomClient().get('/api/dicomweb/studies', bearer(token));
    expect(qido.statusCode, qido.body).toBe(200);

    // Every operation of the API that wants a signed-in caller refuses the token (401 or 403).
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    let checked = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (path.startsWith('/api/dicomweb/')) continue;
      const url = path.replace(/\{[^}]+\}/g, '1');
      for (const method of Object.keys(operations)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        // The OpenAPI document does not offer the token there either.
        const security = (operations[method] as { security?: unknown[] }).security ?? [];
        expect(JSON.stringify(security), `${method} ${path}`).not.toContain('apiToken');
        const verb = method.toUpperCase() as 'GET';
        // With the device headers, so that a non-GET call reaches authentication (request-origin.ts
        // refuses it with 403 before that otherwise).
        const anonymous = await t.app.inject({
          method: verb,
          url,
          headers: { 'x-device-id': 'probe', 'x-device-name': 'probe' },
          remoteAddress: '10.200.0.1',
        });
        if (anonymous.statusCode !== 401) continue;
        const withToken = await t.app.inject({
          method: verb,
          url,
          headers: bearer(token),
          remoteAddress: '10.200.0.1',
        });
        expect([401, 403], `${method} ${url}: ${withToken.body}`).toContain(withToken.statusCode);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('stores (STOW) only for a role that stores studies', async () => {
    const group = await createTestGroup(t.db);
    const center = await createTestCenter(t.db, { groupId: group.id });
    const stow = (token: string) =>
      dicomClient().request({
        method: 'POST',
        url: '/api/dicomweb/studies',
        headers: {
          ...bearer(token),
          'content-type': 'multipart/related; type="application/dicom"; boundary=B',
        },
        payload: '--B--\r\n',
      });
    const doctor = await signedIn(['ROLE_DOCTOR'], { groupId: group.id });
    expect((await stow(await mint(doctor.browser))).statusCode).toBe(403);
    const uploader = await signedIn(['ROLE_CENTER'], { groupId: group.id, centerId: center.id });
    const stored = await stow(await mint(uploader.browser));
    expect([401, 403]).not.toContain(stored.statusCode);
  });

  it('cannot be minted by customers and viewers (403)', async () => {
    for (const role of ['ROLE_CUSTOMER', 'ROLE_VIEWER'] as const) {
      const { browser } = await signedIn([role]);
      const res = await browser.get('/api/user/token');
      expect(res.statusCode, role).toBe(403);
    }
  });

  it('cannot mint another token with a token', async () => {
    const { browser } = await signedIn(['ROLE_DOCTOR']);
    const token = await mint(browser);
    expect((await dicomClient().get('/api/user/token', bearer(token))).statusCode).toBe(401);
  });

  it('expires', async () => {
    const { browser } = await signedIn(['ROLE_DOCTOR']);
    const token = await mint(browser);
    const ttl = API_TOKEN_TTL_DAYS * 86_400 + 1;
    t.clock.advance(ttl);
    try {
      expect((await dicomClient().get('/api/dicomweb/studies', bearer(token))).statusCode).toBe(401);
    } finally {
      t.clock.advance(-ttl);
    }
  });

  it('is listed to its owner and revoked by them, not by anyone else', async () => {
    const { browser } = await signedIn(['ROLE_DOCTOR']);
    const token = await mint(browser);
    const list = await browser.get('/api/user/token/list');
    expect(list.statusCode).toBe(200);
    const [entry] = list.json();
    expect(list.json()).toHaveLength(1);
    expect(entry).toMatchObject({ id: expect.any(Number), hint: token.slice(0, 8), lastUsedAt: null });
    expect(JSON.stringify(list.json())).not.toContain(token);

    await dicomClient().get('/api/dicomweb/studies', bearer(token));
    expect((await browser.get('/api/user/token/list')).json()[0].lastUsedAt).not.toBeNull();

    const other = await signedIn(['ROLE_DOCTOR']);
    expect((await other.browser.get('/api/user/token/list')).json()).toEqual([]);
    const stolen = await other.browser.request({
      method: 'DELETE',
      url: `/api/user/token/delete/${entry.id}`,
    });
    expect(stolen.statusCode).toBe(404);
    expect((await dicomClient().get('/api/dicomweb/studies', bearer(token))).statusCode).toBe(200);

    const revoked = await browser.request({ method: 'DELETE', url: `/api/user/token/delete/${entry.id}` });
    expect(revoked.statusCode).toBe(200);
    expect((await dicomClient().get('/api/dicomweb/studies', bearer(token))).statusCode).toBe(401);
    expect((await browser.get('/api/user/token/list')).json()).toEqual([]);
  });

  it('dies with its device (the admin rejects it) and with the account (deactivated)', async () => {
    const group = await createTestGroup(t.db);
    await setGroupPreference(t.db, group.id, 'ADMIN_PREFERENCES', { enableLoginAuditLogs: true });
    const { browser: admin } = await signIn(t, { groupId: group.id, roles: ['ROLE_GROUP'] });

    const doctor = await createTestUser(t.db, { groupId: group.id, roles: ['ROLE_DOCTOR'] });
    const laptop = new TestClient(t.app);
    const phone = new TestClient(t.app);
    for (const device of [laptop, phone]) {
      await device.login(doctor.email, doctor.password);
      await t.db.update(devices).set({ status: 'APPROVED' }).where(eq(devices.deviceId, device.deviceId));
      expect((await device.login(doctor.email, doctor.password)).statusCode).toBe(200);
    }
    const laptopToken = await mint(laptop);
    const phoneToken = await mint(phone);

    const rejected = await admin.post('/api/user/audit/update-approval-status', {
      status: 'REJECTED',
      deviceId: laptop.deviceId,
      email: doctor.email,
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect((await dicomClient().get('/api/dicomweb/studies', bearer(laptopToken))).statusCode).toBe(401);
    expect((await dicomClient().get('/api/dicomweb/studies', bearer(phoneToken))).statusCode).toBe(200);

    await t.db.update(users).set({ active: false }).where(eq(users.id, doctor.id));
    expect((await dicomClient().get('/api/dicomweb/studies', bearer(phoneToken))).statusCode).toBe(401);
  });

  it('a password change revokes every token of the user', async () => {
    const { user, browser } = await signedIn(['ROLE_DOCTOR']);
    const token = await mint(browser);
    const changed = await browser.post('/api/user-create/update-password', {
      currentPassword: user.password,
      newPassword: 'a-new-password-of-mine',
    });
    expect(changed.statusCode).toBe(200);
    expect((await dicomClient().get('/api/dicomweb/studies', bearer(token))).statusCode).toBe(401);
  });
});
