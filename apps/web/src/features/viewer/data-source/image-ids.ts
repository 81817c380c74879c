import { compareStackInstances, stackFramesOf } from '@radflow/core/display-order';
import { TAG, numberOf, textOf, type TDicomJson } from './dicom-json';

/** Where one frame of the study lives: what annotations and key images are keyed by. */
export interface TFrameRef {
  seriesInstanceUid: string;
  sopInstanceUid: string;
  /** 1-based, as in WADO-RS. */
  frameNumber: number;
}

/**
 * The DICOMweb root for image ids. Absolute on purpose (ARCHITECTURE §6): the loader resolves a
 * relative URL against the page, and under /viewer/... that points at the wrong place.
 */
export function dicomwebRoot(origin: string): string {
  return `${origin.replace(/\/$/, '')}/api/dicomweb`;
}

/** The Cornerstone wadors image id of one frame (WADO-RS frames URL, PS3.18 §10.4.1.1.4). */
export function frameImageId(root: string, studyInstanceUid: string, frame: TFrameRef): string {
  const e = encodeURIComponent;
  return (
    `wadors:${root}/studies/${e(studyInstanceUid)}/series/${e(frame.seriesInstanceUid)}` +
    `/instances/${e(frame.sopInstanceUid)}/frames/${frame.frameNumber}`
  );
}

const FRAME_URL = /\/studies\/([^/]+)\/series\/([^/]+)\/instances\/([^/]+)\/frames\/(\d+)$/;

/** The study and frame an image id names (the reverse of frameImageId), or null for another id. */
export function frameOfImageId(imageId: string): (TFrameRef & { studyInstanceUid: string }) | null {
  const match = FRAME_URL.exec(imageId);
  if (!match) return null;
  return {
    studyInstanceUid: decodeURIComponent(match[1] as string),
    seriesInstanceUid: decodeURIComponent(match[2] as string),
    sopInstanceUid: decodeURIComponent(match[3] as string),
    frameNumber: Number(match[4]),
  };
}

/** Whether an instance holds an image (SR, ECG and other non-image objects do not). */
export function hasPixels(instance: TDicomJson): boolean {
  return (
    instance[TAG.pixelData] !== undefined ||
    instance[TAG.floatPixelData] !== undefined ||
    instance[TAG.doubleFloatPixelData] !== undefined
  );
}

/** One image-bearing instance of a series, in display order, with its image ids. */
export interface TStackInstance {
  sopInstanceUid: string;
  metadata: TDicomJson;
  frames: number;
  /** Image ids of frames 1..frames. */
  imageIds: string[];
}

/**
 * The stack of a series: image-bearing instances ordered by Instance Number (then SOP Instance
 * UID, so the order is stable), every frame of a multi-frame instance in turn.
 */
export function buildStack(
  root: string,
  studyInstanceUid: string,
  seriesInstanceUid: string,
  instances: readonly TDicomJson[],
): TStackInstance[] {
  return instances
    .filter(hasPixels)
    .map((metadata) => ({
      metadata,
      sopInstanceUid: textOf(metadata, TAG.sopInstanceUid),
      instanceNumber: numberOf(metadata, TAG.instanceNumber),
      frames: stackFramesOf(numberOf(metadata, TAG.numberOfFrames)),
    }))
    .sort(compareStackInstances)
    .map(({ metadata, sopInstanceUid, frames }) => ({
      metadata,
      sopInstanceUid,
      frames,
      imageIds: Array.from({ length: frames }, (_, i) =>
        frameImageId(root, studyInstanceUid, { seriesInstanceUid, sopInstanceUid, frameNumber: i + 1 }),
      ),
    }));
}
