import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { installPaths, mainOf, readCurrentVersion, readLastRollback, readPending } from './install-layout.js';
import { Launcher, type TLauncherState, type TSpawnVersion } from './launcher.js';
import {
  cloudServing,
  installedRouter,
  testKey,
  testRelease,
  type TProgramMode,
  removeTempDirs,
} from './test-release.helpers.js';
import { RouterUpdater } from './updater.js';

const release = testKey();
const launchers: Launcher[] = [];

afterEach(async () => {
  await Promise.all(launchers.splice(0).map((l) => l.stop()));
});

/** Real processes: the same Node, as launcher-main.ts starts them. */
const spawnNode: TSpawnVersion = (mainJs, env) => spawn(process.execPath, [mainJs], { env, stdio: 'ignore' });

function startLauncher(installDir: string, healthTimeoutMs = 5_000, spawnVersion = spawnNode) {
  const log: string[] = [];
  const launcher = new Launcher({
    installDir,
    spawnVersion,
    healthTimeoutMs,
    restartDelayMs: 50,
    log: (line) => log.push(line),
  });
  launchers.push(launcher);
  launcher.start();
  return { launcher, log };
}

async function until(
  what: string,
  test: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

const runs = (launcher: Launcher, version: string) => () => {
  const state: TLauncherState = launcher.state;
  return state.phase === 'running' && state.version === version;
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** 1.0.0 running under the launcher, and an updater in it offered 2.0.0 behaving as `mode`. */
async function runningWithOffer(mode: TProgramMode, healthTimeoutMs?: number, spawnVersion?: TSpawnVersion) {
  const installDir = await installedRouter('1.0.0');
  const { launcher, log } = startLauncher(installDir, healthTimeoutMs, spawnVersion);
  await until('1.0.0 to run', runs(launcher, '1.0.0'));
  const oldPid = launcher.state.phase === 'running' ? launcher.state.pid : 0;
  const next = testRelease('2.0.0', mode, release.privateKeyPem);
  const updater = new RouterUpdater({
    currentVersion: '1.0.0',
    platform: 'linux',
    installDir,
    trustedKeys: [release.publicKeyPem],
    fetchFromCloud: cloudServing(next.offer, next.zip).fetchFromCloud,
    // In production the router itself exits with RESTART_EXIT_CODE; here it runs in a child, so it
    // is asked to (the test program exits 75 on SIGUSR2).
    requestRestart: () => process.kill(oldPid, 'SIGUSR2'),
  });
  return { installDir, launcher, log, oldPid, updater };
}

afterAll(() => removeTempDirs());

describe('launcher: updates and rollback with real processes', () => {
  it('a good update: the launcher starts the new version and commits it', async () => {
    const s = await runningWithOffer('ok');
    await s.updater.applyUpdate();
    await until('2.0.0 to run', runs(s.launcher, '2.0.0'));
    // The launcher logs once it has ended the trial (the file is removed a moment before).
    await until('the trial to end', () => s.log.includes('Radflow router updated from 1.0.0 to 2.0.0'));
    expect(await readPending(s.installDir)).toBeNull();
    expect(await readCurrentVersion(s.installDir)).toBe('2.0.0');
    expect(alive(s.oldPid)).toBe(false);
    expect(await readLastRollback(s.installDir)).toBeNull();
  });

  it('a new version that crashes at start is rolled back: current is 1.0.0 again and 1.0.0 runs', async () => {
    const s = await runningWithOffer('crashes');
    await s.updater.applyUpdate();
    await until(
      '1.0.0 to run again',
      async () => runs(s.launcher, '1.0.0')() && (await readPending(s.installDir)) === null,
    );
    expect(await readCurrentVersion(s.installDir)).toBe('1.0.0');
    const state = s.launcher.state;
    expect(state.phase === 'running' && state.pid !== s.oldPid && alive(state.pid)).toBe(true);
    expect(await readLastRollback(s.installDir)).toMatchObject({ from: '2.0.0', to: '1.0.0' });
    // The old version's screen can say why it is still the old one.
    expect((await s.updater.status()).lastRollback).toMatchObject({ from: '2.0.0', to: '1.0.0' });
    // Both versions stay on disk: a later fixed 2.0.x can be tried again.
    expect(existsSync(mainOf(s.installDir, '2.0.0'))).toBe(true);
  });

  it('a new version that never reports healthy is stopped and rolled back after the health timeout', async () => {
    const s = await runningWithOffer('hangs', 1_000);
    await s.updater.applyUpdate();
    await until('2.0.0 to be tried', () => s.launcher.state.phase === 'starting');
    await until('1.0.0 to run again', runs(s.launcher, '1.0.0'));
    expect(await readCurrentVersion(s.installDir)).toBe('1.0.0');
    expect((await readLastRollback(s.installDir))?.reason).toMatch(/did not start within 1000 ms/);
  });

  it('a new version that reports healthy and stops at once was started: no rollback, the update stays', async () => {
    const s = await runningWithOffer('stops-when-healthy');
    await s.updater.applyUpdate();
    await until('the trial to end', () => s.log.includes('Radflow router updated from 1.0.0 to 2.0.0'));
    expect(await readPending(s.installDir)).toBeNull();
    expect(await readCurrentVersion(s.installDir)).toBe('2.0.0');
    expect(await readLastRollback(s.installDir)).toBeNull();
  });

  it('a new version whose process cannot even be spawned is rolled back (the launcher survives)', async () => {
    const failing2: TSpawnVersion = (mainJs, env) =>
      mainJs.includes('2.0.0')
        ? spawn('/nonexistent/node', [mainJs], { env, stdio: 'ignore' }).on('error', () => undefined)
        : spawnNode(mainJs, env);
    const s = await runningWithOffer('ok', 1_000, failing2);
    await s.updater.applyUpdate();
    await until('the rollback', async () => (await readLastRollback(s.installDir)) !== null);
    await until('1.0.0 to run again', runs(s.launcher, '1.0.0'));
    expect(await readCurrentVersion(s.installDir)).toBe('1.0.0');
  });

  it('without a trial, a version that stops is started again (no rollback)', async () => {
    const installDir = await installedRouter('1.0.0');
    const { launcher } = startLauncher(installDir);
    await until('1.0.0 to run', runs(launcher, '1.0.0'));
    const firstPid = launcher.state.phase === 'running' ? launcher.state.pid : 0;
    process.kill(firstPid, 'SIGKILL');
    await until(
      'a new 1.0.0',
      () =>
        runs(launcher, '1.0.0')() && launcher.state.phase === 'running' && launcher.state.pid !== firstPid,
    );
    expect(await readCurrentVersion(installDir)).toBe('1.0.0');
    expect(existsSync(installPaths(installDir).lastRollback)).toBe(false);
  });
});
