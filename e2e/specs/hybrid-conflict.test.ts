import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TCreatedStudy } from '@radflow/core';
import type { APIRequestContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudLogin } from '../../apps/router/src/api/cloud-login.js';
import { startLocalApi } from '../../apps/router/src/api/local-api.js';
import { OfflineCredentials, withOfflineSignIn } from '../../apps/router/src/api/offline-sign-in.js';
import type { CloudLogin } from '../../apps/router/src/api/ports.js';
import { uploadQueueOf } from '../../apps/router/src/api/queue-adapter.js';
import { settingsOf } from '../../apps/router/src/api/settings.js';
import { hybridReportsOf } from '../../apps/router/src/hybrid/hybrid-reports.js';
import { OfflineReportStore } from '../../apps/router/src/hybrid/report-store.js';
import { ReportSync } from '../../apps/router/src/hybrid/report-sync.js';
import { SpoolImages } from '../../apps/router/src/hybrid/spool-images.js';
import { InstanceQueue } from '../../apps/router/src/queue/queue.js';
import { buildStudy } from '../../apps/router/test/study-builder.js';
import { openBrowser, type TBrowserSession } from '../support/browser.js';
import { apiAs } from '../support/lab.js';
import { eventually } from '../support/pages.js';
import { storyServer } from '../support/server.js';
import { DEMO_PASSWORD, uniqueTag } from '../support/worklist.js';

const HYBRID_EMAIL = 'offline-hybrid@demo.local';

/**
 * Issue 27 §4, the way back: a hybrid doctor signs a report off on the router while the link is
 * down, and meanwhile a doctor in the cloud has reported the same study. When the link returns,
 * the router's sync (the real one, against the story's cloud) is refused, the hybrid list shows the
 * conflict with the cloud's reason and keeps the offline text; the doctor chooses to keep the
 * cloud's report, the choice goes up, and neither side's report was overwritten.
 */
describe('a report written offline meets one written in the cloud meanwhile', () => {
  let browser: TBrowserSession;
  let cloudDoctor: APIRequestContext;
  let dataDir: string;
  let queue: InstanceQueue;
  let store: OfflineReportStore;
  let sync: ReportSync;
  let router: Awaited<ReturnType<typeof startLocalApi>>;
  let linkUp = true;
  let row: TCreatedStudy;
  let patientId: string;

  beforeAll(async () => {
    const { baseURL } = storyServer();
    // The study, in the cloud first (the center created it there), and on the router with its UID.
    const center = await apiAs('center@demo.local');
    const centers = (await (await center.get('/api/centers')).json()) as { id: number }[];
    patientId = `CONFLICT-${uniqueTag()}`;
    const created = await center.post('/api/dicom-web/study/create-from-website', {
      data: {
        patientName: 'CONFLICT^CASE',
        patientId,
        labModality: 'CT',
        patientAge: '40Y',
        patientSex: 'M',
        center: centers[0]!.id,
        studyName: 'CT Head',
        history: 'Fall',
      },
    });
    expect([200, 201], await created.text()).toContain(created.status());
    row = (await created.json()) as TCreatedStudy;
    const token = ((await (await center.get('/api/user/token')).json()) as { token: string }).token;
    await center.dispose();
    const study = buildStudy({ count: 1, patientId, studyInstanceUid: row.studyInstanceUID });

    dataDir = await mkdtemp(join(tmpdir(), 'e2e-hybrid-conflict-'));
    queue = await InstanceQueue.open({ dataDir });
    store = await OfflineReportStore.open(dataDir);
    const credentials = await OfflineCredentials.open(dataDir);
    // The link: every call of the router to the cloud goes through it.
    const linkFetch: typeof fetch = (input, init) =>
      linkUp ? fetch(input, init) : Promise.reject(new TypeError('fetch failed: the link is down'));
    sync = new ReportSync(store, {
      serverUrl: baseURL,
      apiToken: token,
      grantOf: (email) => credentials.grantOf(email),
      probeMs: 100,
      backoff: { baseMs: 100, maxMs: 500 },
      fetch: linkFetch,
    });
    const online = createCloudLogin({ serverUrl: baseURL });
    const unreachable = createCloudLogin({ serverUrl: 'http://127.0.0.1:9' });
    const cloud: CloudLogin = { verify: (c) => (linkUp ? online : unreachable).verify(c) };
    const unused = () => Promise.reject(new Error('not in this story'));
    router = await startLocalApi({
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
      hybrid: hybridReportsOf(uploadQueueOf(queue), store, () => sync.kick()),
      offlineImages: new SpoolImages((uid) => queue.studyFiles(uid)),
      webDir: fileURLToPath(new URL('../../apps/web/dist', import.meta.url)),
    });
    for (const instance of study.instances) await queue.enqueueFile(instance.bytes);

    // Once, online: the hybrid doctor signs in to the router, which keeps a verifier and a grant.
    const form = new FormData();
    form.set('email', HYBRID_EMAIL);
    form.set('password', DEMO_PASSWORD);
    const first = await fetch(`${router.url.replace('127.0.0.1', 'localhost')}/login`, {
      method: 'POST',
      body: form,
    });
    expect(first.status, await first.text()).toBe(200);
    expect(credentials.grantOf(HYBRID_EMAIL), 'the grant of the online sign-in').toBeTruthy();

    linkUp = false;
    sync.start();
    // Meanwhile, in the cloud: another doctor reports the study.
    cloudDoctor = await apiAs('doctor@demo.local');
    const lock = await cloudDoctor.post(`/api/report/lock/${row.id}`, { data: {} });
    expect(lock.status(), await lock.text()).toBe(200);
    const saved = await cloudDoctor.post(`/api/report/save/${row.id}`, {
      data: { name: 'CT Head', content: '<p>Reported in the cloud.</p>', signOff: false, baseVersion: null },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    browser = await openBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await cloudDoctor?.dispose();
    await sync?.stop();
    await router?.app.close();
    await store?.close();
    await queue?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('shows the conflict with both texts kept, and keeps the cloud’s report when chosen', async () => {
    const { page } = browser;
    const port = new URL(router.url).port;
    await page.goto(`http://localhost:${port}/hybrid-study-list`);
    const form = page.getByRole('form', { name: 'Sign in to the router' });
    await form.getByLabel('Email').fill(HYBRID_EMAIL);
    await form.getByLabel('Password').fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Sign in to router' }).click();

    const list = page.getByRole('table', { name: 'Hybrid study list' });
    const rowOf = () => list.getByRole('row').filter({ hasText: patientId });
    await rowOf().getByText('Not reported').waitFor();
    await rowOf()
      .getByRole('button', { name: /^Report / })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Report name').fill('CT Head');
    await dialog.getByRole('textbox', { name: 'Report', exact: true }).click();
    await page.keyboard.type('Written offline.');
    await dialog.getByRole('button', { name: 'Sign off' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await rowOf().getByText('Saved on the router, waiting for the link').waitFor();

    // The link returns: the cloud refuses the offline report (the study is reported there).
    linkUp = true;
    sync.kick();
    await eventually(() => store.report(row.studyInstanceUID)?.state, 'the sync to meet the conflict').toBe(
      'CONFLICT',
    );
    await page.reload();
    await rowOf().getByText('Conflict: not sent').waitFor();
    const reason = store.report(row.studyInstanceUID)!.reason!;
    await rowOf().getByText(reason).waitFor();

    await rowOf()
      .getByRole('button', { name: /^Report / })
      .click();
    await dialog.getByText(`The cloud did not take this report: ${reason}`).waitFor();
    await dialog.getByRole('button', { name: 'Keep the cloud’s report' }).click();
    const confirm = page.getByRole('dialog', { name: 'Keep the cloud’s report?' });
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await eventually(
      () => store.report(row.studyInstanceUID)?.resolution?.state,
      'the choice to be taken by the cloud',
    ).toBe('DONE');
    expect(store.report(row.studyInstanceUID)).toMatchObject({
      state: 'SYNCED',
      content: '<p>Reported in the cloud.</p>',
      resolution: { action: 'KEEP_CLOUD', state: 'DONE' },
    });
    expect(store.history(row.studyInstanceUID).map((w) => w.content)).toEqual([
      expect.stringContaining('Written offline.'),
    ]);
    // The cloud's report is the cloud doctor's, as they left it.
    const cloudReport = await cloudDoctor.get(`/api/report/${row.id}`);
    expect(cloudReport.status(), await cloudReport.text()).toBe(200);
    expect(await cloudReport.text()).toContain('Reported in the cloud.');
    expect(await cloudReport.text()).not.toContain('Written offline.');
  });
});
