#!/usr/bin/env node
// `npm start` runs this first: it builds the web app and the server bundle (`npm run build`, about
// 100 s on two cores) only when what they are built from changed since the last build it made, so a
// second start is immediate. "Changed" is by content: a SHA-256 over the path and bytes of every
// build input (BUILD_INPUTS, test files aside), compared with the one written beside the bundle
// after that build. A missing bundle or stamp always builds. `npm run build` by hand writes no
// stamp: the next start builds once more, which is slow but never stale.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the two builds read (relative to the repository root): files, or directories walked. */
export const BUILD_INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'apps/web',
  'apps/server/src',
  'apps/server/build.mjs',
  // The migrations: the build makes the migrated PGlite template from them.
  'apps/server/drizzle',
  'apps/server/package.json',
  'apps/server/tsconfig.json',
  'packages/core/src',
  'packages/core/package.json',
  'packages/dicom/src',
  'packages/dicom/package.json',
];

/** What a build writes; all must exist for a start to skip the build. */
export const BUILD_OUTPUTS = [
  'apps/server/dist/main.js',
  'apps/server/dist/ingest-worker.js',
  'apps/server/dist/pglite-template.tar',
  'apps/web/dist/index.html',
];

export const STAMP = 'apps/server/dist/.build-inputs.sha256';

/** Directories inside the inputs that are not inputs (outputs, dependencies, caches). */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.vite', 'coverage']);
/** Tests are not in the bundles: changing one needs no build. */
const isTest = (name) => /\.test\.(ts|tsx|mts|js|mjs)$/.test(name);

/** The input files under `root`, as sorted relative paths with forward slashes. */
export function buildInputFiles(root) {
  const files = [];
  const walk = (rel) => {
    const abs = path.join(root, rel);
    if (!existsSync(abs)) return;
    const stat = statSync(abs);
    if (stat.isDirectory()) {
      for (const name of readdirSync(abs)) {
        if (SKIPPED_DIRS.has(name)) continue;
        walk(path.posix.join(rel, name));
      }
    } else if (stat.isFile() && !isTest(rel)) {
      files.push(rel);
    }
  };
  for (const input of BUILD_INPUTS) walk(input);
  return files.sort();
}

/** SHA-256 (hex) over each input's path and content. */
export function buildInputsHash(root) {
  const hash = createHash('sha256');
  for (const rel of buildInputFiles(root)) {
    hash.update(rel).update('\0');
    hash.update(
      createHash('sha256')
        .update(readFileSync(path.join(root, rel)))
        .digest(),
    );
  }
  return hash.digest('hex');
}

/** Whether the build outputs are there and were built from the inputs as they are now; and why not. */
export function buildState(root) {
  const hash = buildInputsHash(root);
  const missing = BUILD_OUTPUTS.find((rel) => !existsSync(path.join(root, rel)));
  if (missing) return { upToDate: false, hash, reason: `${missing} is missing` };
  const stampPath = path.join(root, STAMP);
  if (!existsSync(stampPath)) return { upToDate: false, hash, reason: 'no record of the last build' };
  if (readFileSync(stampPath, 'utf8').trim() !== hash)
    return { upToDate: false, hash, reason: 'sources changed' };
  return { upToDate: true, hash, reason: 'sources unchanged since the last build' };
}

export function writeBuildStamp(root, hash) {
  const stampPath = path.join(root, STAMP);
  mkdirSync(path.dirname(stampPath), { recursive: true });
  writeFileSync(stampPath, `${hash}\n`);
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const state = buildState(root);
  if (state.upToDate) {
    console.log(`Build is up to date (${state.reason}): not building.`);
    return 0;
  }
  console.log(`Building the web app and the server (${state.reason}); this takes a minute or two...`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) return result.status ?? 1;
  // The hash of the inputs as they were when the build started: an edit made meanwhile builds again.
  writeBuildStamp(root, state.hash);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(main());
}
