import { createServer, type IncomingMessage, type Server } from 'node:http';
import { AppError } from '@radflow/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGE_CLOUD_UNREACHABLE, MESSAGE_ROUTER_CENTER_ONLY, createCloudLogin } from './cloud-login.js';

/**
 * The cloud's side of the check as a small HTTP peer with the answers of POST /api/do-login and
 * /api/do-logout (apps/server/src/modules/auth/auth.routes.ts): what the router sends and keeps.
 */
const user = (roles: string[], hybridModeOn = false) => ({
  email: 'center@radflow.example',
  roles,
  identifier: 'City Scans',
  chatUidHash: 'x',
  proxyUrl: null,
  hybridModeOn,
  active: true,
  centerId: 1,
  support: { phone: null, email: null },
});

let server: Server;
let url: string;
let roles: string[];
let hybridModeOn = false;
let templatesStatus = 200;
const TEMPLATE = {
  id: 7,
  name: 'CT Brain normal',
  content: '<p>No acute intracranial abnormality.</p>',
  modalities: ['CT'],
  bodyParts: ['HEAD'],
  gender: null,
  owner: 'doctor@radflow.example',
  isOwn: true,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};
const seen: { path: string; body: string; cookie: string | undefined; device: string | undefined }[] = [];
const bodyOf = async (req: IncomingMessage) => {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return body;
};

beforeEach(async () => {
  roles = ['ROLE_CENTER'];
  hybridModeOn = false;
  templatesStatus = 200;
  seen.length = 0;
  server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      seen.push({
        path: req.url ?? '',
        body,
        cookie: req.headers.cookie,
        device: req.headers['x-device-id'] as string,
      });
      res.setHeader('Content-Type', 'application/json');
      if (req.url === '/api/do-login') {
        const { password } = JSON.parse(body) as { password: string };
        if (password !== 'right') {
          res.statusCode = 401;
          res.end(
            JSON.stringify({
              errorStatusCode: 401,
              errorDescription: 'Invalid credentials',
              additionalInfo: null,
              txnId: 't',
            }),
          );
          return;
        }
        res.setHeader('Set-Cookie', 'radflow_session=s3cr3t; Path=/; HttpOnly; SameSite=Lax');
        res.end(JSON.stringify(user(roles, hybridModeOn)));
        return;
      }
      if (req.url === '/api/report-template/') {
        res.statusCode = templatesStatus;
        res.end(JSON.stringify(templatesStatus === 200 ? [TEMPLATE] : { errorDescription: 'down' }));
        return;
      }
      if (req.url === '/api/router/offline-grant') {
        res.end(JSON.stringify({ grant: 'grant-of-the-doctor', expiresAt: '2026-12-27T10:00:00.000Z' }));
        return;
      }
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('createCloudLogin', () => {
  it('verifies with the cloud, then ends the cloud session it opened', async () => {
    const login = createCloudLogin({ serverUrl: `${url}/` });
    await expect(login.verify({ email: 'center@radflow.example', password: 'right' })).resolves.toEqual({
      email: 'center@radflow.example',
      identifier: 'City Scans',
      hybrid: false,
    });
    expect(seen.map((s) => s.path)).toEqual(['/api/do-login', '/api/do-logout']);
    expect(seen[1]?.cookie).toBe('radflow_session=s3cr3t');
    expect(seen[0]?.device).toMatch(/^radflow-router-/);
  });

  it("passes the cloud's refusal through", async () => {
    const login = createCloudLogin({ serverUrl: url });
    const error = await login
      .verify({ email: 'center@radflow.example', password: 'wrong' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ kind: 'UNAUTHORIZED', message: 'Invalid credentials' });
  });

  it('refuses a user who is not a center (spec-lab §6), after signing the cloud session out', async () => {
    roles = ['ROLE_DOCTOR'];
    const login = createCloudLogin({ serverUrl: url });
    await expect(login.verify({ email: 'center@radflow.example', password: 'right' })).rejects.toMatchObject({
      kind: 'FORBIDDEN',
      message: MESSAGE_ROUTER_CENTER_ONLY,
    });
    expect(seen.map((s) => s.path)).toEqual(['/api/do-login', '/api/do-logout']);
  });

  it('lets a hybrid user in (spec-core §3: OFFLINE_HYBRID alone), marked hybrid (issue 27 §4)', async () => {
    roles = ['ROLE_OFFLINE_HYBRID'];
    hybridModeOn = true;
    const login = createCloudLogin({ serverUrl: url });
    await expect(login.verify({ email: 'center@radflow.example', password: 'right' })).resolves.toMatchObject(
      {
        hybrid: true,
        // Asked with the doctor's own fresh session, before it is signed out (HYBRID.md).
        offlineGrant: 'grant-of-the-doctor',
        // Their templates too, for the editor offline.
        templates: [TEMPLATE],
      },
    );
    expect(seen.map((s) => s.path)).toEqual([
      '/api/do-login',
      '/api/router/offline-grant',
      '/api/report-template/',
      '/api/do-logout',
    ]);
    expect(seen[1]?.cookie).toBe('radflow_session=s3cr3t');
    expect(seen[2]?.cookie).toBe('radflow_session=s3cr3t');
  });

  it('still lets a hybrid user in when the cloud does not answer their templates (none kept from it)', async () => {
    roles = ['ROLE_OFFLINE_HYBRID'];
    hybridModeOn = true;
    templatesStatus = 503;
    const verified = await createCloudLogin({ serverUrl: url }).verify({
      email: 'center@radflow.example',
      password: 'right',
    });
    expect(verified).toMatchObject({ hybrid: true, offlineGrant: 'grant-of-the-doctor' });
    expect(verified.templates).toBeUndefined();
  });

  it('says the cloud could not be reached', async () => {
    const login = createCloudLogin({ serverUrl: 'http://127.0.0.1:9' });
    await expect(login.verify({ email: 'a@b.example', password: 'x' })).rejects.toMatchObject({
      kind: 'UPSTREAM_FAILED',
      message: MESSAGE_CLOUD_UNREACHABLE,
    });
  });
});
