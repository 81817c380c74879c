import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeFileDurably } from '../queue/fs-durable.js';
import { HEALTH_FILE_ENV, INSTALL_DIR_ENV, RESTART_EXIT_CODE, type THealth } from './health.js';
import {
  type TPendingUpdate,
  clearPending,
  installPaths,
  mainOf,
  readCurrentVersion,
  readJson,
  readPending,
  switchCurrent,
} from './install-layout.js';

/** What the launcher needs of a started version (a ChildProcess has it; tests may pass their own). */
export interface TVersionProcess {
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  kill(signal?: NodeJS.Signals): boolean;
  once(event: 'exit', listener: (code: number | null) => void): unknown;
  /** A process that could not be started emits this and no 'exit'. */
  once(event: 'error', listener: (error: Error) => void): unknown;
}

export type TSpawnVersion = (mainJs: string, env: NodeJS.ProcessEnv) => TVersionProcess;

export interface TLauncherOptions {
  installDir: string;
  spawnVersion: TSpawnVersion;
  /** How long a started version has to report healthy. Default 30 s. */
  healthTimeoutMs?: number;
  /** Wait before starting again a version that stopped on its own. Default 5 s. */
  restartDelayMs?: number;
  log?: (line: string) => void;
  now?: () => Date;
}

export type TLauncherState =
  | { phase: 'starting'; version: string }
  | { phase: 'running'; version: string; pid: number }
  | { phase: 'stopped' };

/**
 * The tiny program the service runs (launcher-main.ts): starts the version `current` names, waits for
 * its health file, and if a version on trial (update-pending.json) does not start in time or stops
 * before it is healthy, points `current` back at the previous version and starts that. Rollback is
 * rewriting one pointer file; both versions stay on disk side by side.
 */
export class Launcher {
  state: TLauncherState = { phase: 'stopped' };
  /** Why the loop ended on its own (nothing to start), if it did. */
  failure: Error | null = null;
  private child: TVersionProcess | null = null;
  private stopping = false;
  private loop: Promise<void> | null = null;
  private readonly healthTimeoutMs: number;
  private readonly restartDelayMs: number;
  private readonly log: (line: string) => void;
  private readonly now: () => Date;

  constructor(private readonly options: TLauncherOptions) {
    this.healthTimeoutMs = options.healthTimeoutMs ?? 30_000;
    this.restartDelayMs = options.restartDelayMs ?? 5_000;
    this.log = options.log ?? ((line) => console.warn(line));
    this.now = options.now ?? (() => new Date());
  }

  /** Starts the loop (returns at once; `stop()` ends it). */
  start(): void {
    this.stopping = false;
    this.loop ??= this.run()
      .catch((error: unknown) => {
        this.failure = error instanceof Error ? error : new Error(String(error));
        this.log(`Radflow router launcher stopped: ${this.failure.message}`);
      })
      .finally(() => {
        this.loop = null;
        this.state = { phase: 'stopped' };
      });
  }

  /** Resolves when the loop has ended (after `stop()`, or on a failure). */
  async ended(): Promise<void> {
    await this.loop;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.child?.kill('SIGTERM');
    await this.loop;
  }

  private async run(): Promise<void> {
    const { installDir } = this.options;
    while (!this.stopping) {
      const version = await readCurrentVersion(installDir);
      if (!version) throw new Error(`No version to start: ${installPaths(installDir).current} is missing`);
      const pending = await readPending(installDir);
      const onTrial = pending?.to === version ? pending : null;

      const { child, healthy, exited } = await this.startVersion(version);
      if (this.stopping) break;
      if (!healthy) {
        child.kill('SIGKILL');
        await exited;
        if (onTrial) {
          await this.rollBack(onTrial, `version ${version} did not start within ${this.healthTimeoutMs} ms`);
          continue;
        }
        this.log(`Radflow router ${version} did not start; starting it again`);
        await sleep(this.restartDelayMs);
        continue;
      }
      if (onTrial) {
        // The new version started: the update is committed (a later crash restarts it, no rollback).
        await clearPending(installDir);
        this.log(`Radflow router updated from ${onTrial.from} to ${onTrial.to}`);
      }
      const code = await exited;
      if (this.stopping) break;
      if (code === RESTART_EXIT_CODE) continue;
      this.log(`Radflow router ${version} stopped (exit ${code}); starting it again`);
      await sleep(this.restartDelayMs);
    }
  }

  private async startVersion(version: string) {
    const { installDir } = this.options;
    const healthFile = path.join(installPaths(installDir).run, `health-${version}.json`);
    await mkdir(path.dirname(healthFile), { recursive: true });
    await rm(healthFile, { force: true });
    this.state = { phase: 'starting', version };
    const child = this.options.spawnVersion(mainOf(installDir, version), {
      ...process.env,
      [HEALTH_FILE_ENV]: healthFile,
      [INSTALL_DIR_ENV]: installDir,
    });
    this.child = child;
    let exitCode: number | null | undefined;
    const exited = new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      child.once('exit', (code) => {
        exitCode = code;
        resolve(code);
      });
      child.once('error', () => {
        // Only a process that never started (no pid) ends here; a failed kill is not an exit.
        if (child.pid !== undefined) return;
        exitCode ??= null;
        resolve(null);
      });
    });
    const deadline = Date.now() + this.healthTimeoutMs;
    let healthy = false;
    while (!this.stopping && Date.now() < deadline) {
      const health = await readJson<THealth>(healthFile);
      if (health && health.version === version && health.pid === child.pid) {
        healthy = true;
        break;
      }
      // Read once more after an exit: a version may report healthy and stop at once.
      if (exitCode !== undefined) break;
      await sleep(50);
    }
    if (healthy) this.state = { phase: 'running', version, pid: child.pid ?? 0 };
    return { child, healthy, exited };
  }

  private async rollBack(pending: TPendingUpdate, reason: string): Promise<void> {
    const { installDir } = this.options;
    this.log(`Radflow router: ${reason}; rolling back to ${pending.from}`);
    await switchCurrent(installDir, pending.from);
    await writeFileDurably(
      installPaths(installDir).lastRollback,
      JSON.stringify({ from: pending.to, to: pending.from, at: this.now().toISOString(), reason }),
    );
    await clearPending(installDir);
  }
}
