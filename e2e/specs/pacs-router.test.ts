import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudLogin } from '../../apps/router/src/api/cloud-login.js';
import { startLocalApi } from '../../apps/router/src/api/local-api.js';
import { uploadQueueOf } from '../../apps/router/src/api/queue-adapter.js';
import { settingsOf } from '../../apps/router/src/api/settings.js';
import { InstanceQueue } from '../../apps/router/src/queue/queue.js';
import { buildStudy } from '../../apps/router/test/study-builder.js';
import type { TBrowserSession } from '../support/browser.js';
import { apiAs } from '../support/lab.js';
import { eventually } from '../support/pages.js';
import { storyServer } from '../support/server.js';
import { DEMO_PASSWORD, openSignedIn } from '../support/worklist.js';

/**
 * Issue 27 §2 as a center sees it: the /pacs-router screen of the router on this computer. The
 * router is the real local API and durable queue, started in this story on 127.0.0.1:0, verifying
 * the sign-in with the story's cloud; what other branches build (forwarding, printing, the release
 * feed) are stand-ins, and the uploader's part is played by the story (the queue's markSent /
 * markFailed), so the screen's draining is driven step by step.
 */
describe('PACS router screen', () => {
  let center: TBrowserSession;
  let group: APIRequestContext;
  let dataDir: string;
  let queue: InstanceQueue;
  let router: Awaited<ReturnType<typeof startLocalApi>>;
  let updates = 0;
  const draining = buildStudy({ count: 3 });
  const refused = buildStudy({ count: 1, patientId: 'ROUTER-2' });

  const setRouterSettings = (values: { useInBrowserPythonApp: boolean; customRouterUrl: string }) =>
    group.post('/api/setting/update-group/USER_ADMIN_VISIBLE_PREFERENCES', { data: values });

  beforeAll(async () => {
    const { baseURL } = storyServer();
    dataDir = await mkdtemp(join(tmpdir(), 'e2e-router-'));
    queue = await InstanceQueue.open({ dataDir });
    router = await startLocalApi({
      port: 0,
      version: '0.1.0',
      serverUrl: baseURL,
      incomingDir: queue.tempDir,
      queue: uploadQueueOf(queue),
      cloudLogin: createCloudLogin({ serverUrl: baseURL }),
      settings: settingsOf({ ROUTER_PORT: 0, ROUTER_SERVER_URL: baseURL, ROUTER_API_TOKEN: 'x' }),
      sendJobs: {
        get: async () => [],
        run: async () => Promise.reject(new Error('not in this story')),
      },
      printer: { print: async () => Promise.reject(new Error('not in this story')) },
      releases: {
        checkVersion: async () => ({
          currentVersion: '0.1.0',
          latestVersion: '0.2.0',
          updateAvailable: updates === 0,
          notes: null,
        }),
        update: async () => {
          updates += 1;
          return { status: 'STARTED', version: '0.2.0' };
        },
      },
    });
    const port = new URL(router.url).port;
    group = await apiAs('group@demo.local');
    const saved = await setRouterSettings({
      useInBrowserPythonApp: true,
      customRouterUrl: `http://localhost:${port}`,
    });
    expect(saved.status(), await saved.text()).toBe(200);

    for (const instance of [...draining.instances, ...refused.instances])
      await queue.enqueueFile(instance.bytes);
    // The cloud refused the second study's instance before the screen opened.
    const taken = [];
    for (let batch = queue.takeBatch(1e9, 100); batch.length > 0; batch = queue.takeBatch(1e9, 100)) {
      taken.push(...batch);
    }
    const isRefused = (f: { studyInstanceUid: string }) => f.studyInstanceUid === refused.studyInstanceUid;
    queue.release(taken.filter((f) => !isRefused(f)).map((f) => f.key));
    await queue.markFailed(
      taken.filter(isRefused).map((f) => f.key),
      'The cloud refused the instance: checksum mismatch',
      { permanent: true },
    );

    center = await openSignedIn('center@demo.local');
  });

  afterAll(async () => {
    await setRouterSettings({ useInBrowserPythonApp: false, customRouterUrl: '' }).catch(() => undefined);
    await group?.dispose();
    await center?.close();
    await router?.app.close();
    await queue?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('signs in to the router, offers the update, drains the queue and retries a refused study', async () => {
    const { page } = center;
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'PACS router' })
      .click();
    const form = page.getByRole('form', { name: 'Sign in to the router' });
    await form.getByLabel('Password').fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Sign in to router' }).click();

    const offer = page.getByRole('dialog', { name: 'Router update' });
    await offer.getByText('Version 0.2.0 of the router is available').waitFor();
    await offer.getByRole('button', { name: 'Update' }).click();
    await offer.waitFor({ state: 'hidden' });
    expect(updates).toBe(1);

    await eventually(() => page.getByTestId('router-status').textContent()).toBe('Online');
    const row = (uid: string) =>
      page.getByRole('table', { name: 'Upload queue' }).locator(`tr[data-study="${uid}"]`);
    await eventually(() => row(draining.studyInstanceUid).textContent()).toContain('0 / 3');
    const failed = row(refused.studyInstanceUid);
    await eventually(() => failed.textContent()).toContain(
      'The cloud refused the instance: checksum mismatch',
    );

    // The uploader sends the first study: the screen follows the /events stream.
    await queue.markSent(queue.takeBatch(1e9, 100).map((f) => f.key));
    await eventually(() => row(draining.studyInstanceUid).textContent()).toContain('3 / 3');
    await eventually(() => row(draining.studyInstanceUid).textContent()).toContain('Uploaded');

    await failed.getByRole('button', { name: 'Retry' }).click();
    await eventually(() => failed.textContent()).toContain('Queued');
    expect(await failed.textContent()).not.toContain('checksum mismatch');
  });
});
