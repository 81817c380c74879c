import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStudy } from '../../apps/router/test/study-builder.js';
import { openBrowser, type TBrowserSession } from '../support/browser.js';
import { HYBRID_EMAIL, startHybridRouter, type THybridRouter } from '../support/hybrid-router.js';
import { eventually } from '../support/pages.js';
import { ViewerScreen } from '../support/viewer.js';

/**
 * Issue 27 §4 as a hybrid user sees it with the link down: the router serves the web app itself at
 * localhost, the user signs in with the password the router learnt while online, opens a study the
 * router holds, looks at its images (read and drawn by the router), measures a length the router
 * keeps, and signs a report off; the
 * router keeps it, waiting for the link. The taking up to
 * the cloud is the router's integration test (apps/router/test/hybrid-sync.int.test.ts).
 */
describe('offline hybrid reporting on the router', () => {
  let browser: TBrowserSession;
  let router: THybridRouter;
  // Born 1981-03-15, scanned 2026-11-27 (the builder's study date): 45 years old.
  const study = buildStudy({
    count: 2,
    patientId: 'HYBRID-1',
    patientSex: 'F',
    patientBirthDate: '19810315',
  });

  beforeAll(async () => {
    router = await startHybridRouter();
    for (const instance of study.instances) await router.queue.enqueueFile(instance.bytes);
    // Once, online: the hybrid user signs in to the router, which keeps a verifier of the password.
    await router.signInOnline(HYBRID_EMAIL);
    router.link.up = false;
    browser = await openBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await router?.close();
  });

  it('opens the app from the router, signs in offline and signs off a report kept on the router', async () => {
    const { page } = browser;
    // Signed in with the password the router learnt online: the link is down.
    const row = (await router.openList(page)).getByRole('row').filter({ hasText: 'HYBRID-1' });
    await row.getByText('Not reported').waitFor();

    // The images, read from the router's spool and drawn by it: a real picture, not a blank.
    await row.getByRole('button', { name: /^Images / }).click();
    const images = page.getByRole('dialog');
    const first = images.getByRole('img', { name: 'Image 1 of 2' });
    await first.waitFor();
    await eventually(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(
      64,
    );
    const spread = await first.evaluate((img: HTMLImageElement) => {
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0);
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      let min = 255;
      let max = 0;
      for (let i = 0; i < data.length; i += 4) {
        min = Math.min(min, data[i]!);
        max = Math.max(max, data[i]!);
      }
      return max - min;
    });
    expect(spread).toBeGreaterThan(50);
    await images.getByRole('button', { name: 'Next image' }).click();
    await images.getByRole('img', { name: 'Image 2 of 2' }).waitFor();
    await images.getByRole('button', { name: 'Close' }).click();
    await images.waitFor({ state: 'hidden' });

    // The diagnostic viewer on the router's page: Cornerstone reads the router's images (with the
    // cookie the session was traded for), and its tools work with no cloud.
    await row.getByRole('button', { name: /^Viewer / }).click();
    await page.waitForURL(/\/offline-viewer\//);
    const viewer = new ViewerScreen(page);
    const shown = await viewer.waitForImage();
    await viewer.expectOverlay('HYBRID-1');
    await viewer.expectOverlay('F / 045Y');
    const thumbnail = page.getByRole('list', { name: 'Series' }).getByRole('img').first();
    await eventually(() =>
      thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).toBe(true);
    await viewer.drag(); // window/level, the default tool
    await eventually(async () => (await viewer.pixels()).sum).not.toBe(shown.sum);
    // A length is measured and kept on the router; nothing asks the cloud's annotation calls.
    const viewerCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/viewer/')) viewerCalls.push(request.url());
    });
    await page.keyboard.press('l');
    const keeping = page.waitForResponse(
      (res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/hybrid/annotations',
    );
    await viewer.drag(0, [0.3, 0.3], [0.6, 0.6]);
    expect((await keeping).status()).toBe(200);
    await eventually(() => viewer.annotationLabels().count(), 'the length is drawn').toBe(1);
    expect(await viewer.annotationLabels().first().textContent()).toMatch(/mm|px/);
    expect(router.annotations.list(study.studyInstanceUid).annotations).toMatchObject([
      { toolName: 'Length', createdBy: HYBRID_EMAIL },
    ]);
    await page.getByRole('button', { name: 'Close viewer' }).click();
    await row.getByText('Not reported').waitFor();
    // Opened again, the router's copy of the length is drawn where it was.
    await row.getByRole('button', { name: /^Viewer / }).click();
    await viewer.waitForImage();
    await eventually(() => viewer.annotationLabels().count(), 'the kept length is drawn again').toBe(1);
    // The images carry no pixel spacing: the length is in image pixels, between the kept points.
    const keptLength = () => {
      const [again] = router.annotations.list(study.studyInstanceUid).annotations;
      const [from, to] = (again!.data as { handles: { points: number[][] } }).handles.points;
      return `${Math.hypot(to![0]! - from![0]!, to![1]! - from![1]!).toFixed(1)} px`;
    };
    await eventually(
      async () => (await viewer.annotationLabels().first().textContent()) === keptLength(),
    ).toBe(true);
    await page.getByRole('button', { name: 'Close viewer' }).click();
    await row.getByText('Not reported').waitFor();
    expect(viewerCalls).toEqual([]);

    await row.getByRole('button', { name: /^Report / }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Report name').fill('CT Head');
    await dialog.getByRole('textbox', { name: 'Report', exact: true }).click();
    await page.keyboard.type('No acute bleed.');
    // Unsaved, the text is kept on the router too once typing rests (another PC would find it).
    await eventually(
      () => router.drafts.draft(study.studyInstanceUid, HYBRID_EMAIL)?.content ?? '',
    ).toContain('No acute bleed.');
    await dialog.getByRole('button', { name: 'Sign off' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await row.getByText('Saved on the router, waiting for the link').waitFor();
    await eventually(() => row.textContent()).toContain('Signed off');
    expect(router.store.report(study.studyInstanceUid)).toMatchObject({
      state: 'PENDING',
      signedOff: true,
      name: 'CT Head',
      authorEmail: HYBRID_EMAIL,
    });
    // The sign-off took the text: the router's draft is gone.
    expect(router.drafts.draft(study.studyInstanceUid, HYBRID_EMAIL)).toBeNull();
    expect(router.store.report(study.studyInstanceUid)?.content).toContain('No acute bleed.');

    // Its versions, as the router keeps them.
    await row.getByRole('button', { name: /^Report / }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Versions' }).click();
    const versions = page.getByRole('table', { name: 'Versions' });
    await versions.getByText('Signed off on the router, not sent yet').waitFor();
    expect(await versions.getByRole('row').count()).toBe(2); // the header and version 1
  });
});
