import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileDurably } from '../queue/fs-durable.js';

/**
 * The installed router on disk (RELEASE.md "Layout"):
 *
 *   <install>/launcher.mjs          the service runs this; it starts `current`
 *   <install>/current               the running version's number (the pointer; rollback rewrites it)
 *   <install>/versions/<v>/main.js  each version side by side
 *   <install>/update-pending.json   {from, to}: `to` is on trial until it reports healthy
 *   <install>/run/                  health files, the last rollback
 *   <install>/staging/              downloads in progress
 */
/**
 * A version as a folder name: digits and dots only, so no version can name a path outside versions/.
 * (Core's ROUTER_VERSION_PATTERN is the release rule; it is not imported here so that the launcher's
 * bundle stays free of core and zod: it must be tiny and never change.)
 */
const VERSION_FOLDER = /^\d{1,6}\.\d{1,6}\.\d{1,6}$/;

export function installPaths(installDir: string) {
  return {
    current: path.join(installDir, 'current'),
    versions: path.join(installDir, 'versions'),
    pending: path.join(installDir, 'update-pending.json'),
    run: path.join(installDir, 'run'),
    lastRollback: path.join(installDir, 'run', 'last-rollback.json'),
    staging: path.join(installDir, 'staging'),
  };
}

export function versionDir(installDir: string, version: string): string {
  if (!VERSION_FOLDER.test(version)) throw new Error(`Not a router version: ${version}`);
  return path.join(installPaths(installDir).versions, version);
}

export function mainOf(installDir: string, version: string): string {
  return path.join(versionDir(installDir, version), 'main.js');
}

export async function readCurrentVersion(installDir: string): Promise<string | null> {
  try {
    const text = (await readFile(installPaths(installDir).current, 'utf8')).trim();
    return VERSION_FOLDER.test(text) ? text : null;
  } catch {
    return null;
  }
}

/** Points `current` at a version (atomic: rename over the old pointer). */
export async function switchCurrent(installDir: string, version: string): Promise<void> {
  versionDir(installDir, version);
  await writeFileDurably(installPaths(installDir).current, `${version}\n`);
}

export interface TPendingUpdate {
  from: string;
  to: string;
  at: string;
}

export async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

export const readPending = (installDir: string) => readJson<TPendingUpdate>(installPaths(installDir).pending);

export async function clearPending(installDir: string): Promise<void> {
  await rm(installPaths(installDir).pending, { force: true });
}

export interface TRollback {
  from: string;
  to: string;
  at: string;
  reason: string;
}

export const readLastRollback = (installDir: string) =>
  readJson<TRollback>(installPaths(installDir).lastRollback);
