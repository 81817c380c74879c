import type { TCreatedStudy } from '@radflow/core';
import type { APIRequestContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSync } from '../../apps/router/src/hybrid/report-sync.js';
import { buildStudy } from '../../apps/router/test/study-builder.js';
import { openBrowser, type TBrowserSession } from '../support/browser.js';
import { HYBRID_EMAIL, startHybridRouter, type THybridRouter } from '../support/hybrid-router.js';
import { apiAs } from '../support/lab.js';
import { eventually } from '../support/pages.js';
import { storyServer } from '../support/server.js';
import { uniqueTag } from '../support/worklist.js';

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
  let router: THybridRouter;
  let sync: ReportSync;
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

    router = await startHybridRouter({ onSaved: () => sync.kick() });
    sync = new ReportSync(router.store, {
      serverUrl: baseURL,
      apiToken: token,
      grantOf: (email) => router.credentials.grantOf(email),
      probeMs: 100,
      backoff: { baseMs: 100, maxMs: 500 },
      fetch: router.linkFetch,
    });
    for (const instance of study.instances) await router.queue.enqueueFile(instance.bytes);

    // Once, online: the hybrid doctor signs in to the router, which keeps a verifier and a grant.
    await router.signInOnline(HYBRID_EMAIL);
    expect(router.credentials.grantOf(HYBRID_EMAIL), 'the grant of the online sign-in').toBeTruthy();

    router.link.up = false;
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
    await router?.close();
  });

  it('shows the conflict with both texts kept, and keeps the cloud’s report when chosen', async () => {
    const { page } = browser;
    const list = await router.openList(page);
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
    router.link.up = true;
    sync.kick();
    await eventually(
      () => router.store.report(row.studyInstanceUID)?.state,
      'the sync to meet the conflict',
    ).toBe('CONFLICT');
    await page.reload();
    await rowOf().getByText('Conflict: not sent').waitFor();
    const reason = router.store.report(row.studyInstanceUID)!.reason!;
    await rowOf().getByText(reason).waitFor();

    await rowOf()
      .getByRole('button', { name: /^Report / })
      .click();
    await dialog.getByText(`The cloud did not take this report: ${reason}`).waitFor();
    await dialog.getByRole('button', { name: 'Keep the cloud’s report' }).click();
    const confirm = page.getByRole('dialog', { name: 'Keep the cloud’s report?' });
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await eventually(
      () => router.store.report(row.studyInstanceUID)?.resolution?.state,
      'the choice to be taken by the cloud',
    ).toBe('DONE');
    expect(router.store.report(row.studyInstanceUID)).toMatchObject({
      state: 'SYNCED',
      content: '<p>Reported in the cloud.</p>',
      resolution: { action: 'KEEP_CLOUD', state: 'DONE' },
    });
    expect(router.store.history(row.studyInstanceUID).map((w) => w.content)).toEqual([
      expect.stringContaining('Written offline.'),
    ]);
    // The cloud's report is the cloud doctor's, as they left it.
    const cloudReport = await cloudDoctor.get(`/api/report/${row.id}`);
    expect(cloudReport.status(), await cloudReport.text()).toBe(200);
    expect(await cloudReport.text()).toContain('Reported in the cloud.');
    expect(await cloudReport.text()).not.toContain('Written offline.');
  });
});
