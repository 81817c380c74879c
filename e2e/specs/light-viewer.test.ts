import type { Locator, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { eventually } from '../support/pages.js';
import { corpusCopy, uploadFile } from '../support/viewer.js';
import { openSignedIn, uniqueTag } from '../support/worklist.js';

const RUN = uniqueTag();
const PATIENT = `L${RUN}`.slice(0, 8);
const REFERRING_DOCTOR = 'referring-doctor@demo.local';
const SLICES = [
  'ct/study_liver/ct_liver_01.dcm',
  'ct/study_liver/ct_liver_02.dcm',
  'ct/study_liver/ct_liver_03.dcm',
];
const PHONE = { width: 360, height: 740 };

/** The light viewer (issue 29 §4): the page a referring doctor opens a shared study on. */
class LightViewer {
  readonly root: Locator;
  constructor(private readonly page: Page) {
    this.root = page.getByTestId('light-viewer');
  }

  image(): Locator {
    return this.root.getByRole('img', { name: /^Image \d+ of \d+$/ });
  }

  /** The image's name once the browser has it decoded (a rendered JPEG with pixels). */
  async shownImage(): Promise<{ name: string; src: string }> {
    const img = this.image();
    await eventually(() =>
      img.evaluate((node: HTMLImageElement) => node.complete && node.naturalWidth > 0),
    ).toBe(true);
    return {
      name: (await img.getAttribute('alt')) ?? '',
      src: (await img.evaluate((node: HTMLImageElement) => node.src)) ?? '',
    };
  }

  /** A finger-like drag on the image: up moves forward through the stack. */
  async dragUp(pixels: number): Promise<void> {
    const box = await this.root.getByTestId('light-viewer-stage').boundingBox();
    if (!box) throw new Error('the stage is not on screen');
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x, y - pixels, { steps: 6 });
    await this.page.mouse.up();
  }
}

describe('Light viewer on a phone (spec-core §2 Viewer entry: without d=1, the other viewer)', () => {
  let study = { uid: '', id: 0 };
  let open: TBrowserSession | undefined;

  beforeAll(async () => {
    const center = await openSignedIn('center@demo.local', { home: false });
    try {
      let id = 0;
      let uid = '';
      for (const path of SLICES) {
        const file = corpusCopy(path, RUN, { patientName: PATIENT });
        id = await uploadFile(center.page, file);
        uid = file.studyInstanceUid;
      }
      study = { uid, id };
      // The center shares the study with the group's referring doctor, as the Share dialog does.
      const shared = await center.page.request.post('/api/report-status/save', {
        data: { reportStatusId: id, referringDoctorEmail: REFERRING_DOCTOR },
      });
      expect(shared.status(), await shared.text()).toBe(200);
    } finally {
      await center.close();
    }
  });
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });

  it('opens the shared study at 360 px: rendered images, swipe through the stack, presets, no Cornerstone', async () => {
    open = await openSignedIn(REFERRING_DOCTOR);
    const { page } = open;
    await page.setViewportSize(PHONE);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(`/viewer/${encodeURIComponent(study.uid)}/${study.id}?v=2`);
    const viewer = new LightViewer(page);
    const first = await viewer.shownImage();
    expect(first.name).toBe('Image 1 of 3');
    expect(new URL(first.src).searchParams.get('viewport')).toMatch(/^\d+,\d+$/);
    // Nothing wider than the phone: no sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const box = await viewer.image().boundingBox();
    expect(box!.width).toBeLessThanOrEqual(PHONE.width);

    // A swipe up of three images' worth moves to the last slice.
    await viewer.dragUp(80);
    const last = await viewer.shownImage();
    expect(last.name).toBe('Image 3 of 3');
    expect(last.src).not.toBe(first.src);
    await viewer.root.getByRole('button', { name: 'Previous image' }).click();
    expect((await viewer.shownImage()).name).toBe('Image 2 of 3');

    // A window preset: the server renders the frame with it.
    await viewer.root
      .getByRole('group', { name: 'Window presets' })
      .getByRole('button', { name: 'Lung' })
      .click();
    await eventually(async () => new URL((await viewer.shownImage()).src).searchParams.get('window')).toBe(
      '-600,1500',
    );

    // The diagnostic viewer is one tap away, with v kept; until then none of its code was loaded.
    expect(await viewer.root.getByRole('link', { name: 'Diagnostic viewer' }).getAttribute('href')).toBe(
      `/viewer/${encodeURIComponent(study.uid)}/${study.id}?v=2&d=1`,
    );
    expect(scripts.filter((url) => /ViewerWorkspace|cornerstone|early-requests/i.test(url))).toEqual([]);
    expect(await page.locator('canvas').count()).toBe(0);
  });

  it('puts v right in the address when the link carries an old one', async () => {
    open = await openSignedIn(REFERRING_DOCTOR, { home: false });
    const { page } = open;
    await page.setViewportSize(PHONE);
    await page.goto(`/viewer/${encodeURIComponent(study.uid)}/${study.id}?v=1`);
    await new LightViewer(page).shownImage();
    await page.waitForURL((url) => url.searchParams.get('v') === '2');
  });
});
