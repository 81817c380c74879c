import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { StudyList, eventually } from '../support/pages.js';
import { ViewerScreen, corpusCopy, uploadFile } from '../support/viewer.js';
import { openSignedIn, uniqueTag } from '../support/worklist.js';

const RUN = uniqueTag();
// 'JANCT000' is 8 characters: the copy's patient name keeps that length.
const PATIENT = `V${RUN}`.slice(0, 8);
const LIVER = [
  'ct/study_liver/ct_liver_01.dcm',
  'ct/study_liver/ct_liver_02.dcm',
  'ct/study_liver/ct_liver_03.dcm',
];
const KEYS = ['1', '2', '3', '4', '5', '6'];

/**
 * Issue 5 §6: a doctor reads a CT from the worklist in the viewer — the image is on the canvas, each
 * window preset key changes it, a length drawn with `l` is there again after a reload.
 */
describe('Viewer: a doctor reads a CT', () => {
  let study = { uid: '', id: 0 };
  let open: TBrowserSession | undefined;

  beforeAll(async () => {
    const center = await openSignedIn('center@demo.local', { home: false });
    try {
      for (const path of LIVER) {
        const file = corpusCopy(path, RUN, { patientName: PATIENT });
        study = { uid: file.studyInstanceUid, id: await uploadFile(center.page, file) };
      }
    } finally {
      await center.close();
    }
  });
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });
  afterAll(async () => {
    await open?.close();
  });

  it('changes the pixels with each window preset key (1-6)', async () => {
    open = await openSignedIn('doctor@demo.local', { home: false });
    const viewer = new ViewerScreen(open.page);
    await viewer.open(study.uid, study.id);
    let before = (await viewer.waitForImage()).sum;
    for (const key of KEYS) {
      await open.page.keyboard.press(key);
      await eventually(async () => (await viewer.pixels()).sum, `preset ${key} changes the image`).not.toBe(
        before,
      );
      before = (await viewer.pixels()).sum;
    }
    // The last preset (Brain Infract 40/40) is what the overlay reads.
    await viewer.expectOverlay('W: 40 L: 40');
  });

  it('draws a length with l and a drag, and shows it again after a reload', async () => {
    open = await openSignedIn('doctor@demo.local', { home: false });
    const { page } = open;
    const viewer = new ViewerScreen(page);
    await viewer.open(study.uid, study.id);
    await viewer.waitForImage();
    await page.keyboard.press('l');
    const saved = page.waitForResponse(
      (res) => res.request().method() === 'PUT' && /\/api\/viewer\/\d+\/annotations\//.test(res.url()),
    );
    await viewer.drag();
    expect((await saved).status()).toBe(200);
    await expect.poll(() => viewer.annotationLabels().count()).toBe(1);

    await page.reload();
    await viewer.waitForImage();
    await eventually(() => viewer.annotationLabels().count(), 'the saved length is drawn again').toBe(1);
    expect(await viewer.annotationLabels().first().textContent()).toMatch(/mm/);
  });

  it('draws an ellipse with e and an arrow with y; both are saved and drawn again after a reload', async () => {
    open = await openSignedIn('doctor@demo.local', { home: false });
    const { page } = open;
    const viewer = new ViewerScreen(page);
    await viewer.open(study.uid, study.id);
    await viewer.waitForImage();
    const savedTools: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'PUT' && /\/api\/viewer\/\d+\/annotations\//.test(req.url())) {
        savedTools.push((req.postDataJSON() as { toolName: string }).toolName);
      }
    });
    await page.keyboard.press('e');
    await viewer.drag(0, [0.2, 0.2], [0.3, 0.3]);
    await eventually(() => savedTools.includes('EllipticalROI'), 'the ellipse is saved').toBe(true);
    await page.keyboard.press('y');
    // Clear of the length drawn before (its text box sits right of its end).
    await viewer.drag(0, [0.15, 0.75], [0.3, 0.9]);
    const label = page.getByRole('dialog', { name: 'Arrow label' });
    await label.getByLabel('Label').fill('Lesion');
    await label.getByRole('button', { name: 'OK' }).click();
    await eventually(() => savedTools.includes('ArrowAnnotate'), 'the arrow is saved').toBe(true);

    await page.reload();
    await viewer.waitForImage();
    const res = await page.request.get(`/api/viewer/${study.id}/annotations`);
    const { annotations } = (await res.json()) as { annotations: { toolName: string }[] };
    expect(annotations.map((a) => a.toolName)).toEqual(
      expect.arrayContaining(['EllipticalROI', 'ArrowAnnotate']),
    );
    // Every saved ellipse is drawn again, and the arrow with its label.
    const ellipses = annotations.filter((a) => a.toolName === 'EllipticalROI').length;
    await eventually(
      () => viewer.viewport().locator('svg.svg-layer ellipse').count(),
      'the saved ellipses are drawn again',
    ).toBe(ellipses);
    await viewer.viewport().locator('svg.svg-layer').getByText('Lesion').waitFor();
  });

  // A study whose upload has not been marked complete yet (no instance for UPLOAD_QUIET_SECONDS)
  // opens too, with the spec's warning: the images so far are readable.
  it('opens the study from the worklist and shows the image on the canvas', async () => {
    open = await openSignedIn('doctor@demo.local', { home: false });
    const { page } = open;
    const list = new StudyList(page);
    await list.open('/');
    await list.filterBy('Patient', PATIENT, 1);
    const pending = (await list.row(PATIENT).getByText('Upload pending').count()) > 0;
    await list.actions(list.row(PATIENT)).button('View images').click();
    await page.waitForURL((url) => url.pathname.startsWith('/viewer/'));
    if (pending) {
      await page.getByText('Study is not fully uploaded. please check with center').first().waitFor();
    }

    const viewer = new ViewerScreen(page);
    const shown = await viewer.waitForImage();
    expect(shown.lit).toBeGreaterThan(0);
    await viewer.expectOverlay(/Img: 1\/3/);
    await viewer.expectOverlay(PATIENT);
  });
});
