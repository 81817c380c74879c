import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ReleaseError } from './errors.js';
import { installPaths, mainOf, readCurrentVersion, readPending } from './install-layout.js';
import { MESSAGE_UPDATE_NOT_SIGNED } from './signature.js';
import {
  cloudServing,
  installedRouter,
  testKey,
  testRelease,
  removeTempDirs,
} from './test-release.helpers.js';
import { RouterUpdater, VERSION_CHECK_INTERVAL_MS, spawnSelfTest } from './updater.js';

const release = testKey();
const attacker = testKey();

async function setup(options: { offer: ReturnType<typeof testRelease> | null; artefact?: Uint8Array }) {
  const installDir = await installedRouter('1.0.0');
  const cloud = cloudServing(
    options.offer?.offer ?? null,
    options.artefact ?? options.offer?.zip ?? new Uint8Array(),
  );
  const requestRestart = vi.fn();
  const updater = new RouterUpdater({
    currentVersion: '1.0.0',
    platform: 'linux',
    installDir,
    trustedKeys: [release.publicKeyPem],
    fetchFromCloud: cloud.fetchFromCloud,
    selfTest: spawnSelfTest,
    requestRestart,
  });
  return { installDir, updater, requestRestart, cloud };
}

async function refused(promise: Promise<unknown>): Promise<ReleaseError> {
  const error = await promise.then(
    () => new Error('the update was applied'),
    (e: unknown) => e,
  );
  if (!(error instanceof ReleaseError)) throw error;
  return error;
}

/** Nothing replaced: 1.0.0 still current, no other version folder, no trial, no restart. */
async function expectNothingReplaced(s: Awaited<ReturnType<typeof setup>>) {
  expect(await readCurrentVersion(s.installDir)).toBe('1.0.0');
  expect(await readdir(installPaths(s.installDir).versions)).toEqual(['1.0.0']);
  expect(await readPending(s.installDir)).toBeNull();
  expect(s.requestRestart).not.toHaveBeenCalled();
}

afterAll(() => removeTempDirs());

describe('checkForUpdate', () => {
  it('offers a newer version of the cloud', async () => {
    const s = await setup({ offer: testRelease('1.2.0', 'ok', release.privateKeyPem) });
    const check = await s.updater.checkForUpdate();
    expect(check).toMatchObject({
      currentVersion: '1.0.0',
      updateAvailable: true,
      latest: { version: '1.2.0' },
    });
    expect(s.cloud.calls).toEqual(['/api/router/latest?platform=linux']);
  });

  it('does not offer the same or an older version (numeric order: 0.10.0 > 0.9.0)', async () => {
    const same = await setup({ offer: testRelease('1.0.0', 'ok', release.privateKeyPem) });
    expect((await same.updater.checkForUpdate()).updateAvailable).toBe(false);
    const older = await setup({ offer: testRelease('0.10.0', 'ok', release.privateKeyPem) });
    expect((await older.updater.checkForUpdate()).updateAvailable).toBe(false);
  });

  it('no release on the cloud (404) is no offer, not an error', async () => {
    const s = await setup({ offer: null });
    expect(await s.updater.checkForUpdate()).toMatchObject({ latest: null, updateAvailable: false });
  });

  it('checks at start and then every 10 minutes (spec-core §9)', async () => {
    vi.useFakeTimers();
    try {
      const s = await setup({ offer: testRelease('1.2.0', 'ok', release.privateKeyPem) });
      const stop = s.updater.startPeriodicCheck();
      expect(VERSION_CHECK_INTERVAL_MS).toBe(600_000);
      expect(s.cloud.calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(VERSION_CHECK_INTERVAL_MS - 1);
      expect(s.cloud.calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(s.cloud.calls).toHaveLength(2);
      stop();
      await vi.advanceTimersByTimeAsync(VERSION_CHECK_INTERVAL_MS);
      expect(s.cloud.calls).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('applyUpdate', () => {
  afterEach(() => vi.useRealTimers());

  it('a good update is unpacked beside the old one, self-tested, switched in, and the launcher asked to restart', async () => {
    const s = await setup({ offer: testRelease('2.0.0', 'ok', release.privateKeyPem) });
    expect(await s.updater.applyUpdate()).toEqual({ version: '2.0.0', restarting: true });
    expect(await readCurrentVersion(s.installDir)).toBe('2.0.0');
    expect(existsSync(mainOf(s.installDir, '1.0.0'))).toBe(true);
    expect(existsSync(mainOf(s.installDir, '2.0.0'))).toBe(true);
    expect(await readPending(s.installDir)).toMatchObject({ from: '1.0.0', to: '2.0.0' });
    expect(s.requestRestart).toHaveBeenCalledOnce();
    expect(await readdir(installPaths(s.installDir).staging)).toEqual([]);
  });

  it('an update signed by another key is refused: nothing replaced, the screen gets the reason', async () => {
    const s = await setup({ offer: testRelease('2.0.0', 'ok', attacker.privateKeyPem) });
    const error = await refused(s.updater.applyUpdate());
    expect(error.code).toBe('BAD_SIGNATURE');
    await expectNothingReplaced(s);
    expect((await s.updater.status()).lastError).toBe(MESSAGE_UPDATE_NOT_SIGNED);
    // Refused before the download: the artefact of an unsigned offer is not even fetched.
    expect(s.cloud.calls).toEqual(['/api/router/latest?platform=linux']);
  });

  it('an update without a signature is refused', async () => {
    const good = testRelease('2.0.0', 'ok', release.privateKeyPem);
    const s = await setup({ offer: { ...good, offer: { ...good.offer, signature: '' } } });
    expect((await refused(s.updater.applyUpdate())).code).toBe('BAD_SIGNATURE');
    await expectNothingReplaced(s);
  });

  it('an offer whose version differs from its signed manifest is refused', async () => {
    const good = testRelease('2.0.0', 'ok', release.privateKeyPem);
    const s = await setup({ offer: { ...good, offer: { ...good.offer, version: '3.0.0' } } });
    expect((await refused(s.updater.applyUpdate())).code).toBe('BAD_MANIFEST');
    await expectNothingReplaced(s);
  });

  it('a tampered artefact (bytes not those the signed manifest names) is refused', async () => {
    const good = testRelease('2.0.0', 'ok', release.privateKeyPem);
    const evil = testRelease('2.0.0', 'crashes', attacker.privateKeyPem).zip;
    const s = await setup({ offer: good, artefact: evil });
    const error = await refused(s.updater.applyUpdate());
    expect(error.code).toBe('CHECKSUM_MISMATCH');
    await expectNothingReplaced(s);
    expect(await readdir(installPaths(s.installDir).staging)).toEqual([]);
  });

  it('a truncated download is refused', async () => {
    const good = testRelease('2.0.0', 'ok', release.privateKeyPem);
    const s = await setup({ offer: good, artefact: good.zip.subarray(0, good.zip.length - 10) });
    expect((await refused(s.updater.applyUpdate())).code).toBe('CHECKSUM_MISMATCH');
    await expectNothingReplaced(s);
  });

  it('a signed version that fails its self-test is not switched in', async () => {
    const s = await setup({ offer: testRelease('2.0.0', 'fails-self-test', release.privateKeyPem) });
    const error = await refused(s.updater.applyUpdate());
    expect(error.code).toBe('SELF_TEST_FAILED');
    expect(error.message).toBe('Version 2.0.0 failed its self-test (exit code 1); nothing was replaced.');
    await expectNothingReplaced(s);
  });

  it('an offer that is not newer is not installed', async () => {
    const s = await setup({ offer: testRelease('1.0.0', 'ok', release.privateKeyPem) });
    expect((await refused(s.updater.applyUpdate())).code).toBe('NOT_NEWER');
    await expectNothingReplaced(s);
  });

  it('the download only follows a path on the cloud, never another host', async () => {
    const good = testRelease('2.0.0', 'ok', release.privateKeyPem);
    const s = await setup({
      offer: { ...good, offer: { ...good.offer, url: 'https://evil.example/r.zip' } },
    });
    expect((await refused(s.updater.applyUpdate())).code).toBe('DOWNLOAD_FAILED');
    await expectNothingReplaced(s);
  });
});
