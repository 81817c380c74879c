import { compareStackInstances, stackFramesOf } from '@radflow/core/display-order';
import { TAG, numberOf, textOf, type TDicomJson } from '../data-source/dicom-json';
import { dicomwebRoot } from '../data-source/image-ids';

/**
 * The light viewer's data (VIEWER.md "Light viewer"): the series and instance lists of QIDO-RS and
 * server-rendered frames (PS3.18 `…/frames/{n}/rendered` with `viewport` and `window`, RENDERING.md
 * in the server's dicomweb-retrieve module). No Cornerstone, no pixel decoding in the browser.
 */

/** One image of a series' stack: an instance's frame (1-based, as WADO-RS numbers them). */
export interface TLightFrame {
  sopInstanceUid: string;
  frame: number;
}

/**
 * A series' instances as the stack shows them: Instance Number order (the diagnostic viewer's rule,
 * core display-order), each multi-frame instance frame by frame. Instances the index lists without
 * Rows (no pixels: SR, KO, PR) are left out.
 */
export function stackOf(instances: readonly TDicomJson[]): TLightFrame[] {
  return instances
    .filter((d) => !(TAG.rows in d) || numberOf(d, TAG.rows) !== null)
    .map((d) => ({
      sopInstanceUid: textOf(d, TAG.sopInstanceUid),
      instanceNumber: numberOf(d, TAG.instanceNumber),
      frames: stackFramesOf(numberOf(d, TAG.numberOfFrames)),
    }))
    .sort(compareStackInstances)
    .flatMap((i) =>
      Array.from({ length: i.frames }, (_, n) => ({ sopInstanceUid: i.sopInstanceUid, frame: n + 1 })),
    );
}

/** A window preset as the rendered request takes it (spec-core §9: width/level). */
export interface TLightWindow {
  width: number;
  level: number;
}

const STEP = 128;
const MAX_SIDE = 2048;

/**
 * The `viewport` asked for: the stage's size in device pixels, rounded up to 128 (a few sizes, so
 * the browser's cache serves a frame again after a rotation), at most 2048, 512 when not measured.
 */
export function viewportOf(cssWidth: number, cssHeight: number, devicePixelRatio: number): string {
  const side = (css: number) =>
    css > 0 ? Math.min(MAX_SIDE, Math.ceil((css * Math.max(devicePixelRatio, 1)) / STEP) * STEP) : 512;
  return `${side(cssWidth)},${side(cssHeight)}`;
}

/** `…/frames/{n}/rendered?viewport=w,h[&window=level,width]` of one image of the stack. */
export function renderedFrameUrl(
  origin: string,
  studyUid: string,
  seriesUid: string,
  image: TLightFrame,
  viewport: string,
  window: TLightWindow | null,
): string {
  const e = encodeURIComponent;
  const query = new URLSearchParams({ viewport });
  if (window) query.set('window', `${window.level},${window.width}`);
  return (
    `${dicomwebRoot(origin)}/studies/${e(studyUid)}/series/${e(seriesUid)}/instances/` +
    `${e(image.sopInstanceUid)}/frames/${image.frame}/rendered?${query.toString()}`
  );
}

/** A series' thumbnail (the server renders and caches it). */
export function seriesThumbnailUrl(origin: string, studyUid: string, seriesUid: string): string {
  const e = encodeURIComponent;
  return `${dicomwebRoot(origin)}/studies/${e(studyUid)}/series/${e(seriesUid)}/thumbnail`;
}

/** Pixels of drag per image when a finger (or the mouse) moves through the stack. */
export const DRAG_PIXELS_PER_IMAGE = 24;

/** Images moved by a drag of `dy` pixels (up = forward, as a stack scrolls on a phone). */
export function imagesForDrag(dy: number): number {
  return Math.trunc(-dy / DRAG_PIXELS_PER_IMAGE);
}
