import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { zipSync, type Zippable } from 'fflate';
import {
  ROUTER_PLATFORMS,
  type TRouterPlatform,
  type TRouterReleaseManifest,
  routerReleaseFileNames,
} from '@radflow/core';
import { WASM_CODEC_MODULES } from '@radflow/dicom';
import { publicKeyPemOf, sha256File, signManifest } from '../src/release/signature.js';
import { ROUTER_VERSION } from '../src/release/version.js';

/**
 * Builds the router's installable artefacts (issue 27 §5; decisions in src/release/RELEASE.md): per
 * platform one zip holding the esbuild bundle of the router with every npm dependency inside (only
 * Node.js 20+ is needed on the PC), the launcher the service runs, and the platform's service files;
 * beside it the manifest {version, platform, file, sha256, size} and its Ed25519 signature.
 *
 *   npm run package -w @radflow/router -- [--out dist/release] [--platform linux] \
 *     [--key /secure/radflow-release.pem] [--also-trust next-key.pub.pem]
 *
 * The key is --key or RADFLOW_RELEASE_KEY (a path outside the repo). Without one the build signs with
 * a throwaway key made on the spot and writes its public half next to the artefacts: a dev build,
 * which trusts only that key for its own updates.
 */
const ROUTER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGING_DIR = path.join(ROUTER_DIR, 'packaging');
/** The web app's production build (`npm run build`), which the router serves offline (HYBRID.md). */
export const DEFAULT_WEB_DIR = path.resolve(ROUTER_DIR, '..', 'web', 'dist');

export interface TBuildOptions {
  outDir: string;
  platforms: readonly TRouterPlatform[];
  /** The release private key (PEM, Ed25519). */
  privateKeyPem: string;
  /** More public keys the build trusts for its updates (key rotation). */
  alsoTrust?: readonly string[];
  version?: string;
  /** The web app's build to bundle as `app/web` (default apps/web/dist); must hold index.html. */
  webDir?: string;
}

export interface TBuiltArtefact {
  platform: TRouterPlatform;
  artefact: string;
  manifestFile: string;
  signatureFile: string;
  manifest: TRouterReleaseManifest;
}

/** The two bundles, built once for every platform (the JavaScript is the same everywhere). */
async function bundle(publicKeys: readonly string[]): Promise<{ main: Uint8Array; launcher: Uint8Array }> {
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'warning',
    // Bundled CommonJS dependencies may call require() and read __dirname (the WASM codecs find
    // their .wasm there): give the ES module both, __dirname as the bundle's own folder.
    banner: {
      js:
        "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" +
        "import { fileURLToPath as __rf_path } from 'node:url'; const __rf_dirname = __rf_path(new URL('.', import.meta.url));",
    },
    define: {
      __RADFLOW_RELEASE_PUBLIC_KEYS__: JSON.stringify(JSON.stringify(publicKeys)),
      __dirname: '__rf_dirname',
    },
    absWorkingDir: ROUTER_DIR,
  } as const;
  const [main, launcher] = await Promise.all([
    build({ ...common, entryPoints: ['src/release/entry.ts'], outfile: 'main.js' }),
    build({ ...common, entryPoints: ['src/release/launcher-main.ts'], outfile: 'launcher.mjs' }),
  ]);
  return { main: main.outputFiles[0]!.contents, launcher: launcher.outputFiles[0]!.contents };
}

const text = (s: string) => new TextEncoder().encode(s);

/**
 * The image codecs' .wasm files (packages/dicom WASM_CODEC_MODULES), for app/ beside main.js: each
 * bundled codec reads the file named as its module, from the bundle's folder (__dirname above).
 */
async function codecFiles(): Promise<Zippable> {
  const resolve = createRequire(
    path.join(ROUTER_DIR, '..', '..', 'packages', 'dicom', 'package.json'),
  ).resolve;
  const files: Zippable = {};
  for (const specifier of WASM_CODEC_MODULES) {
    const wasm = resolve(specifier).replace(/\.js$/u, '.wasm');
    files[path.basename(wasm)] = new Uint8Array(await readFile(wasm));
  }
  return files;
}

/**
 * The web app's files as a zip folder (`app/web`, beside main.js, so each version carries the app
 * it was released with and the updater installs them together). Without index.html: refused.
 */
async function webFiles(webDir: string): Promise<Zippable> {
  const found = await stat(path.join(webDir, 'index.html')).catch(() => null);
  if (!found?.isFile()) {
    throw new Error(
      `No web app build in ${webDir} (index.html missing): run "npm run build" first; the router serves the web app offline (HYBRID.md).`,
    );
  }
  const files: Zippable = {};
  for (const entry of await readdir(webDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files[path.relative(webDir, full).split(path.sep).join('/')] = new Uint8Array(await readFile(full));
  }
  return files;
}
/** A zip entry that unpacks executable on Unix (install.sh). */
const executable = (data: Uint8Array): [Uint8Array, { os: number; attrs: number }] => [
  data,
  { os: 3, attrs: (0o100755 << 16) >>> 0 },
];

async function template(file: string, version: string): Promise<Uint8Array> {
  return text((await readFile(path.join(PACKAGING_DIR, file), 'utf8')).replaceAll('@VERSION@', version));
}

async function platformFiles(platform: TRouterPlatform, version: string): Promise<Zippable> {
  switch (platform) {
    case 'linux':
      return {
        'install.sh': executable(await template('linux/install.sh', version)),
        'radflow-router.service': await template('linux/radflow-router.service', version),
      };
    case 'windows':
      return {
        'install.cmd': await template('windows/install.cmd', version),
        'run-router.cmd': await template('windows/run-router.cmd', version),
        'uninstall.cmd': await template('windows/uninstall.cmd', version),
        'nssm.txt': await template('windows/nssm.txt', version),
      };
  }
}

export async function buildRouterRelease(options: TBuildOptions): Promise<TBuiltArtefact[]> {
  const version = options.version ?? ROUTER_VERSION;
  const publicKeys = [publicKeyPemOf(options.privateKeyPem), ...(options.alsoTrust ?? [])];
  const web = await webFiles(options.webDir ?? DEFAULT_WEB_DIR);
  const { main, launcher } = await bundle(publicKeys);
  const codecs = await codecFiles();
  await mkdir(options.outDir, { recursive: true });
  const built: TBuiltArtefact[] = [];
  for (const platform of options.platforms) {
    const names = routerReleaseFileNames(version, platform);
    const zip = zipSync(
      {
        'radflow-router': {
          app: { 'main.js': main, 'package.json': text('{ "type": "module" }\n'), web, ...codecs },
          'launcher.mjs': launcher,
          VERSION: text(`${version}\n`),
          'INSTALL.txt': await template('INSTALL.txt', version),
          ...(await platformFiles(platform, version)),
        },
      },
      { level: 9 },
    );
    const artefact = path.join(options.outDir, names.artefact);
    await writeFile(artefact, zip);
    const { sha256, size } = await sha256File(artefact);
    const manifest: TRouterReleaseManifest = {
      product: 'radflow-router',
      version,
      platform,
      file: names.artefact,
      sha256,
      size,
      node: '>=20',
      builtAt: new Date().toISOString(),
    };
    const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
    const manifestFile = path.join(options.outDir, names.manifest);
    const signatureFile = path.join(options.outDir, names.signature);
    await writeFile(manifestFile, manifestText);
    await writeFile(signatureFile, `${signManifest(manifestText, options.privateKeyPem)}\n`);
    built.push({ platform, artefact, manifestFile, signatureFile, manifest });
  }
  return built;
}

/** A throwaway Ed25519 key (dev builds and tests); PEM. */
export function throwawayReleaseKey(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

async function cli(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: path.join(ROUTER_DIR, 'dist', 'release') },
      platform: { type: 'string', multiple: true },
      key: { type: 'string' },
      'also-trust': { type: 'string', multiple: true },
    },
  });
  const platforms = (values.platform ?? [...ROUTER_PLATFORMS]).map((p) => {
    if (!(ROUTER_PLATFORMS as readonly string[]).includes(p)) throw new Error(`Unknown platform: ${p}`);
    return p as TRouterPlatform;
  });
  const outDir = path.resolve(values.out);
  const keyFile = values.key ?? process.env.RADFLOW_RELEASE_KEY;
  let privateKeyPem: string;
  if (keyFile) privateKeyPem = await readFile(keyFile, 'utf8');
  else {
    const dev = throwawayReleaseKey();
    privateKeyPem = dev.privateKeyPem;
    await mkdir(outDir, { recursive: true });
    await writeFile(path.join(outDir, 'dev-release-key.pub.pem'), dev.publicKeyPem);
    console.warn(
      'DEV BUILD: no --key or RADFLOW_RELEASE_KEY, signed with a throwaway key (not for centers).',
    );
  }
  const alsoTrust = await Promise.all((values['also-trust'] ?? []).map((f) => readFile(f, 'utf8')));
  const built = await buildRouterRelease({ outDir, platforms, privateKeyPem, alsoTrust });
  for (const b of built) console.warn(`${b.artefact}  sha256 ${b.manifest.sha256}  ${b.manifest.size} bytes`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
