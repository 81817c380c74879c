import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { ViewerScreen, corpusCopy, uploadFile } from '../support/viewer.js';
import { openSignedIn, uniqueTag } from '../support/worklist.js';

const RUN = uniqueTag();
const NATIVE_CT = [
  'ct/study_liver/ct_liver_01.dcm',
  'ct/study_liver/ct_liver_02.dcm',
  'ct/study_liver/ct_liver_03.dcm',
];
const JPEG_BASELINE_CT = 'transfer_syntax/ct_jpeg_baseline_process1.dcm';

/**
 * Runs in the page before the app: at every animation frame, a copy of what the first-image
 * preview's canvas shows (first and last frame it was seen), and the overlay's window text then.
 * A string, so no test-runner helper ends up in the page.
 */
const WATCH_PREVIEW = `
  window.__preview = { seen: 0, first: null, last: null, window: '', early: null };
  const grab = (canvas) => {
    const g = canvas.getContext('2d');
    return { width: canvas.width, height: canvas.height, data: g.getImageData(0, 0, canvas.width, canvas.height).data };
  };
  const watch = () => {
    const early = document.querySelector('[data-testid="viewport-early"] canvas');
    if (early && early.width > 0) {
      const r = early.getBoundingClientRect();
      const p = window.__preview;
      p.early = { seen: (p.early ? p.early.seen : 0) + 1, rect: { left: r.left, top: r.top, width: r.width, height: r.height }, shot: grab(early) };
    }
    const canvas = document.querySelector('[data-testid="first-image-preview"] canvas');
    const box = canvas && canvas.parentElement;
    if (canvas && box && box.offsetParent !== null && getComputedStyle(box.parentElement).display !== 'none' && canvas.width > 0) {
      const p = window.__preview;
      p.seen += 1;
      const shot = grab(canvas);
      if (!p.first) p.first = { width: shot.width, height: shot.height };
      p.last = shot;
      const overlay = box.closest('[data-testid^="viewport-"]').querySelector('[data-testid="overlay-window"]');
      p.window = overlay ? overlay.textContent : '';
    }
    requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
`;

interface TRectSeen {
  left: number;
  top: number;
  width: number;
  height: number;
}

interface TPreviewSeen {
  /** The early script's first image (before the app ran): times seen, where, its last pixels. */
  early: {
    seen: number;
    rect: TRectSeen;
    shot: { width: number; height: number; data: Uint8ClampedArray };
  } | null;
  seen: number;
  first: { width: number; height: number } | null;
  last: { width: number; height: number; data: Uint8ClampedArray } | null;
  window: string;
}

/** The last preview frame against the Cornerstone canvas, compared in the page. */
interface TComparison {
  early: {
    seen: number;
    rect: TRectSeen;
    size: { width: number; height: number };
    sameAsPreview: boolean;
  } | null;
  earlyGone: boolean;
  cornerstoneRect: TRectSeen;
  seen: number;
  first: { width: number; height: number } | null;
  previewSize: { width: number; height: number } | null;
  cornerstoneSize: { width: number; height: number };
  window: string;
  pixels: number;
  lit: number;
  off: number;
  worst: number;
}

/**
 * Issue 5 §5 (first image ≤ 1 s, the slice on screen first) without misleading (§2): a native CT's
 * first slice is drawn before the viewer's tools load, and it is the image Cornerstone draws when
 * the viewport takes over — same size, same place, same grey levels, same window. A compressed
 * study gets no preview and still renders.
 */
describe('Viewer: the first image before the tools', () => {
  const studies = new Map<string, { uid: string; id: number }>();
  let doctor: TBrowserSession | undefined;

  beforeAll(async () => {
    const center = await openSignedIn('center@demo.local', { home: false });
    try {
      for (const path of NATIVE_CT) {
        const file = corpusCopy(path, `${RUN}-native`);
        studies.set('native', { uid: file.studyInstanceUid, id: await uploadFile(center.page, file) });
      }
      const jpeg = corpusCopy(JPEG_BASELINE_CT, `${RUN}-jpeg`);
      studies.set('jpeg', { uid: jpeg.studyInstanceUid, id: await uploadFile(center.page, jpeg) });
    } finally {
      await center.close();
    }
    doctor = await openSignedIn('doctor@demo.local', { home: false });
    await doctor.page.addInitScript({ content: WATCH_PREVIEW });
  });
  afterAll(async () => {
    await doctor?.close();
  });

  const previewSeen = () =>
    doctor!.page.evaluate(() => (window as unknown as { __preview: TPreviewSeen }).__preview);

  it('shows a native CT slice first, and Cornerstone then draws the same pixels in the same place', async () => {
    const viewer = new ViewerScreen(doctor!.page);
    const study = studies.get('native')!;
    await viewer.open(study.uid, study.id);
    await viewer.waitForImage();
    await viewer.expectOverlay(/Img: 1\/3/);
    // Cornerstone's render hides the preview in the same frame: it is not on screen any more.
    await expect.poll(async () => viewer.viewport().getByTestId('first-image-preview').count()).toBe(0);

    const seen = await doctor!.page.evaluate((): TComparison => {
      const p = (window as unknown as { __preview: TPreviewSeen }).__preview;
      const canvas = document.querySelector<HTMLCanvasElement>(
        '[data-testid="viewport-vp-0"] canvas.cornerstone-canvas',
      )!;
      const cs = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      const preview = p.last?.data ?? new Uint8ClampedArray();
      let lit = 0;
      let off = 0;
      let worst = 0;
      for (let i = 0; i < Math.min(preview.length, cs.length); i += 4) {
        const d = Math.abs((preview[i] ?? 0) - (cs[i] ?? 0));
        if ((cs[i] ?? 0) > 8) lit += 1;
        if (d > 2) off += 1;
        worst = Math.max(worst, d);
      }
      const r = canvas.getBoundingClientRect();
      const earlyData = p.early?.shot.data;
      return {
        early: p.early && {
          seen: p.early.seen,
          rect: p.early.rect,
          size: { width: p.early.shot.width, height: p.early.shot.height },
          sameAsPreview:
            earlyData !== undefined &&
            earlyData.length === preview.length &&
            earlyData.every((value, i) => value === preview[i]),
        },
        earlyGone: document.getElementById('radflow-early-preview') === null,
        cornerstoneRect: { left: r.left, top: r.top, width: r.width, height: r.height },
        seen: p.seen,
        first: p.first,
        previewSize: p.last ? { width: p.last.width, height: p.last.height } : null,
        cornerstoneSize: { width: canvas.width, height: canvas.height },
        window: p.window,
        pixels: cs.length / 4,
        lit,
        off,
        worst,
      };
    });
    // The early script drew the slice before the app ran, exactly where and as the viewport does,
    // and the app removed it once its own page showed the image.
    expect(seen.early?.seen).toBeGreaterThan(0);
    expect(seen.early?.rect).toEqual(seen.cornerstoneRect);
    expect(seen.early?.size).toEqual(seen.cornerstoneSize);
    expect(seen.early?.sameAsPreview).toBe(true);
    expect(seen.earlyGone).toBe(true);
    expect(seen.seen).toBeGreaterThan(0);
    // The loading page's viewport and the workspace's have one size: the image does not jump.
    expect(seen.first).toEqual(seen.cornerstoneSize);
    expect(seen.previewSize).toEqual(seen.cornerstoneSize);
    expect(seen.lit / seen.pixels).toBeGreaterThan(0.05);
    // Resampling may round a few edge pixels differently; the image itself is the same.
    expect(seen.off / seen.pixels).toBeLessThan(0.001);
    expect(seen.worst).toBeLessThanOrEqual(16);
    // The window the preview said is the one Cornerstone applies.
    const windowText = (await viewer.viewport().getByTestId('overlay-window').textContent()) ?? '';
    expect(seen.window).toMatch(/W: -?\d+ L: -?\d+/);
    expect(windowText).toContain(/W: -?\d+ L: -?\d+/.exec(seen.window)?.[0] ?? 'no window');
    // The preview's frame came in the first-image answer and was handed to Cornerstone: of the
    // three slices, only the other two are asked for as frames, each once.
    const frameUrls = () =>
      doctor!.page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((name) => /\/frames\/\d+$/.test(new URL(name).pathname)),
      );
    await expect.poll(async () => new Set(await frameUrls()).size).toBe(2);
    expect(await frameUrls()).toHaveLength(2);
    // The page's early requests asked for the session, the context and the study's first reads
    // before the app ran, and the app took their answers over: nothing was asked twice.
    const asked = await doctor!.page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname),
    );
    expect(asked.filter((path) => /\/assets\/early-requests-[^/]+\.js$/.test(path))).toHaveLength(1);
    const readsOf = (read: RegExp) => asked.filter((path) => read.test(path));
    expect(readsOf(/^\/api\/user\/$/)).toHaveLength(1);
    expect(readsOf(/^\/api\/viewer\/\d+\/context$/)).toHaveLength(1);
    expect(readsOf(/^\/api\/viewer\/studies\/[^/]+\/first-image$/)).toHaveLength(1);
    expect(readsOf(new RegExp(`/studies/${study.uid.replaceAll('.', '\\.')}/series$`))).toHaveLength(1);
    expect(readsOf(/\/series\/[^/]+\/metadata$/)).toHaveLength(1);
    expect(readsOf(/\/series\/[^/]+\/instances$/)).toHaveLength(1);
  });

  it('shows no preview of a JPEG baseline study, which still renders', async () => {
    const viewer = new ViewerScreen(doctor!.page);
    const study = studies.get('jpeg')!;
    await viewer.open(study.uid, study.id);
    await viewer.waitForImage();
    await viewer.expectOverlay(/Img: 1\/1/);
    expect((await previewSeen()).seen).toBe(0);
    expect((await previewSeen()).early).toBeNull();
  });
});
