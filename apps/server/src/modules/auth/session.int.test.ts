import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SESSION_COOKIE_NAME, SESSION_TTL_HOURS } from '@radflow/core';
import { loginEvents, sessions } from '../../db/schema.js';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestUser,
  setGroupPreference,
} from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('sign-in and session', () => {
  it('signs in with the form fields email and password, the identifier trimmed and lower-cased', async () => {
    const user = await createTestUser(t.db, { roles: ['ROLE_DOCTOR'] });
    const browser = new TestClient(t.app);
    const res = await browser.request({
      method: 'POST',
      url: '/api/do-login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${encodeURIComponent(`  ${user.email.toUpperCase()} `)}&password=${user.password}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      email: user.email,
      roles: ['ROLE_DOCTOR'],
      identifier: user.identifier,
    });

    const me = await browser.get('/api/user/');
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(user.email);
  });

  it('signs in with JSON and sets an httpOnly, SameSite=Lax, expiring session cookie; Secure only over https', async () => {
    const user = await createTestUser(t.db);
    const res = await new TestClient(t.app).login(user.email, user.password);
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE_NAME);
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      maxAge: SESSION_TTL_HOURS * 3600,
    });
    expect(cookie?.secure).toBeFalsy();

    const https = await new TestClient(t.app, { address: '127.0.0.1' }).post(
      '/api/do-login',
      { email: user.email, password: user.password },
      { 'x-forwarded-proto': 'https' },
    );
    expect(https.cookies.find((c) => c.name === SESSION_COOKIE_NAME)?.secure).toBe(true);
  });

  it('answers a wrong password with 401 and the error body, the same for an unknown account', async () => {
    const user = await createTestUser(t.db);
    const wrong = await new TestClient(t.app).login(user.email, 'not-the-password');
    expect(wrong.statusCode).toBe(401);
    const body = wrong.json();
    expect(body).toEqual({
      errorStatusCode: 401,
      errorDescription: 'Invalid credentials',
      additionalInfo: null,
      txnId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(wrong.headers['x-request-id']).toBe(body.txnId);

    const unknown = await new TestClient(t.app).login('nobody@test.local', 'whatever');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().errorDescription).toBe('Invalid credentials');

    const [event] = await t.db.select().from(loginEvents).where(eq(loginEvents.email, 'nobody@test.local'));
    expect(event).toMatchObject({ eventType: 'LOGIN_FAILED', userId: null });
  });

  it('refuses an inactive account with the same 401', async () => {
    const user = await createTestUser(t.db, { active: false });
    const res = await new TestClient(t.app).login(user.email, user.password);
    expect(res.statusCode).toBe(401);
    expect(res.json().errorDescription).toBe('Invalid credentials');
  });

  it('rotates the session at sign-in: the old cookie stops working', async () => {
    const user = await createTestUser(t.db);
    const browser = new TestClient(t.app);
    await browser.login(user.email, user.password);
    const first = browser.cookie;
    await browser.login(user.email, user.password);
    expect(browser.cookie).not.toBe(first);

    const stale = new TestClient(t.app);
    stale.cookie = first;
    expect((await stale.get('/api/user/')).statusCode).toBe(401);
    expect((await browser.get('/api/user/')).statusCode).toBe(200);
    // Only the session's hash is stored.
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.id).not.toBe(browser.cookie);
  });

  it('signs out: the session ends, the cookie is cleared, and the audit log says so', async () => {
    const user = await createTestUser(t.db);
    const browser = new TestClient(t.app);
    await browser.login(user.email, user.password);
    const token = browser.cookie;
    const out = await browser.post('/api/do-logout');
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ok: true });
    expect(browser.cookie).toBeNull();

    const replay = new TestClient(t.app);
    replay.cookie = token;
    const me = await replay.get('/api/user/');
    expect(me.statusCode).toBe(401);
    expect(me.json().errorDescription).toBe('Please login again');

    const events = await t.db.select().from(loginEvents).where(eq(loginEvents.userId, user.id));
    expect(events.map((e) => e.eventType)).toEqual(expect.arrayContaining(['LOGIN_SUCCESS', 'LOGOUT']));
  });

  it('answers sign-out without a session with 200 too, also with an empty JSON body', async () => {
    const res = await new TestClient(t.app).post('/api/do-logout', undefined, {
      'content-type': 'application/json',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });

  it('expires sessions after SESSION_TTL_HOURS', async () => {
    const user = await createTestUser(t.db);
    const browser = new TestClient(t.app);
    await browser.login(user.email, user.password);
    t.clock.advance(SESSION_TTL_HOURS * 3600 + 1);
    try {
      expect((await browser.get('/api/user/')).statusCode).toBe(401);
    } finally {
      t.clock.advance(-(SESSION_TTL_HOURS * 3600 + 1));
    }
  });

  it('requires a session for the user calls', async () => {
    for (const url of [
      '/api/user/',
      '/api/user/preference',
      '/api/user/group-preferences',
      '/api/user/mapping',
      '/api/user/token',
      '/api/user/audit',
    ]) {
      const res = await new TestClient(t.app).get(url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().errorDescription).toBe('Please login again');
    }
  });
});

describe('GET /api/user/', () => {
  it('answers the current user with roles sorted reverse-alphabetically', async () => {
    const user = await createTestUser(t.db, {
      roles: ['ROLE_ADMIN', 'ROLE_VERIFIER', 'ROLE_DOCTOR'],
      proxyUrl: 'https://proxy.test.local',
    });
    const browser = new TestClient(t.app);
    await browser.login(user.email, user.password);
    const body = (await browser.get('/api/user')).json();
    expect(body).toEqual({
      email: user.email,
      roles: ['ROLE_VERIFIER', 'ROLE_DOCTOR', 'ROLE_ADMIN'],
      identifier: user.identifier,
      chatUidHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      proxyUrl: 'https://proxy.test.local',
      hybridModeOn: false,
      active: true,
      centerId: null,
      support: { phone: null, email: null },
      answersSupport: false,
    });
    // Stable per user, different between users.
    const again = (await browser.get('/api/user/')).json();
    expect(again.chatUidHash).toBe(body.chatUidHash);
    const other = await createTestUser(t.db);
    const otherBrowser = new TestClient(t.app);
    await otherBrowser.login(other.email, other.password);
    expect((await otherBrowser.get('/api/user/')).json().chatUidHash).not.toBe(body.chatUidHash);
  });

  it('replaces the roles by ROLE_OFFLINE_HYBRID when hybridModeOn', async () => {
    const user = await createTestUser(t.db, { roles: ['ROLE_CENTER', 'ROLE_DOCTOR'], hybridModeOn: true });
    const browser = new TestClient(t.app);
    await browser.login(user.email, user.password);
    expect((await browser.get('/api/user/')).json()).toMatchObject({
      roles: ['ROLE_OFFLINE_HYBRID'],
      hybridModeOn: true,
    });
  });

  it("carries the deployment's support contact (config SUPPORT_PHONE / SUPPORT_EMAIL), also at sign-in", async () => {
    const configured = await createTestApp({
      support: { phone: '+91 80 4000 1234', email: 'help@radflow.example' },
    });
    try {
      const user = await createTestUser(configured.db);
      const browser = new TestClient(configured.app);
      const login = await browser.post('/api/do-login', { email: user.email, password: user.password });
      const support = { phone: '+91 80 4000 1234', email: 'help@radflow.example' };
      expect(login.json()).toMatchObject({ support });
      expect((await browser.get('/api/user/')).json()).toMatchObject({ support });
    } finally {
      await configured.close();
    }
  });
});

describe('GET /api/user/group-preferences', () => {
  it("answers the group's four sections with its stored switches, and nothing of the user's", async () => {
    const assignor = await createTestUser(t.db, { roles: ['ROLE_ASSIGNOR'] });
    await setGroupPreference(t.db, assignor.groupId, 'GROUP_SWITCHES', {
      enableAuditorAssignmentFeature: true,
    });
    await setGroupPreference(t.db, assignor.groupId, 'ADMIN_PREFERENCES', { signOffTimeLimit: 60 });
    const browser = new TestClient(t.app);
    await browser.login(assignor.email, assignor.password);
    const res = await browser.get('/api/user/group-preferences');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'ADMIN_PREFERENCES',
      'GROUP_SWITCHES',
      'USER_ADMIN_VISIBLE_PREFERENCES',
      'VERIFICATION_SETTINGS',
    ]);
    expect(body.GROUP_SWITCHES.enableAuditorAssignmentFeature).toBe(true);
    expect(body.GROUP_SWITCHES.allowToSplitStudy).toBe(false);
    expect(body.ADMIN_PREFERENCES.signOffTimeLimit).toBe(60);
  });
});

describe('API token', () => {
  it('authenticates DICOMweb as a bearer token; a forged one is refused; a password change revokes it', async () => {
    const user = await createTestUser(t.db, { roles: ['ROLE_DOCTOR'] });
    const browser = new TestClient(t.app);
    await browser.login(user.email, user.password);
    const { token } = (await browser.get('/api/user/token')).json();
    expect(token).toMatch(/^rft_/);

    const dicomClient = new TestClient(t.app);
    const studies = '/api/dicomweb/studies';
    expect((await dicomClient.get(studies, { authorization: `Bearer ${token}` })).statusCode).toBe(200);
    // API tokens are for DICOMweb only (api-tokens.int.test.ts has the whole rule).
    expect((await dicomClient.get('/api/user/', { authorization: `Bearer ${token}` })).statusCode).toBe(401);

    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await dicomClient.get(studies, { authorization: `Bearer ${forged}` })).statusCode).toBe(401);
    expect((await dicomClient.get(studies, { authorization: 'Bearer nonsense' })).statusCode).toBe(401);

    // A password change revokes the token.
    const changed = await browser.post('/api/user-create/update-password', {
      currentPassword: user.password,
      newPassword: 'a-new-password',
    });
    expect(changed.statusCode).toBe(200);
    expect((await dicomClient.get(studies, { authorization: `Bearer ${token}` })).statusCode).toBe(401);
  });
});
