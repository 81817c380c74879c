import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, TestClient, createTestApp, createTestUser, signIn } from '../test/test-app.js';
import serverPackage from '../package.json' with { type: 'json' };

let t: TestApp;
let webDir: string;
beforeAll(async () => {
  webDir = await fs.mkdtemp(path.join(os.tmpdir(), 'radflow-web-'));
  await fs.mkdir(path.join(webDir, 'assets'));
  await fs.writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Radflow SPA</title>');
  await fs.writeFile(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  await fs.writeFile(path.join(webDir, 'assets', 'app-abc123.js.br'), brotliCompressSync('console.log(1)'));
  t = await createTestApp({ webDistDir: webDir });
});
afterAll(async () => {
  await t.close();
  await fs.rm(webDir, { recursive: true, force: true });
});

const expectErrorBody = (body: unknown, status: number) =>
  expect(body).toEqual({
    errorStatusCode: status,
    errorDescription: expect.any(String),
    additionalInfo: expect.toSatisfy((v: unknown) => v === null || typeof v === 'string'),
    txnId: expect.any(String),
  });

describe('bad input never answers 500', () => {
  it('malformed JSON → 400', async () => {
    const res = await new TestClient(t.app).request({
      method: 'POST',
      url: '/api/do-login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.c", "password": ',
    });
    expect(res.statusCode).toBe(400);
    expectErrorBody(res.json(), 400);
  });

  it('an unsupported content type → 415', async () => {
    const res = await new TestClient(t.app).request({
      method: 'POST',
      url: '/api/do-login',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=a',
    });
    expect(res.statusCode).toBe(415);
    expectErrorBody(res.json(), 415);
  });

  it('a body over the limit → 413', async () => {
    const res = await new TestClient(t.app).request({
      method: 'POST',
      url: '/api/do-login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expectErrorBody(res.json(), 413);
  });

  it('wrong types and missing fields → 400 naming the field', async () => {
    const wrongType = await new TestClient(t.app).post('/api/do-login', { email: 42, password: 'x' });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().additionalInfo).toBe('email');

    const missing = await new TestClient(t.app).post('/api/do-login', { email: 'a@b.c' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().additionalInfo).toBe('password');

    const notAnObject = await new TestClient(t.app).post('/api/do-login', [1, 2]);
    expect(notAnObject.statusCode).toBe(400);

    const noBody = await new TestClient(t.app).post('/api/user/generate-otp');
    expect(noBody.statusCode).toBe(400);
    expectErrorBody(noBody.json(), 400);
  });

  it('an oversized field → 400 naming the field', async () => {
    const res = await new TestClient(t.app).post('/api/do-login', {
      email: `${'a'.repeat(300)}@b.c`,
      password: 'x',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().additionalInfo).toBe('email');

    const user = await createTestUser(t.db);
    const browser = new TestClient(t.app);
    await browser.login(user.email, user.password);
    // The role check comes before the body is looked at.
    expect((await browser.post('/api/user/audit/search', { size: 10_000 })).statusCode).toBe(403);
    const group = await createTestUser(t.db, { roles: ['ROLE_GROUP'] });
    const groupBrowser = new TestClient(t.app);
    await groupBrowser.login(group.email, group.password);
    const search = await groupBrowser.post('/api/user/audit/search', { size: 10_000 });
    expect(search.statusCode).toBe(400);
    expect(search.json().additionalInfo).toBe('size');
    const tooLong = await browser.post('/api/user-create/update-password', {
      currentPassword: user.password,
      newPassword: 'x'.repeat(500),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().additionalInfo).toBe('newPassword');
  });

  it('repeated form fields → 400, not a crash', async () => {
    const res = await new TestClient(t.app).request({
      method: 'POST',
      url: '/api/do-login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a@b.c&email=d@e.f&password=x',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().additionalInfo).toBe('email');
  });

  it('an overlong device header → 400 naming it', async () => {
    const res = await new TestClient(t.app, { deviceId: 'd'.repeat(300) }).login('a@b.c', 'x');
    expect(res.statusCode).toBe(400);
    expect(res.json().additionalInfo).toBe('x-device-id');
  });
});

describe('routing', () => {
  it('unknown /api paths answer the JSON 404', async () => {
    for (const [method, url] of [
      ['GET', '/api/no-such-thing'],
      ['POST', '/api/user/nothing-here'],
      ['GET', '/api'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toMatchObject({ errorStatusCode: 404, errorDescription: 'Not found' });
    }
  });

  it('other paths answer the single-page app (history fallback); assets are served as files', async () => {
    for (const url of ['/', '/some/route', '/login-page', '/viewer/1.2.840.10008.1/7?v=2']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('Radflow SPA');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
  });

  it('sends the precompressed copy of an asset to a browser that accepts it, the plain file otherwise', async () => {
    const br = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');
    const plain = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('without a built web app, pages say to run npm run build', async () => {
    const bare = await createTestApp({ webDistDir: path.join(webDir, 'does-not-exist') });
    try {
      const res = await bare.app.inject({ method: 'GET', url: '/some/route' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('npm run build');
    } finally {
      await bare.close();
    }
  });

  it('GET /api/health checks the database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it("GET /api/settings/api-version answers the server's version, to a signed-in user only", async () => {
    const anonymous = await new TestClient(t.app).get('/api/settings/api-version');
    expect(anonymous.statusCode).toBe(401);
    const { browser } = await signIn(t, { roles: ['ROLE_DOCTOR'] });
    const res = await browser.get('/api/settings/api-version');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ version: serverPackage.version });
    expect(serverPackage.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('serves the OpenAPI document with the identity paths, and the docs UI', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const p of [
      '/api/do-login',
      '/api/do-logout',
      '/api/user/',
      '/api/user/preference',
      '/api/user/tele-info',
      '/api/user/mapping',
      '/api/user/study-type',
      '/api/user/token',
      '/api/user-create/update-password',
      '/api/user/generate-otp',
      '/api/user/customer/is-new',
      '/api/user/audit',
      '/api/user/audit/search',
      '/api/user/audit/search-logs',
      '/api/user/audit/update-approval-status',
      '/api/health',
      '/api/setting/update/{settingName}',
      '/api/setting/update-group/{settingName}',
    ]) {
      expect(doc.paths, p).toHaveProperty([p]);
    }
    const login = doc.paths['/api/do-login'].post;
    expect(Object.keys(login.requestBody.content)).toEqual(
      expect.arrayContaining(['application/json', 'application/x-www-form-urlencoded']),
    );
    expect(doc.components.schemas).toHaveProperty('ErrorBody');
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
  });
});
