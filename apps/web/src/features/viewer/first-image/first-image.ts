import { takeEarlyResponse } from '../../../lib/early-responses';
import { TAG, numbersOf } from '../data-source/dicom-json';
import { fetchFrame } from '../data-source/dicomweb-reads';
import { warmStudy, type TSeriesSummary } from '../data-source/dicomweb-source';
import { buildStack, dicomwebRoot } from '../data-source/image-ids';
import { firstPartOf, previewPixels, syntaxOfContentType, type TPreviewPixels } from './native-frame';

/**
 * The slice the viewer opens on, drawn before Cornerstone is loaded (VIEWER.md "Speed"): from the
 * answers warmStudy asked for at boot, the stack's first frame (buildStack's order, the one the
 * viewport shows first) is fetched, decoded when it is native greyscale (native-frame.ts) and held
 * here for the page's preview canvas, until Cornerstone's viewport has drawn the same slice. Its
 * bytes are handed to Cornerstone's image loader (engine/cornerstone-init.ts), so the frame is
 * fetched once.
 */
export interface TFirstImage {
  studyInstanceUid: string;
  series: TSeriesSummary;
  /** The Cornerstone image id of the frame (wadors: + its WADO-RS URL). */
  imageId: string;
  /** The stack's length, for the overlay's 'Img: 1/N'. */
  total: number;
  pixels: TPreviewPixels;
  /** Image Orientation (Patient), for the overlay's orientation letters. */
  orientation: number[];
  frame: { bytes: Uint8Array<ArrayBuffer>; transferSyntaxUid: string };
}

export type TFirstImageState =
  | { status: 'loading' }
  | { status: 'ready'; image: TFirstImage }
  /** Not previewed (a syntax or photometry it does not decode, a failed read, no image). */
  | { status: 'none'; reason: string };

let studyShown: string | null = null;
let state: TFirstImageState = { status: 'none', reason: 'not started' };
const listeners = new Set<() => void>();
let settle: () => void = () => undefined;
let settled: Promise<void> = Promise.resolve();

function setState(next: TFirstImageState): void {
  state = next;
  if (next.status === 'none') settle();
  for (const listener of listeners) listener();
}

export const subscribeFirstImage = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
export const firstImageState = (): TFirstImageState => state;

/** The page's preview canvas has drawn the first image: the viewer's code may now load. */
export function markFirstImagePainted(): void {
  settle();
}

/**
 * Whether the workspace chunk (4.4 MB of Cornerstone, vtk.js, dcmjs) waits for the first image:
 * evaluating it holds the page's only thread for most of a second, and the preview's frame, decode
 * and paint would wait behind it. Decided by measurement (VIEWER.md "Speed").
 */
const CODE_AFTER_FIRST_IMAGE = true;
/** However the first image goes, the tools are not held back longer than this. */
const FIRST_IMAGE_WAIT_MS = 2000;

/** Resolves when the viewer's code may load: the first image is on screen, not previewed, or late. */
export function workspaceMayLoad(): Promise<void> {
  if (!CODE_AFTER_FIRST_IMAGE) return Promise.resolve();
  return Promise.race([settled, new Promise<void>((done) => setTimeout(done, FIRST_IMAGE_WAIT_MS))]);
}

/**
 * Starts the first image of a study (once per study): reads what warmStudy asked for, fetches the
 * stack's first frame and decodes it.
 */
export function startFirstImage(studyInstanceUid: string, origin: string = window.location.origin): void {
  if (!studyInstanceUid || studyShown === studyInstanceUid) return;
  studyShown = studyInstanceUid;
  settled = new Promise<void>((done) => (settle = done));
  setState({ status: 'loading' });
  const showing = () => studyShown === studyInstanceUid;
  loadFirstImage(studyInstanceUid, origin).then(
    (next) => showing() && setState(next),
    (error: unknown) => showing() && setState({ status: 'none', reason: String(error) }),
  );
}

async function loadFirstImage(studyInstanceUid: string, origin: string): Promise<TFirstImageState> {
  const first = await warmStudy(studyInstanceUid, origin);
  if (!first) return { status: 'none', reason: 'the series could not be read' };
  const root = dicomwebRoot(origin);
  const stack = buildStack(root, studyInstanceUid, first.summary.seriesInstanceUid, first.metadata);
  const instance = stack[0];
  const imageId = instance?.imageIds[0];
  if (!instance || !imageId) return { status: 'none', reason: 'the first series has no image' };
  const frameUrl = imageId.slice('wadors:'.length);
  // The page's early requests asked for this frame already when it opened on this study.
  const response = (await takeEarlyResponse(frameUrl)) ?? (await fetchFrame(frameUrl));
  if (!response.ok) return { status: 'none', reason: `the frame answered ${response.status}` };
  const part = firstPartOf(
    response.headers.get('content-type') ?? '',
    new Uint8Array(await response.arrayBuffer()),
  );
  if (!part) return { status: 'none', reason: 'the frame answer is not a readable multipart' };
  const transferSyntaxUid = syntaxOfContentType(part.contentType);
  const decoded = previewPixels(instance.metadata, transferSyntaxUid, part.bytes);
  if (!decoded.ok) return { status: 'none', reason: decoded.reason };
  return {
    status: 'ready',
    image: {
      studyInstanceUid,
      series: first.summary,
      imageId,
      total: stack.reduce((n, i) => n + i.frames, 0),
      pixels: decoded.pixels,
      orientation: numbersOf(instance.metadata, TAG.imageOrientationPatient),
      frame: { bytes: part.bytes, transferSyntaxUid },
    },
  };
}

/**
 * The first image's frame for Cornerstone's loader (its compressed-frame registry, which it asks
 * before the network), or undefined for any other image. A copy: the decode worker takes the
 * buffer it is given.
 */
export function firstImageFrameFor(
  imageId: string,
): { pixelData: Uint8Array; transferSyntaxUid: string } | undefined {
  if (state.status !== 'ready' || state.image.imageId !== imageId) return undefined;
  const { bytes, transferSyntaxUid } = state.image.frame;
  return { pixelData: bytes.slice(), transferSyntaxUid };
}

/** Cornerstone has drawn the study: the preview and its bytes are no longer needed. */
export function releaseFirstImage(imageId: string): void {
  if (state.status === 'ready' && state.image.imageId === imageId) {
    setState({ status: 'none', reason: 'replaced by the viewport' });
  }
}
