import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { ctVolumeFiles, generatedSopUid, type TGeneratedFile } from '../support/ct-volume.js';
import { eventually } from '../support/pages.js';
import {
  ViewerScreen,
  canvasPixels,
  corpusCopy,
  dragAcross,
  uploadFile,
  waitForCanvasImage,
} from '../support/viewer.js';
import { openSignedIn, uniqueTag } from '../support/worklist.js';

const RUN = uniqueTag();
type TStudy = { uid: string; id: number };

/** Uploads the files of one study as the signed-in center; the study's UID and report row id. */
async function uploadStudy(page: Page, files: TGeneratedFile[]): Promise<TStudy> {
  let id = 0;
  for (const file of files) id = await uploadFile(page, file);
  return { uid: files[0]!.studyInstanceUid, id };
}

const textOf = async (locator: Locator) => (await locator.textContent()) ?? '';

describe('Viewer tools (issue 5 §2, §3, §6)', () => {
  const studies = new Map<string, TStudy>();
  let open: TBrowserSession | undefined;

  beforeAll(async () => {
    const center = await openSignedIn('center@demo.local', { home: false });
    const upload = (files: TGeneratedFile[]) => uploadStudy(center.page, files);
    const patient = { patientName: `T${RUN}`, patientId: `T-${RUN}`.slice(0, 16) };
    try {
      studies.set('volume', await upload(ctVolumeFiles({ salt: `${RUN}-volume`, ...patient })));
      studies.set(
        'failing-volume',
        await upload(ctVolumeFiles({ salt: `${RUN}-failing`, ...patient, slices: 12, size: 64 })),
      );
      // A real MR of the corpus: 20 oblique slices (ADC map of a prostate).
      const prostate = Array.from({ length: 20 }, (_, i) =>
        corpusCopy(`mr/series_adc_prostate_20slices/${String(i).padStart(6, '0')}.dcm`, `${RUN}-mr`),
      );
      studies.set('mr', await upload(prostate));
      // Three series of one study, for the series keys.
      const threeSeries = [1, 2, 3].flatMap((seriesNumber) =>
        ctVolumeFiles({ salt: `${RUN}-series`, ...patient, seriesNumber, slices: 5, size: 64 }),
      );
      studies.set('series', await upload(threeSeries));
      // An earlier study of another patient, for the priors.
      const priorPatient = { patientName: `P${RUN}`, patientId: `P-${RUN}`.slice(0, 16) };
      const current = ctVolumeFiles({ salt: `${RUN}-now`, ...priorPatient, slices: 5, size: 64 });
      const earlier = ctVolumeFiles({
        salt: `${RUN}-then`,
        ...priorPatient,
        slices: 5,
        size: 64,
        studyDate: '20240101',
      });
      studies.set('current', await upload(current));
      studies.set('prior', await upload(earlier));
      studies.set(
        'single-ct',
        await upload([corpusCopy('transfer_syntax/ct_jpeg_baseline_process1.dcm', `${RUN}-1ct`)]),
      );
      studies.set('us', await upload([corpusCopy('us/us_rgb_640x480_explicit_le.dcm', `${RUN}-us`)]));
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

  async function openViewer(name: string): Promise<ViewerScreen> {
    open ??= await openSignedIn('doctor@demo.local', { home: false });
    const viewer = new ViewerScreen(open.page);
    const study = studies.get(name)!;
    await viewer.open(study.uid, study.id);
    return viewer;
  }

  it('opens a generated CT in MPR: three views of one volume, synchronised presets, back to the stack', async () => {
    const viewer = await openViewer('volume');
    const page = open!.page;
    await viewer.waitForImage();
    await eventually(() => viewer.mprButton.isEnabled(), 'the MPR button is enabled for a CT volume').toBe(
      true,
    );
    await viewer.mprButton.click();

    const views = ['axial', 'sagittal', 'coronal'] as const;
    const shown = new Map<string, Awaited<ReturnType<typeof canvasPixels>>>();
    for (const view of views) {
      shown.set(view, await waitForCanvasImage(viewer.mprView(view), `the ${view} view shows the volume`));
    }
    await eventually(() => page.getByTestId('mpr-loading').count(), 'the volume loads').toBe(0);
    expect(await page.getByTestId('mpr').getByTestId('image-failed').count()).toBe(0);
    // Read again once every slice is in: a sagittal reconstruction is not the axial slice.
    const axial = await canvasPixels(viewer.mprView('axial'));
    const sagittal = await canvasPixels(viewer.mprView('sagittal'));
    expect(axial.lit).toBeGreaterThan(0);
    expect(sagittal.sum).not.toBe(axial.sum);
    expect(sagittal.lit).not.toBe(axial.lit);

    // Orientation letters at the edges (patient left on the viewer's right; head up).
    for (const [view, letters] of [
      ['axial', ['A', 'P', 'R', 'L']],
      ['sagittal', ['H', 'F', 'A', 'P']],
      ['coronal', ['H', 'F', 'R', 'L']],
    ] as const) {
      for (const letter of letters) await viewer.mprView(view).getByText(letter, { exact: true }).waitFor();
    }

    // A preset key sets the window of all three views.
    await page.keyboard.press('2');
    for (const view of views) {
      await viewer.mprView(view).getByTestId('mpr-overlay-window').getByText('W: 1500 L: -600').waitFor();
    }
    // Window level dragged in one view follows in the others.
    await dragAcross(page, viewer.mprView('axial'), [0.15, 0.15], [0.35, 0.3]);
    const windowOf = (view: (typeof views)[number]) =>
      textOf(viewer.mprView(view).getByTestId('mpr-overlay-window'));
    await eventually(() => windowOf('axial'), 'the drag changes the window').not.toBe('W: 1500 L: -600');
    const dragged = await windowOf('axial');
    for (const view of ['sagittal', 'coronal'] as const) {
      await eventually(() => windowOf(view), `the ${view} view follows`).toBe(dragged);
    }
    // The frame keys scroll the view last clicked.
    await viewer.mprView('sagittal').click();
    const sagittalSlice = viewer.mprView('sagittal').getByTestId('mpr-overlay-slice');
    const before = await textOf(sagittalSlice);
    expect(before).toMatch(/^Img: \d+\/128$/);
    await page.keyboard.press('ArrowDown');
    await eventually(() => textOf(sagittalSlice), 'the sagittal view moves a slice').not.toBe(before);

    await page.getByRole('button', { name: 'Back to stack' }).click();
    await viewer.waitForImage();
    await eventually(() => page.getByTestId('mpr').count(), 'MPR is gone').toBe(0);
    // The v key opens it again.
    await page.keyboard.press('v');
    await waitForCanvasImage(viewer.mprView('coronal'), 'MPR opens again with v');
  });

  it('opens a real MR series of the corpus (20 oblique slices) in MPR', async () => {
    const viewer = await openViewer('mr');
    const page = open!.page;
    await viewer.waitForImage();
    await eventually(() => viewer.mprButton.isEnabled(), 'the MPR button is enabled for the MR').toBe(true);
    await page.keyboard.press('v');
    for (const view of ['axial', 'sagittal', 'coronal'] as const) {
      await waitForCanvasImage(viewer.mprView(view), `the ${view} view shows the MR volume`);
    }
    await eventually(() => page.getByTestId('mpr-loading').count(), 'the volume loads').toBe(0);
    expect(await page.getByTestId('mpr').getByTestId('image-failed').count()).toBe(0);
  });

  it('says MPR could not be built when a slice fails to load, rather than showing a volume with a hole', async () => {
    open = await openSignedIn('doctor@demo.local', { home: false });
    const page = open.page;
    // One slice's frames fail at the network (the browser's view of a server or disk failure).
    const failing = encodeURIComponent(generatedSopUid(`${RUN}-failing`, 1, 6));
    await page.route(
      (url) => url.pathname.includes(`/instances/${failing}/frames/`),
      (route) => route.fulfill({ status: 503, body: 'unavailable' }),
    );
    const viewer = new ViewerScreen(page);
    const study = studies.get('failing-volume')!;
    await viewer.open(study.uid, study.id);
    await eventually(() => viewer.mprButton.isEnabled(), 'the MPR button is enabled').toBe(true);
    await viewer.mprButton.click();
    for (const view of ['axial', 'sagittal', 'coronal'] as const) {
      await viewer
        .mprView(view)
        .getByTestId('image-failed')
        .getByText('MPR could not be built: 1 of 12 slices could not be loaded.')
        .waitFor();
    }
    expect(await page.getByTestId('mpr-loading').count()).toBe(0);
  });

  it('shows MPR disabled, saying why, for a single CT image, and no MPR for ultrasound', async () => {
    const viewer = await openViewer('single-ct');
    const page = open!.page;
    await viewer.waitForImage();
    await eventually(() => viewer.mprButton.isDisabled(), 'the MPR button is disabled').toBe(true);
    await viewer.mprButton.locator('..').hover();
    await page
      .getByRole('tooltip')
      .getByText('MPR needs a series of evenly spaced parallel slices: it needs at least 3 slices.')
      .waitFor();

    const us = await openViewer('us');
    await us.waitForImage();
    await us.expectOverlay(/Img: 1\/1/);
    expect(await us.mprButton.count()).toBe(0);
  });

  it('selects each tool by its key (m, z, l, e, a, y), as the toolbar shows', async () => {
    const viewer = await openViewer('series');
    const page = open!.page;
    await viewer.waitForImage();
    const tools = page.getByRole('group', { name: 'Mouse tool' });
    for (const [key, label] of [
      ['m', 'Pan'],
      ['z', 'Zoom'],
      ['l', 'Length'],
      ['e', 'Ellipse'],
      ['a', 'Angle'],
      ['y', 'Arrow annotation'],
    ] as const) {
      await page.keyboard.press(key);
      await eventually(
        () => tools.getByRole('button', { name: label, exact: true }).getAttribute('aria-pressed'),
        `${key} selects ${label}`,
      ).toBe('true');
      expect(await tools.locator('[aria-pressed="true"]').count()).toBe(1);
    }
  });

  it('sets each window preset with 1-6, as the overlay shows', async () => {
    const viewer = await openViewer('series');
    const page = open!.page;
    await viewer.waitForImage();
    const window = viewer.viewport().getByTestId('overlay-window');
    // The images' own window is 400/40 (preset 1), so 1 comes last.
    for (const [key, text] of [
      ['2', 'W: 1500 L: -600'],
      ['3', 'W: 150 L: 90'],
      ['4', 'W: 2500 L: 480'],
      ['5', 'W: 80 L: 40'],
      ['6', 'W: 40 L: 40'],
      ['1', 'W: 400 L: 40'],
    ] as const) {
      await page.keyboard.press(key);
      await window.getByText(text).waitFor();
    }
  });

  it('moves through series with Home/End and ←/→, and through frames with ↑/↓', async () => {
    const viewer = await openViewer('series');
    const page = open!.page;
    await viewer.waitForImage();
    const series = viewer.viewport().getByTestId('overlay-series');
    const expectSeries = (text: RegExp, what: string) => eventually(() => textOf(series), what).toMatch(text);
    await expectSeries(/Ser: 1 Phantom 1.*Img: 1\/5/, 'the first series opens');
    await page.keyboard.press('End');
    await expectSeries(/Ser: 3 Phantom 3/, 'End shows the last series');
    await page.keyboard.press('Home');
    await expectSeries(/Ser: 1 Phantom 1/, 'Home shows the first series');
    await page.keyboard.press('ArrowRight');
    await expectSeries(/Ser: 2 Phantom 2/, '→ shows the next series');
    await page.keyboard.press('ArrowLeft');
    await expectSeries(/Ser: 1 Phantom 1/, '← shows the previous series');
    await page.keyboard.press('ArrowDown');
    await expectSeries(/Img: 2\/5/, '↓ shows the next frame');
    await page.keyboard.press('ArrowDown');
    await expectSeries(/Img: 3\/5/, '↓ again');
    await page.keyboard.press('ArrowUp');
    await expectSeries(/Img: 2\/5/, '↑ shows the previous frame');
  });

  it('opens the keyboard-shortcut help from the toolbar', async () => {
    const viewer = await openViewer('series');
    const page = open!.page;
    await viewer.waitForImage();
    await page
      .getByRole('toolbar', { name: 'Viewer tools' })
      .getByRole('button', { name: 'Keyboard Shortcut' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Keyboard Shortcut' });
    await dialog.getByText('Window preset Soft Tissue (W 400 / L 40)').waitFor();
    await dialog.getByText('Previous / next frame').waitFor();
    await dialog.getByText('MPR (axial / sagittal / coronal) on / off').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await eventually(() => dialog.count(), 'the dialog closes').toBe(0);
  });

  it('draws an angle with a and three points, and shows it again after a reload', async () => {
    const viewer = await openViewer('volume');
    const page = open!.page;
    await viewer.waitForImage();
    await page.keyboard.press('a');
    const saved = page.waitForResponse(
      (res) =>
        res.request().method() === 'PUT' &&
        /\/api\/viewer\/\d+\/annotations\//.test(res.url()) &&
        (res.request().postDataJSON() as { toolName?: string }).toolName === 'Angle',
    );
    // First arm by a drag, then the third point by a click.
    await dragAcross(page, viewer.viewport(), [0.3, 0.35], [0.5, 0.5]);
    const box = (await viewer.viewport().boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.65, box.y + box.height * 0.35, { steps: 8 });
    await page.mouse.down();
    await page.mouse.up();
    expect((await saved).status()).toBe(200);
    await eventually(() => viewer.annotationLabels().count(), 'the angle is drawn').toBe(1);
    expect(await viewer.annotationLabels().first().textContent()).toMatch(/°/);

    await page.reload();
    await viewer.waitForImage();
    await eventually(() => viewer.annotationLabels().count(), 'the saved angle is drawn again').toBe(1);
    expect(await viewer.annotationLabels().first().textContent()).toMatch(/°/);
  });

  it('lists a prior of the same patient, opens it side by side, and scrolling one moves the other', async () => {
    const viewer = await openViewer('current');
    const page = open!.page;
    await viewer.waitForImage();
    const priors = page.getByRole('list', { name: 'Prior studies' });
    await priors.getByText(/2024-01-01/).click();
    await viewer.waitForImage(1);
    const slice = (index: number) => textOf(viewer.viewport(index).getByTestId('overlay-series'));
    await eventually(() => slice(1), 'the prior shows its first image').toMatch(/Img: 1\/5/);

    const box = (await viewer.viewport(0).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 120);
    await eventually(() => slice(0), 'the wheel scrolls the study').not.toMatch(/Img: 1\/5/);
    const shown = /Img: \d+\/5/.exec(await slice(0))?.[0];
    await eventually(() => slice(1), 'the prior follows').toMatch(new RegExp(shown!));
  });
});
