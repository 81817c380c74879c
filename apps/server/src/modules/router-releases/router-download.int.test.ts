import { createHash, generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type TRouterLatest, type TRouterPlatform, routerReleaseFileNames } from '@radflow/core';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestWorld,
  signInAt,
} from '../../../test/test-app.js';
import { MESSAGE_NOT_ALLOWED } from '../../plugins/auth.js';
import {
  MESSAGE_ROUTER_DOWNLOADS_OFF,
  ROUTER_HEADERS,
  messageNoRouterRelease,
} from './router-releases.routes.js';

/*
 * Issue 27 §5: 'Download router' (GET /api/router/download) and the version offer the router checks
 * (GET /api/router/latest), from the release files in ROUTER_RELEASES_DIR; center only (spec-lab §6).
 */

const key = generateKeyPairSync('ed25519');
let t: TestApp;
let bare: TestApp;
let dir: string;
let center: TestClient;
let world: Awaited<ReturnType<typeof createTestWorld>>;
const artefacts = new Map<string, Buffer>();

/** A release as the build writes it: artefact bytes, manifest, Ed25519 signature of the manifest. */
async function writeRelease(
  version: string,
  platform: TRouterPlatform,
  opts: { signature?: boolean; size?: number } = {},
) {
  const names = routerReleaseFileNames(version, platform);
  const bytes = randomBytes(3000 + Math.floor(Math.random() * 1000));
  const manifestText = `${JSON.stringify(
    {
      product: 'radflow-router',
      version,
      platform,
      file: names.artefact,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: opts.size ?? bytes.length,
      node: '>=20',
      builtAt: new Date().toISOString(),
    },
    null,
    2,
  )}\n`;
  await writeFile(path.join(dir, names.artefact), bytes);
  await writeFile(path.join(dir, names.manifest), manifestText);
  if (opts.signature !== false)
    await writeFile(
      path.join(dir, names.signature),
      `${sign(null, Buffer.from(manifestText), key.privateKey).toString('base64')}\n`,
    );
  artefacts.set(`${version}-${platform}`, bytes);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'router-releases-'));
  // Versions in numeric order 1.9.0 < 1.10.0; 2.0.0 is incomplete (no signature) and 3.0.0's file
  // is not the size its manifest says: neither is offered.
  await writeRelease('1.9.0', 'linux');
  await writeRelease('1.10.0', 'linux');
  await writeRelease('2.0.0', 'linux', { signature: false });
  await writeRelease('3.0.0', 'linux', { size: 5 });
  await writeRelease('1.2.0', 'windows');
  await writeFile(path.join(dir, 'README.txt'), 'not a release');
  [t, bare] = await Promise.all([createTestApp({ routerReleasesDir: dir }), createTestApp()]);
  world = await createTestWorld(t.db);
  center = (await signInAt(t, world, ['ROLE_CENTER'])).browser;
});
afterAll(async () => {
  await Promise.all([t.close(), bare.close()]);
  await rm(dir, { recursive: true, force: true });
});

describe('GET /api/router/latest', () => {
  it('offers the newest complete release of the platform with its signed manifest', async () => {
    const res = await center.get('/api/router/latest?platform=linux');
    expect(res.statusCode, res.body).toBe(200);
    const offer = res.json<TRouterLatest>();
    const bytes = artefacts.get('1.10.0-linux')!;
    expect(offer).toMatchObject({
      version: '1.10.0',
      platform: 'linux',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
      url: '/api/router/download?platform=linux',
    });
    expect(JSON.parse(offer.manifest)).toMatchObject({ version: '1.10.0', sha256: offer.sha256 });
    expect(
      verify(null, Buffer.from(offer.manifest), key.publicKey, Buffer.from(offer.signature, 'base64')),
    ).toBe(true);
    expect((await center.get('/api/router/latest?platform=windows')).json()).toMatchObject({
      version: '1.2.0',
    });
  });

  it('a platform that is not linux or windows is a 400 naming it', async () => {
    const res = await center.get('/api/router/latest?platform=macos');
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/platform must be linux or windows/);
  });
});

describe('GET /api/router/download', () => {
  it("answers the platform's newest artefact byte for byte, with its checksum and signed manifest", async () => {
    const res = await center.get('/api/router/download?platform=linux');
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const bytes = artefacts.get('1.10.0-linux')!;
    expect(res.rawPayload.equals(bytes)).toBe(true);
    const sha256 = createHash('sha256').update(res.rawPayload).digest('hex');
    expect(res.headers[ROUTER_HEADERS.sha256]).toBe(sha256);
    expect(res.headers['repr-digest']).toBe(`sha-256=:${Buffer.from(sha256, 'hex').toString('base64')}:`);
    expect(res.headers[ROUTER_HEADERS.version]).toBe('1.10.0');
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="radflow-router-1.10.0-linux.zip"');
    const manifest = Buffer.from(String(res.headers[ROUTER_HEADERS.manifest]), 'base64');
    expect(JSON.parse(manifest.toString('utf8'))).toMatchObject({
      version: '1.10.0',
      sha256,
      size: bytes.length,
    });
    const signature = Buffer.from(String(res.headers[ROUTER_HEADERS.signature]), 'base64');
    expect(verify(null, manifest, key.publicKey, signature)).toBe(true);
  });

  it('the platform defaults to linux; windows gets its own build', async () => {
    const linux = await center.get('/api/router/download');
    expect(linux.rawPayload.equals(artefacts.get('1.10.0-linux')!)).toBe(true);
    const windows = await center.get('/api/router/download?platform=windows');
    expect(windows.rawPayload.equals(artefacts.get('1.2.0-windows')!)).toBe(true);
  });
});

describe('who may download the router (center only, spec-lab §6)', () => {
  const routes = ['/api/router/latest?platform=linux', '/api/router/download?platform=linux'];

  it.each(routes)('%s: 401 signed out', async (url) => {
    const res = await new TestClient(t.app).get(url);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ errorDescription: MESSAGES.pleaseLoginAgain });
  });

  it.each(['ROLE_DOCTOR', 'ROLE_ADMIN', 'ROLE_ASSIGNOR', 'ROLE_CENTER_CUSTOMER', 'ROLE_TYPIST'] as const)(
    '%s: 403 on both',
    async (role) => {
      const { browser } = await signInAt(t, world, [role]);
      for (const url of routes) {
        const res = await browser.get(url);
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toMatchObject({ errorDescription: MESSAGE_NOT_ALLOWED });
      }
    },
  );
});

describe('no releases', () => {
  it('a server without ROUTER_RELEASES_DIR answers 404 saying downloads are not set up', async () => {
    const place = await createTestWorld(bare.db);
    const { browser } = await signInAt(bare, place, ['ROLE_CENTER']);
    for (const url of ['/api/router/latest?platform=linux', '/api/router/download']) {
      const res = await browser.get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ errorDescription: MESSAGE_ROUTER_DOWNLOADS_OFF });
    }
  });

  it('a platform with no release in the directory is 404 naming the platform', async () => {
    await rm(path.join(dir, routerReleaseFileNames('1.2.0', 'windows').manifest));
    const res = await center.get('/api/router/download?platform=windows');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errorDescription: messageNoRouterRelease('windows') });
    expect(messageNoRouterRelease('windows')).toBe('No router release is available for windows.');
  });
});
