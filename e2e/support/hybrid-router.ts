import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { createCloudLogin } from '../../apps/router/src/api/cloud-login.js';
import { startLocalApi } from '../../apps/router/src/api/local-api.js';
import { OfflineCredentials, withOfflineSignIn } from '../../apps/router/src/api/offline-sign-in.js';
import type { CloudLogin } from '../../apps/router/src/api/ports.js';
import { uploadQueueOf } from '../../apps/router/src/api/queue-adapter.js';
import { settingsOf } from '../../apps/router/src/api/settings.js';
import { hybridReportsOf } from '../../apps/router/src/hybrid/hybrid-reports.js';
import { OfflineAnnotationStore } from '../../apps/router/src/hybrid/annotation-store.js';
import { OfflineDraftStore } from '../../apps/router/src/hybrid/draft-store.js';
import { OfflineReportStore } from '../../apps/router/src/hybrid/report-store.js';
import { SpoolImages } from '../../apps/router/src/hybrid/spool-images.js';
import { InstanceQueue } from '../../apps/router/src/queue/queue.js';
import { storyServer } from './server.js';
import { DEMO_PASSWORD } from './worklist.js';

/** The demo group's offline-hybrid doctor (the seed gives them a router grant). */
export const HYBRID_EMAIL = 'offline-hybrid@demo.local';

export interface THybridRouter {
  /** The router's local API and served web app, as the browser at the center opens it. */
  readonly origin: string;
  readonly queue: InstanceQueue;
  readonly store: OfflineReportStore;
  readonly annotations: OfflineAnnotationStore;
  readonly drafts: OfflineDraftStore;
  readonly credentials: OfflineCredentials;
  /** The link to the cloud: down, the router's sign-in and `linkFetch` cannot reach it. */
  readonly link: { up: boolean };
  /** `fetch` through the link (for the router's report sync). */
  readonly linkFetch: typeof fetch;
  /** A user's sign-in to the router while the link is up: the router learns their password. */
  signInOnline(email: string): Promise<void>;
  /** Opens the router's own page as the hybrid doctor signs in there; answers its study list. */
  openList(page: Page): Promise<Locator>;
  close(): Promise<void>;
}

/**
 * The router of the hybrid stories (issue 27 §4), run from its sources against the story server: a
 * durable queue, the offline report store, offline sign-in and the web app's build served, as
 * HYBRID.md sets it up. `onSaved`: told of each offline save (a story's sync kicks on it).
 */
export async function startHybridRouter(options: { onSaved?: () => void } = {}): Promise<THybridRouter> {
  const { baseURL } = storyServer();
  const dataDir = await mkdtemp(join(tmpdir(), 'e2e-hybrid-'));
  const queue = await InstanceQueue.open({ dataDir });
  const store = await OfflineReportStore.open(dataDir);
  const annotations = await OfflineAnnotationStore.open(dataDir);
  const drafts = await OfflineDraftStore.open(dataDir);
  const credentials = await OfflineCredentials.open(dataDir);
  const link = { up: true };
  const online = createCloudLogin({ serverUrl: baseURL });
  const unreachable = createCloudLogin({ serverUrl: 'http://127.0.0.1:9' });
  const cloud: CloudLogin = { verify: (c) => (link.up ? online : unreachable).verify(c) };
  const unused = () => Promise.reject(new Error('not in this story'));
  const api = await startLocalApi({
    port: 0,
    version: '0.1.0',
    serverUrl: baseURL,
    incomingDir: queue.tempDir,
    queue: uploadQueueOf(queue),
    cloudLogin: withOfflineSignIn(cloud, credentials),
    settings: settingsOf({ ROUTER_PORT: 0, ROUTER_SERVER_URL: baseURL }),
    sendJobs: { get: async () => [], run: unused },
    printer: { print: unused },
    releases: { checkVersion: unused, update: unused },
    hybrid: hybridReportsOf(uploadQueueOf(queue), { reports: store, annotations, drafts }, () =>
      options.onSaved?.(),
    ),
    offlineImages: new SpoolImages((uid) => queue.studyFiles(uid)),
    webDir: fileURLToPath(new URL('../../apps/web/dist', import.meta.url)),
  });
  // The router answers only at localhost (its Host check), as the browser at the center asks it.
  const origin = `http://localhost:${new URL(api.url).port}`;
  return {
    origin,
    queue,
    store,
    annotations,
    drafts,
    credentials,
    link,
    linkFetch: (input, init) =>
      link.up ? fetch(input, init) : Promise.reject(new TypeError('fetch failed: the link is down')),
    async signInOnline(email) {
      const form = new FormData();
      form.set('email', email);
      form.set('password', DEMO_PASSWORD);
      const first = await fetch(`${origin}/login`, { method: 'POST', body: form });
      expect(first.status, await first.text()).toBe(200);
    },
    async openList(page) {
      await page.goto(`${origin}/hybrid-study-list`);
      const form = page.getByRole('form', { name: 'Sign in to the router' });
      await form.getByLabel('Email').fill(HYBRID_EMAIL);
      await form.getByLabel('Password').fill(DEMO_PASSWORD);
      await form.getByRole('button', { name: 'Sign in to router' }).click();
      return page.getByRole('table', { name: 'Hybrid study list' });
    },
    async close() {
      await api.app.close();
      await store.close();
      await annotations.close();
      await drafts.close();
      await queue.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
