import type { TFirstImageDescriptor } from '@radflow/core/display-order';
import { dropEarlyPreview } from '../../../lib/early-preview-layer';
import { takeEarlyResponse } from '../../../lib/early-responses';
import { TAG, numbersOf, type TDicomJson } from '../data-source/dicom-json';
import { fetchFirstImage, fetchFrame, firstImageUrl, seriesSummaries } from '../data-source/dicomweb-reads';
import { warmStudy, type TSeriesSummary } from '../data-source/dicomweb-source';
import { buildStack, dicomwebRoot, frameImageId } from '../data-source/image-ids';
import {
  firstImageAnswerOf,
  firstPartOf,
  previewPixels,
  syntaxOfContentType,
  type TBodyPart,
  type TPreviewPixels,
} from './native-frame';

/**
 * The slice the viewer opens on, drawn before Cornerstone is loaded (VIEWER.md "Speed"): the
 * server's first-image answer names the first series's first slice (the same display-order rules
 * as the viewport's, from `@radflow/core`) and carries its metadata and frame; the frame is
 * decoded when it is native greyscale (native-frame.ts) and held here for the page's preview
 * canvas, until Cornerstone's viewport has drawn the same slice. Its bytes are handed to
 * Cornerstone's image loader (engine/cornerstone-init.ts), so the frame is fetched once.
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
  if (next.status === 'none') {
    settle();
    // Nothing of the app's will show this image: the page's early preview of it goes too.
    dropEarlyPreview();
  }
  for (const listener of listeners) listener();
}

/**
 * Back to a fresh page's state: no study started, nothing shown. A page loads this module once, so
 * only tests, which open many pages in one module graph (src/test/setup.ts), call it.
 */
export function forgetFirstImage(): void {
  studyShown = null;
  state = { status: 'none', reason: 'not started' };
  settle = () => undefined;
  settled = Promise.resolve();
}

export const subscribeFirstImage = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
export const firstImageState = (): TFirstImageState => state;

/**
 * The page's preview canvas has drawn the first image: the viewer's code may now load, and the
 * early script's preview (the same pixels in the same place) is no longer needed.
 */
export function markFirstImagePainted(): void {
  dropEarlyPreview();
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
 * Starts the first image of a study (once per study): its one answer (the first series's first
 * slice, its metadata and frame), decoded. The series list and the first series's metadata, which
 * the workspace reads, are asked for beside it (warmStudy), not before it.
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
  void warmStudy(studyInstanceUid, origin);
}

/** What the first image is drawn from, however it was read. */
interface TFirstImageSource {
  series: TSeriesSummary;
  imageId: string;
  total: number;
  metadata: TDicomJson;
  frame: TBodyPart;
}

async function loadFirstImage(studyInstanceUid: string, origin: string): Promise<TFirstImageState> {
  const read =
    (await readFirstImageAnswer(studyInstanceUid, origin)) ??
    (await readThroughDicomweb(studyInstanceUid, origin));
  if ('reason' in read) return { status: 'none', reason: read.reason };
  const transferSyntaxUid = syntaxOfContentType(read.frame.contentType);
  const decoded = previewPixels(read.metadata, transferSyntaxUid, read.frame.bytes);
  if (!decoded.ok) return { status: 'none', reason: decoded.reason };
  return {
    status: 'ready',
    image: {
      studyInstanceUid,
      series: read.series,
      imageId: read.imageId,
      total: read.total,
      pixels: decoded.pixels,
      orientation: numbersOf(read.metadata, TAG.imageOrientationPatient),
      frame: { bytes: read.frame.bytes, transferSyntaxUid },
    },
  };
}

type TRead = TFirstImageSource | { reason: string };

/**
 * The server's one answer (the page's early requests asked for it already when the page opened on
 * this study); null when it is not there to be had (a DICOMweb server of another kind behind the
 * viewer, as in the bench's Orthanc run), so the image is read through DICOMweb instead.
 */
async function readFirstImageAnswer(studyInstanceUid: string, origin: string): Promise<TRead | null> {
  const url = firstImageUrl(origin, studyInstanceUid);
  const response = (await takeEarlyResponse(url)) ?? (await fetchFirstImage(url));
  if (response.status === 404 || response.status === 405) return null;
  if (!response.ok) return { reason: `the first image answered ${response.status}` };
  const answer = firstImageAnswerOf<TFirstImageDescriptor<TDicomJson>>(
    response.headers.get('content-type') ?? '',
    new Uint8Array(await response.arrayBuffer()),
  );
  if (!answer) return { reason: 'the first image answer is not a readable multipart' };
  const { descriptor, frame } = answer;
  const series = seriesSummaries([descriptor.series])[0];
  if (!series) return { reason: 'the first image answer names no series' };
  const imageId = frameImageId(dicomwebRoot(origin), studyInstanceUid, {
    seriesInstanceUid: series.seriesInstanceUid,
    sopInstanceUid: descriptor.sopInstanceUid,
    frameNumber: descriptor.frameNumber,
  });
  return { series, imageId, total: descriptor.stackFrames, metadata: descriptor.metadata, frame };
}

/** The same image through DICOMweb: the series list, the first series's metadata, then the frame. */
async function readThroughDicomweb(studyInstanceUid: string, origin: string): Promise<TRead> {
  const first = await warmStudy(studyInstanceUid, origin);
  if (!first) return { reason: 'the series could not be read' };
  const stack = buildStack(
    dicomwebRoot(origin),
    studyInstanceUid,
    first.summary.seriesInstanceUid,
    first.metadata,
  );
  const instance = stack[0];
  const imageId = instance?.imageIds[0];
  if (!instance || !imageId) return { reason: 'the first series has no image' };
  const response = await fetchFrame(imageId.slice('wadors:'.length));
  if (!response.ok) return { reason: `the frame answered ${response.status}` };
  const frame = firstPartOf(
    response.headers.get('content-type') ?? '',
    new Uint8Array(await response.arrayBuffer()),
  );
  if (!frame) return { reason: 'the frame answer is not a readable multipart' };
  return {
    series: first.summary,
    imageId,
    total: stack.reduce((n, i) => n + i.frames, 0),
    metadata: instance.metadata,
    frame,
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
