import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE_NAME } from '@radflow/core';
import type { InjectOptions } from 'fastify';
import { studyActionFixtures } from '../../test/study-actions.fixtures.js';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestUser,
  uniqueMobile,
} from '../../test/test-app.js';
import { shareBuilders } from '../../test/share.fixtures.js';
import { LIVER, readFixture } from '../../test/archive/fixtures.js';
import { stowBody } from '../../test/archive/helpers.js';

/**
 * Cross-origin requests (security issue §1, plugins/DECISIONS.md "Requests from our page"): a page of
 * another origin — another port of the same host is the same *site*, so SameSite=Lax cookies go
 * along — must not change anything with the victim's cookie, nor sign the victim in as someone else.
 * Every non-GET API call without an Authorization header carries the device headers (which a form
 * cannot set and a cross-origin fetch cannot send without a CORS preflight we never grant), any
 * Origin it has is ours, and a JSON route takes no form or text body.
 */

const HOST = '127.0.0.1:8080';
const PUBLIC_URL = 'https://radflow.example.org';
const EXTRA_ORIGIN = 'https://reports.example.net';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ publicUrl: PUBLIC_URL, allowedOrigins: [EXTRA_ORIGIN] });
});
afterAll(() => t.close());

const fixtures = studyActionFixtures(() => t);
const share = shareBuilders(() => t);

/** A request as another page's form or fetch makes it: the victim's cookie, none of our headers. */
function forged(browser: TestClient, opts: InjectOptions) {
  return t.app.inject({
    ...opts,
    headers: {
      host: HOST,
      ...(browser.cookie ? { cookie: `${SESSION_COOKIE_NAME}=${browser.cookie}` } : {}),
      ...(opts.headers as Record<string, string> | undefined),
    },
  });
}

/** A center user's CREATED study, and the signed-in center browser. */
async function centerWithStudy() {
  const world = await fixtures.createWorld();
  const row = await fixtures.createStudy(world);
  const { browser } = await fixtures.signIn(world, ['ROLE_CENTER']);
  return { world, row, browser };
}

const urgent = (id: number) => `/api/report-status/urgent/${id}`;
const updateDetails = (id: number) => `/api/report-status/update-details/${id}`;
const sendEmail = (id: number) => `/api/report-status/send-email/${id}`;

describe('cookie-authenticated calls must carry the device headers', () => {
  it('refuses (403) a cookie POST without them, whatever its body, and changes nothing', async () => {
    const { row, browser } = await centerWithStudy();
    const before = await fixtures.snapshot(row.id);

    const attempts: InjectOptions[] = [
      // An HTML form's POST: form-encoded, or multipart, or text/plain.
      { method: 'POST', url: urgent(row.id) },
      {
        method: 'POST',
        url: updateDetails(row.id),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'patientName=EVIL%5EHACKER&patientId=X',
      },
      {
        method: 'POST',
        url: sendEmail(row.id),
        headers: { 'content-type': 'text/plain' },
        payload: '{"email":"outsider@evil.example","x":"="}',
      },
      // A fetch with a simple JSON body (no-cors) still lacks our headers.
      {
        method: 'POST',
        url: sendEmail(row.id),
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'outsider@evil.example' }),
      },
      // One device header is not enough.
      { method: 'POST', url: urgent(row.id), headers: { 'x-device-id': browser.deviceId } },
      {
        method: 'DELETE',
        url: '/api/report-tag/delete',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ id: 1 }),
      },
    ];
    for (const attempt of attempts) {
      const res = await forged(browser, attempt);
      expect(res.statusCode, `${attempt.method} ${attempt.url}: ${res.body}`).toBe(403);
      expect(res.json()).toMatchObject({ errorStatusCode: 403 });
      expect(res.json().additionalInfo).toMatch(/^x-device-(id|name)$/);
    }
    expect(await fixtures.snapshot(row.id)).toEqual(before);
  });

  it("lets the app's own calls through: cookie, device headers, our origin", async () => {
    const { row, browser } = await centerWithStudy();
    const res = await browser.request({
      method: 'POST',
      url: urgent(row.id),
      headers: { host: HOST, origin: `http://${HOST}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await fixtures.readRow(row.id)).urgent).toBe(true);
    // No Origin at all (some clients send none on same-origin calls) passes as well.
    const again = await browser.post(urgent(row.id), undefined, { host: HOST });
    expect(again.statusCode, again.body).toBe(200);
    expect((await fixtures.readRow(row.id)).urgent).toBe(false);
  });

  it('keeps a bearer-token client (no cookie, no device headers) working: its STOW-RS stores', async () => {
    // API tokens answer the DICOMweb routes only (modules/auth/DECISIONS.md): a DICOM client's POST.
    const { browser } = await centerWithStudy();
    const token = (await browser.get('/api/user/token')).json<{ token: string }>().token;
    const { payload, contentType } = stowBody([readFixture(LIVER[0]!)]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dicomweb/studies',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('the Origin header, when present, must be ours', () => {
  it('refuses (403) a call from another origin even with the device headers, and changes nothing', async () => {
    const { row, browser } = await centerWithStudy();
    const before = await fixtures.snapshot(row.id);
    for (const origin of [
      'http://127.0.0.1:9999', // another port of the same host: same site, other origin
      'https://127.0.0.1:8080', // other scheme
      'http://evil.example',
      'null', // a sandboxed frame or a file: page
    ]) {
      const res = await browser.request({
        method: 'POST',
        url: urgent(row.id),
        headers: { host: HOST, origin },
      });
      expect(res.statusCode, `${origin}: ${res.body}`).toBe(403);
      expect(res.json()).toMatchObject({ errorStatusCode: 403, additionalInfo: 'origin' });
    }
    expect(await fixtures.snapshot(row.id)).toEqual(before);
  });

  it('accepts the server’s own origin, the PUBLIC_URL origin and the configured extra origins', async () => {
    const { row, browser } = await centerWithStudy();
    for (const origin of [`http://${HOST}`, PUBLIC_URL, EXTRA_ORIGIN]) {
      const res = await browser.request({
        method: 'POST',
        url: urgent(row.id),
        headers: { host: HOST, origin },
      });
      expect(res.statusCode, `${origin}: ${res.body}`).toBe(200);
    }
  });
});

describe('JSON routes take JSON only', () => {
  it('answers 415 naming the type for a form-encoded, multipart or text body (device headers and all)', async () => {
    const { row, browser } = await centerWithStudy();
    const before = await fixtures.snapshot(row.id);
    for (const [type, payload] of [
      ['application/x-www-form-urlencoded', 'email=outsider%40evil.example'],
      ['text/plain', '{"email":"outsider@evil.example"}'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c\r\n--x--\r\n',
      ],
    ] as const) {
      const res = await browser.request({
        method: 'POST',
        url: sendEmail(row.id),
        headers: { 'content-type': type },
        payload,
      });
      expect(res.statusCode, `${type}: ${res.body}`).toBe(415);
      expect(res.json()).toMatchObject({ errorStatusCode: 415, additionalInfo: type.split(';')[0] });
    }
    expect(await fixtures.snapshot(row.id)).toEqual(before);
  });
});

describe('sign-in calls (login CSRF)', () => {
  it("refuses a cross-site form's sign-in (no device headers): no session is set", async () => {
    const attacker = await createTestUser(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/do-login',
      headers: {
        host: HOST,
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://evil.example',
      },
      payload: new URLSearchParams({ email: attacker.email, password: attacker.password }).toString(),
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE_NAME)).toBeUndefined();

    const noOrigin = await t.app.inject({
      method: 'POST',
      url: '/api/do-login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: attacker.email, password: attacker.password }).toString(),
    });
    expect(noOrigin.statusCode, noOrigin.body).toBe(403);
    expect(noOrigin.json().additionalInfo).toBe('x-device-id');
    expect(noOrigin.cookies.find((c) => c.name === SESSION_COOKIE_NAME)).toBeUndefined();
  });

  it("accepts the app's sign-in form (form-encoded, with the device headers and our origin)", async () => {
    const user = await createTestUser(t.db);
    const browser = new TestClient(t.app);
    const res = await browser.request({
      method: 'POST',
      url: '/api/do-login',
      headers: { host: HOST, origin: `http://${HOST}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: user.email, password: user.password }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(browser.cookie).not.toBeNull();
  });

  it('refuses the share page code calls without the device headers', async () => {
    const w = await share.world({ requireOtpForSharedReport: true });
    const { token } = await share.sharedStudy(w, { mobileNumber: uniqueMobile() });
    for (const [url, payload] of [
      [`/api/share/${token}/code`, undefined],
      [`/api/share/${token}/verify`, { code: '123456' }],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(403);
    }
    const page = new TestClient(t.app);
    expect((await page.post(`/api/share/${token}/code`)).statusCode).toBe(200);
  });
});
