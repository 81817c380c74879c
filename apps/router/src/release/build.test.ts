import { execFile } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRouterRelease, type TBuiltArtefact } from '../../packaging/build.js';
import { sha256File, verifyReleaseManifest } from './signature.js';
import { startUnpackedRouter, tempDir, testKey, removeTempDirs } from './test-release.helpers.js';
import { ROUTER_VERSION } from './version.js';

const run = promisify(execFile);
const key = testKey();
const other = testKey();

/**
 * The real build (esbuild of the router and the launcher, zip, manifest, signature): about 3 s for
 * both platforms, so it runs in full (no part skipped).
 */
afterAll(() => removeTempDirs());

describe('packaging/build.ts', () => {
  let built: TBuiltArtefact[];
  let unpacked: string;

  beforeAll(async () => {
    const outDir = await tempDir('router-build');
    // The web app's build as apps/web/dist holds it (the real one takes minutes to build).
    const webDir = await tempDir('router-web');
    await mkdir(path.join(webDir, 'assets'), { recursive: true });
    await writeFile(
      path.join(webDir, 'index.html'),
      '<!doctype html><html><head></head><body>app</body></html>',
    );
    await writeFile(path.join(webDir, 'assets', 'index-abc.js'), 'console.log("app")');
    built = await buildRouterRelease({
      webDir,
      outDir,
      platforms: ['linux', 'windows'],
      privateKeyPem: key.privateKeyPem,
      alsoTrust: [other.publicKeyPem],
    });
    unpacked = await tempDir('router-unpacked');
    const linux = built.find((b) => b.platform === 'linux')!;
    for (const [name, data] of Object.entries(unzipSync(new Uint8Array(await readFile(linux.artefact))))) {
      if (name.endsWith('/')) continue;
      const target = path.join(unpacked, name);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, data);
    }
  }, 60_000);

  it('writes per platform an artefact whose signed manifest verifies and names its checksum and size', async () => {
    expect(built.map((b) => path.basename(b.artefact))).toEqual([
      `radflow-router-${ROUTER_VERSION}-linux.zip`,
      `radflow-router-${ROUTER_VERSION}-windows.zip`,
    ]);
    for (const b of built) {
      const manifestText = await readFile(b.manifestFile, 'utf8');
      const signature = await readFile(b.signatureFile, 'utf8');
      const manifest = verifyReleaseManifest(manifestText, signature, [key.publicKeyPem]);
      expect(manifest).toMatchObject({
        version: ROUTER_VERSION,
        platform: b.platform,
        ...(await sha256File(b.artefact)),
      });
      expect(() => verifyReleaseManifest(manifestText, signature, [other.publicKeyPem])).toThrow();
    }
  });

  it('the unpacked bundle runs on plain Node: --version prints the version', async () => {
    const { stdout } = await run(process.execPath, [
      path.join(unpacked, 'radflow-router/app/main.js'),
      '--version',
    ]);
    expect(stdout.trim()).toBe(ROUTER_VERSION);
  });

  it('the bundle passes its self-test with the signing key and the --also-trust key embedded', async () => {
    const { stdout } = await run(process.execPath, [
      path.join(unpacked, 'radflow-router/app/main.js'),
      '--self-test',
    ]);
    expect(stdout.trim()).toBe(`Radflow router ${ROUTER_VERSION}: self-test passed (2 release keys)`);
  });

  it('embeds the public key only, never the private one; needs nothing from node_modules', async () => {
    const bundle = await readFile(path.join(unpacked, 'radflow-router/app/main.js'), 'utf8');
    const body = (pem: string) => pem.split('\n').slice(1, -2).join('');
    expect(bundle).toContain(body(key.publicKeyPem));
    expect(bundle).not.toContain(body(key.privateKeyPem));
    expect(bundle).not.toMatch(/from ["'](zod|fflate|@radflow\/core)["']/);
    // No native module: sharp cannot load from a release (image-lib.ts makes the router's images).
    expect(bundle).not.toMatch(/(from |import\(|require\()["']sharp["']/);
    for (const wasm of ['charlswasm_decode', 'openjpegwasm_decode', 'openjphjs', 'libjpegturbowasm']) {
      expect((await stat(path.join(unpacked, `radflow-router/app/${wasm}.wasm`))).size).toBeGreaterThan(0);
    }
  });

  it('ships the service files: a systemd unit running the launcher (Linux), a start-up task (Windows)', async () => {
    const unit = await readFile(path.join(unpacked, 'radflow-router/radflow-router.service'), 'utf8');
    expect(unit).toContain('ExecStart=/usr/bin/env node /opt/radflow-router/launcher.mjs');
    const install = await readFile(path.join(unpacked, 'radflow-router/install.sh'), 'utf8');
    expect(install).toContain(`VERSION=${ROUTER_VERSION}`);
    const windows = unzipSync(
      new Uint8Array(await readFile(built.find((b) => b.platform === 'windows')!.artefact)),
    );
    expect(Object.keys(windows)).toEqual(
      expect.arrayContaining([
        'radflow-router/install.cmd',
        'radflow-router/run-router.cmd',
        'radflow-router/launcher.mjs',
      ]),
    );
  });

  it('bundles the web app, and the installed router serves it at / without ROUTER_WEB_DIR (HYBRID.md)', async () => {
    const windows = unzipSync(
      new Uint8Array(await readFile(built.find((b) => b.platform === 'windows')!.artefact)),
    );
    expect(Object.keys(windows)).toEqual(
      expect.arrayContaining([
        'radflow-router/app/web/index.html',
        'radflow-router/app/web/assets/index-abc.js',
      ]),
    );
    const dataDir = await tempDir('router-release-data');
    const { child, api: port } = await startUnpackedRouter(
      path.join(unpacked, 'radflow-router/app/main.js'),
      {
        ROUTER_PORT: '0',
        ROUTER_DICOM_PORT: '0',
        ROUTER_DICOM_HOST: '127.0.0.1',
        ROUTER_DATA_DIR: dataDir,
        ROUTER_SERVER_URL: 'http://127.0.0.1:9',
        ROUTER_ANNOUNCE_PORT: '1',
      },
    );
    try {
      const page = await fetch(`http://localhost:${port}/hybrid-study-list`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<meta name="radflow-served-by" content="router">');
      expect(html).toContain('app');
      const asset = await fetch(`http://localhost:${port}/assets/index-abc.js`);
      expect(await asset.text()).toBe('console.log("app")');
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);

  it('refuses to build a release without the web app', async () => {
    await expect(
      buildRouterRelease({
        outDir: await tempDir('router-build-noweb'),
        platforms: ['linux'],
        privateKeyPem: key.privateKeyPem,
        webDir: await tempDir('router-web-empty'),
      }),
    ).rejects.toThrow(/web app/);
  });
});
