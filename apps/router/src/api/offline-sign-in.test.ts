import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '@radflow/core';
import { MESSAGE_CLOUD_UNREACHABLE } from './cloud-login.js';
import { MESSAGE_NO_OFFLINE_SIGN_IN, OfflineCredentials, withOfflineSignIn } from './offline-sign-in.js';
import type { CloudLogin, VerifiedUser } from './ports.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function dataDir() {
  const dir = await mkdtemp(join(tmpdir(), 'router-offline-sign-in-'));
  dirs.push(dir);
  return dir;
}

/** A cloud that is up (answers `user` for the password "right", 401 otherwise) or down. */
function fakeCloud(user: VerifiedUser) {
  const state = { up: true };
  const login: CloudLogin = {
    async verify({ password }) {
      if (!state.up) throw new AppError('UPSTREAM_FAILED', MESSAGE_CLOUD_UNREACHABLE);
      if (password !== 'right') throw new AppError('UNAUTHORIZED', 'Invalid credentials');
      return user;
    },
  };
  return { state, login };
}

const hybrid: VerifiedUser = { email: 'dr@center.test', identifier: 'Dr Hybrid', hybrid: true };

describe('signing in to the router with the cloud unreachable (issue 27 §4)', () => {
  it('lets a hybrid user who signed in online before in with the same password, across a restart', async () => {
    const dir = await dataDir();
    const cloud = fakeCloud(hybrid);
    await withOfflineSignIn(cloud.login, await OfflineCredentials.open(dir)).verify({
      email: hybrid.email,
      password: 'right',
    });
    cloud.state.up = false;
    const restarted = withOfflineSignIn(cloud.login, await OfflineCredentials.open(dir));
    await expect(restarted.verify({ email: 'DR@center.test', password: 'right' })).resolves.toEqual(hybrid);
    await expect(restarted.verify({ email: hybrid.email, password: 'wrong' })).rejects.toMatchObject({
      message: MESSAGE_NO_OFFLINE_SIGN_IN,
    });
    // A verifier, not the password, is what the router keeps.
    expect(await readFile(join(dir, 'hybrid', 'credentials.json'), 'utf8')).not.toContain('right');
  });

  it('keeps nothing for a center user, and forgets a hybrid user the cloud later refuses', async () => {
    const dir = await dataDir();
    const center = fakeCloud({ email: 'center@center.test', identifier: 'City Scans', hybrid: false });
    const login = withOfflineSignIn(center.login, await OfflineCredentials.open(dir));
    await login.verify({ email: 'center@center.test', password: 'right' });
    center.state.up = false;
    await expect(login.verify({ email: 'center@center.test', password: 'right' })).rejects.toMatchObject({
      message: MESSAGE_NO_OFFLINE_SIGN_IN,
    });

    const cloud = fakeCloud(hybrid);
    const hybridLogin = withOfflineSignIn(cloud.login, await OfflineCredentials.open(dir));
    await hybridLogin.verify({ email: hybrid.email, password: 'right' });
    // The password was changed in the cloud: the old one is refused there, and offline from then on.
    await expect(hybridLogin.verify({ email: hybrid.email, password: 'old' })).rejects.toMatchObject({
      kind: 'UNAUTHORIZED',
    });
    cloud.state.up = false;
    await expect(hybridLogin.verify({ email: hybrid.email, password: 'right' })).rejects.toMatchObject({
      message: MESSAGE_NO_OFFLINE_SIGN_IN,
    });
  });

  it("keeps a hybrid doctor's templates from the online sign-in, across a restart; a sign-in without them keeps the last", async () => {
    const dir = await dataDir();
    const template = {
      id: 3,
      name: 'XR Chest normal',
      content: '<p>Lungs are clear.</p>',
      modalities: ['CR', 'DX'],
      bodyParts: ['CHEST'],
      gender: null,
      owner: 'dr@center.test',
      isOwn: true,
      createdAt: '2026-11-01T10:00:00.000Z',
      updatedAt: '2026-11-02T10:00:00.000Z',
    };
    const cloud = fakeCloud({ ...hybrid, templates: [template] });
    const credentials = await OfflineCredentials.open(dir);
    expect(credentials.templatesOf(hybrid.email)).toEqual({ savedAt: null, templates: [] });
    await withOfflineSignIn(cloud.login, credentials).verify({ email: hybrid.email, password: 'right' });
    const kept = (await OfflineCredentials.open(dir)).templatesOf('DR@center.test');
    expect(kept.templates).toEqual([template]);
    expect(kept.savedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    // The cloud did not answer the templates this time: the kept ones stay.
    const without = fakeCloud(hybrid);
    const again = await OfflineCredentials.open(dir);
    await withOfflineSignIn(without.login, again).verify({ email: hybrid.email, password: 'right' });
    expect(again.templatesOf(hybrid.email)).toEqual(kept);

    // Refused by the cloud: the templates go with the verifier.
    await expect(
      withOfflineSignIn(without.login, again).verify({ email: hybrid.email, password: 'old' }),
    ).rejects.toMatchObject({ kind: 'UNAUTHORIZED' });
    expect(again.templatesOf(hybrid.email)).toEqual({ savedAt: null, templates: [] });
  });
});
