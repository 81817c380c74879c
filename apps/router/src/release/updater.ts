import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import {
  type TRouterLatest,
  type TRouterPlatform,
  type TRouterReleaseManifest,
  ZRouterLatest,
  compareRouterVersions,
} from '@radflow/core';
import { unzipSync } from 'fflate';
import { writeFileDurably } from '../queue/fs-durable.js';
import { ReleaseError } from './errors.js';
import { RESTART_EXIT_CODE } from './health.js';
import {
  type TRollback,
  installPaths,
  readCurrentVersion,
  readLastRollback,
  switchCurrent,
  versionDir,
} from './install-layout.js';
import { verifyReleaseManifest } from './signature.js';

/** spec-core §9: the router checks for a new version every 10 minutes. */
export const VERSION_CHECK_INTERVAL_MS = 10 * 60_000;
/** The folder inside the artefact holding the version's own files (what goes to versions/<v>/). */
export const ARTEFACT_APP_DIR = 'radflow-router/app/';

/** Runs `node <mainJs> --self-test`; rejects if it fails or takes longer than `timeoutMs`. */
export type TSelfTest = (mainJs: string, timeoutMs: number) => Promise<void>;

export const spawnSelfTest: TSelfTest = (mainJs, timeoutMs) =>
  new Promise((resolve, reject) => {
    execFile(process.execPath, [mainJs, '--self-test'], { timeout: timeoutMs }, (error, _out, stderr) => {
      if (!error) return resolve();
      // For the screen: why, in one line, without the command line and its temporary path.
      const why = error.killed
        ? `no answer within ${Math.round(timeoutMs / 1000)} s`
        : `exit code ${String(error.code)}`;
      const lastLine = stderr.trim().split('\n').at(-1);
      reject(new Error(lastLine ? `${why}: ${lastLine}` : why));
    });
  });

export interface TUpdaterOptions {
  /** The running version (ROUTER_VERSION in the bundle). */
  currentVersion: string;
  platform: TRouterPlatform;
  /** The launcher's folder (launcher.ts); the router gets it in RADFLOW_ROUTER_INSTALL_DIR. */
  installDir: string;
  /** Release public keys (PEM); the bundle's are embeddedReleaseKeys(). */
  trustedKeys: readonly string[];
  /**
   * A GET on the cloud with the router's credentials (the router's cloud session, wired by main):
   * `path` is a path on the cloud such as `/api/router/latest?platform=linux`.
   */
  fetchFromCloud: (path: string) => Promise<Response>;
  /** Default: spawnSelfTest (a child process). */
  selfTest?: TSelfTest;
  selfTestTimeoutMs?: number;
  /** After the switch: hand over to the launcher. Default: exit with RESTART_EXIT_CODE. */
  requestRestart?: () => void;
}

export interface TUpdateCheck {
  currentVersion: string;
  /** The cloud's offer, or null when it has none for this platform. */
  latest: TRouterLatest | null;
  updateAvailable: boolean;
  checkedAt: string;
}

export interface TUpdaterStatus {
  currentVersion: string;
  lastCheck: TUpdateCheck | null;
  /** The last check's or update's failure, as the screen shows it. */
  lastError: string | null;
  updating: boolean;
  /** A new version that did not start and was rolled back (launcher.ts), if any. */
  lastRollback: TRollback | null;
}

/**
 * The router's updates (issue 27 §5): asks the cloud for the latest version every 10 minutes, and on
 * request downloads it, verifies its Ed25519 signature and SHA-256, unpacks it beside the running
 * version, runs its self-test, and only then points `current` at it and hands over to the launcher,
 * which rolls back if it does not start. A refused update replaces nothing.
 */
export class RouterUpdater {
  private lastCheck: TUpdateCheck | null = null;
  private lastError: string | null = null;
  private updating = false;
  private readonly selfTest: TSelfTest;
  private readonly requestRestart: () => void;

  constructor(private readonly options: TUpdaterOptions) {
    this.selfTest = options.selfTest ?? spawnSelfTest;
    this.requestRestart = options.requestRestart ?? (() => process.exit(RESTART_EXIT_CODE));
  }

  async status(): Promise<TUpdaterStatus> {
    const rollback = await readLastRollback(this.options.installDir);
    return {
      currentVersion: this.options.currentVersion,
      lastCheck: this.lastCheck,
      lastError: this.lastError,
      updating: this.updating,
      lastRollback: rollback,
    };
  }

  /** Asks the cloud for its latest version for this platform and compares it with ours. */
  async checkForUpdate(): Promise<TUpdateCheck> {
    try {
      const { platform, currentVersion } = this.options;
      const response = await this.options.fetchFromCloud(`/api/router/latest?platform=${platform}`);
      let latest: TRouterLatest | null = null;
      if (response.status !== 404) {
        if (!response.ok)
          throw new ReleaseError('NO_RELEASE', `The version check failed (HTTP ${response.status}).`);
        const parsed = ZRouterLatest.safeParse(await response.json());
        if (!parsed.success) throw new ReleaseError('BAD_MANIFEST', 'The version offer is malformed.');
        latest = parsed.data;
      } else await response.body?.cancel();
      const check: TUpdateCheck = {
        currentVersion,
        latest,
        updateAvailable: latest !== null && compareRouterVersions(latest.version, currentVersion) > 0,
        checkedAt: new Date().toISOString(),
      };
      this.lastCheck = check;
      this.lastError = null;
      return check;
    } catch (error) {
      this.lastError = messageOf(error);
      throw error;
    }
  }

  /** Checks now and then every VERSION_CHECK_INTERVAL_MS; returns the stop function. */
  startPeriodicCheck(onCheck?: (check: TUpdateCheck) => void, intervalMs = VERSION_CHECK_INTERVAL_MS) {
    const tick = () =>
      void this.checkForUpdate().then(onCheck, () => undefined /* kept in lastError for the screen */);
    tick();
    const timer = setInterval(tick, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * Installs the cloud's latest version: verified, unpacked beside the running one, self-tested, then
   * switched in and the launcher asked to restart. Throws a ReleaseError (nothing replaced) otherwise.
   */
  async applyUpdate(): Promise<{ version: string; restarting: true }> {
    if (this.updating) throw new ReleaseError('BUSY', 'An update is already in progress.');
    this.updating = true;
    try {
      const check = await this.checkForUpdate();
      if (!check.latest)
        throw new ReleaseError('NO_RELEASE', 'The cloud offers no router version for this platform.');
      const manifest = this.verifiedManifest(check.latest);
      await this.install(manifest, check.latest.url);
      const { installDir } = this.options;
      const from = (await readCurrentVersion(installDir)) ?? this.options.currentVersion;
      await writeFileDurably(
        installPaths(installDir).pending,
        JSON.stringify({ from, to: manifest.version, at: new Date().toISOString() }),
      );
      await switchCurrent(installDir, manifest.version);
      this.requestRestart();
      return { version: manifest.version, restarting: true };
    } catch (error) {
      this.lastError = messageOf(error);
      throw error;
    } finally {
      this.updating = false;
    }
  }

  private verifiedManifest(offer: TRouterLatest): TRouterReleaseManifest {
    const manifest = verifyReleaseManifest(offer.manifest, offer.signature, this.options.trustedKeys);
    // Only signed fields count: the offer's own version and platform must agree with them.
    if (manifest.version !== offer.version || manifest.platform !== this.options.platform)
      throw new ReleaseError('BAD_MANIFEST', 'The update manifest does not match the version offered.');
    if (compareRouterVersions(manifest.version, this.options.currentVersion) <= 0)
      throw new ReleaseError(
        'NOT_NEWER',
        `Version ${manifest.version} is not newer than ${this.options.currentVersion}.`,
      );
    return manifest;
  }

  /** Downloads, checks and unpacks the artefact into versions/<v>/, then self-tests it. */
  private async install(manifest: TRouterReleaseManifest, url: string): Promise<void> {
    const { installDir } = this.options;
    const paths = installPaths(installDir);
    await mkdir(paths.staging, { recursive: true });
    const download = path.join(paths.staging, `${manifest.file}.${randomUUID()}.part`);
    const unpacked = `${versionDir(installDir, manifest.version)}.${randomUUID()}.tmp`;
    try {
      await this.download(url, download, manifest);
      const entries = unzipSync(new Uint8Array(await readFile(download)));
      let files = 0;
      for (const [name, data] of Object.entries(entries)) {
        if (!name.startsWith(ARTEFACT_APP_DIR) || name.endsWith('/')) continue;
        const relative = name.slice(ARTEFACT_APP_DIR.length);
        const target = path.resolve(unpacked, relative);
        if (!target.startsWith(unpacked + path.sep))
          throw new ReleaseError('BAD_ARTEFACT', 'The update contains a file outside its folder.');
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, data);
        files++;
      }
      if (files === 0 || !entries[`${ARTEFACT_APP_DIR}main.js`])
        throw new ReleaseError('BAD_ARTEFACT', 'The update has no router program in it.');
      try {
        await this.selfTest(path.join(unpacked, 'main.js'), this.options.selfTestTimeoutMs ?? 30_000);
      } catch (error) {
        throw new ReleaseError(
          'SELF_TEST_FAILED',
          `Version ${manifest.version} failed its self-test (${messageOf(error)}); nothing was replaced.`,
        );
      }
      const target = versionDir(installDir, manifest.version);
      // A leftover of an earlier attempt at the same version is not the running one (that is older).
      await rm(target, { recursive: true, force: true });
      await rename(unpacked, target);
    } finally {
      await rm(download, { force: true });
      await rm(unpacked, { recursive: true, force: true });
    }
  }

  private async download(url: string, file: string, manifest: TRouterReleaseManifest): Promise<void> {
    // The offer comes from our cloud: only a path on it is followed, never another host.
    if (!url.startsWith('/') || url.startsWith('//'))
      throw new ReleaseError('DOWNLOAD_FAILED', 'The update address is not on the Radflow server.');
    const response = await this.options.fetchFromCloud(url);
    if (!response.ok || !response.body)
      throw new ReleaseError('DOWNLOAD_FAILED', `The update download failed (HTTP ${response.status}).`);
    const hash = createHash('sha256');
    let size = 0;
    const out = createWriteStream(file);
    try {
      for await (const chunk of Readable.fromWeb(
        response.body as NodeReadableStream<Uint8Array>,
      ) as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > manifest.size) break;
        hash.update(chunk);
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      }
    } finally {
      await new Promise<void>((resolve, reject) =>
        out.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
    }
    if (size !== manifest.size || hash.digest('hex') !== manifest.sha256)
      throw new ReleaseError(
        'CHECKSUM_MISMATCH',
        'The downloaded update does not match its signed checksum: it was refused and nothing was replaced.',
      );
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
