import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { generateKeyPairSync, createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { type TRouterLatest, type TRouterReleaseManifest, routerReleaseFileNames } from '@radflow/core';
import { switchCurrent, versionDir } from './install-layout.js';
import { signManifest } from './signature.js';
import { ARTEFACT_APP_DIR } from './updater.js';

/** Tests of releases: keys, installed versions and signed artefacts of small router programs. */

export function testKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/**
 * How a test version behaves when the launcher starts it: `ok` reports healthy and runs (SIGUSR2:
 * exit for a restart, as the updater's requestRestart does), `crashes` exits 1, `hangs` never reports,
 * `stops-when-healthy` reports and exits 0 at once;
 * `fails-self-test` refuses --self-test. All print their version for --version.
 */
export type TProgramMode = 'ok' | 'crashes' | 'hangs' | 'fails-self-test' | 'stops-when-healthy';

export function routerProgram(version: string, mode: TProgramMode): string {
  return `'use strict';
const fs = require('node:fs');
const VERSION = ${JSON.stringify(version)};
const MODE = ${JSON.stringify(mode)};
const args = process.argv.slice(2);
if (args.includes('--version')) { console.log(VERSION); process.exit(0); }
if (args.includes('--self-test')) process.exit(MODE === 'fails-self-test' ? 1 : 0);
if (MODE === 'crashes') { console.error('cannot start'); process.exit(1); }
setInterval(() => {}, 1000);
process.on('SIGUSR2', () => process.exit(75));
if (MODE !== 'hangs')
  fs.writeFileSync(process.env.RADFLOW_ROUTER_HEALTH_FILE, JSON.stringify({ version: VERSION, pid: process.pid }));
if (MODE === 'stops-when-healthy') process.exit(0);
`;
}

const made: string[] = [];

export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
  made.push(dir);
  return dir;
}

/** Removes the folders tempDir made (a test file's afterAll). */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** An install folder with `version` installed and current (what install.sh leaves). */
export async function installedRouter(version: string, mode: TProgramMode = 'ok'): Promise<string> {
  const installDir = await tempDir('router-install');
  await mkdir(versionDir(installDir, version), { recursive: true });
  await writeFile(path.join(versionDir(installDir, version), 'main.js'), routerProgram(version, mode));
  await switchCurrent(installDir, version);
  return installDir;
}

export interface TTestRelease {
  zip: Uint8Array;
  manifestText: string;
  manifest: TRouterReleaseManifest;
  signature: string;
  offer: TRouterLatest;
}

/** A release artefact (the build's layout) of a test program, signed with `privateKeyPem`. */
export function testRelease(version: string, mode: TProgramMode, privateKeyPem: string): TTestRelease {
  const names = routerReleaseFileNames(version, 'linux');
  const zip = zipSync({
    [`${ARTEFACT_APP_DIR}main.js`]: new TextEncoder().encode(routerProgram(version, mode)),
  });
  const manifest: TRouterReleaseManifest = {
    product: 'radflow-router',
    version,
    platform: 'linux',
    file: names.artefact,
    sha256: createHash('sha256').update(zip).digest('hex'),
    size: zip.length,
    node: '>=20',
    builtAt: new Date().toISOString(),
  };
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  const signature = signManifest(manifestText, privateKeyPem);
  return {
    zip,
    manifestText,
    manifest,
    signature,
    offer: {
      version,
      platform: 'linux',
      sha256: manifest.sha256,
      size: manifest.size,
      manifest: manifestText,
      signature,
      url: '/api/router/download?platform=linux',
    },
  };
}

/** The cloud as the updater sees it: the offer at /latest and these bytes at its URL. */
export function cloudServing(offer: TRouterLatest | null, artefact: Uint8Array) {
  const calls: string[] = [];
  const fetchFromCloud = async (url: string): Promise<Response> => {
    calls.push(url);
    if (url.startsWith('/api/router/latest'))
      return offer
        ? Response.json(offer)
        : Response.json({ message: 'No router release is available' }, { status: 404 });
    if (offer && url === offer.url) return new Response(Buffer.from(artefact));
    return new Response('not found', { status: 404 });
  };
  return { fetchFromCloud, calls };
}

/**
 * Starts an unpacked release's program (`main.js`) on plain Node with `env` (and PATH only), and
 * waits for the ports it announces on stdout: its local API and its C-STORE SCP.
 */
export async function startUnpackedRouter(
  main: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcessWithoutNullStreams; api: string; dicom: string }> {
  const child = spawn(process.execPath, [main], { env: { PATH: process.env.PATH, ...env } });
  const ports = await new Promise<{ api: string; dicom: string }>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const api = /ROUTER_PORT=(\d+)/.exec(out)?.[1];
      const dicom = /ROUTER_DICOM_PORT=(\d+)/.exec(out)?.[1];
      if (api && dicom) resolve({ api, dicom });
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`the router exited (${code}): ${err}`)));
  });
  return { child, ...ports };
}
