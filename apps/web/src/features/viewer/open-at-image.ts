import type { TLoadedSeries } from './data-source/dicomweb-source';

/**
 * The image a viewer address asks to open at (`?series=&sop=&frame=`, a chat message's image
 * reference: issue 23 §1): the series to show first and the slice in it. Null when it names none.
 */
export interface TOpenAt {
  seriesInstanceUid: string;
  sopInstanceUid: string;
  /** 1-based, as DICOM counts frames. */
  frame: number;
}

export function openAtOf(search: URLSearchParams): TOpenAt | null {
  const seriesInstanceUid = search.get('series');
  const sopInstanceUid = search.get('sop');
  const frame = Number(search.get('frame') ?? '1');
  if (!seriesInstanceUid || !sopInstanceUid || !Number.isInteger(frame) || frame < 1) return null;
  return { seriesInstanceUid, sopInstanceUid, frame };
}

/** The slice index of that image in the series' stack, or null when the series does not hold it. */
export function sliceIndexOf(series: Pick<TLoadedSeries, 'stack' | 'imageIds'>, at: TOpenAt): number | null {
  const instance = series.stack.find((i) => i.sopInstanceUid === at.sopInstanceUid);
  const imageId = instance?.imageIds[at.frame - 1];
  if (imageId === undefined) return null;
  const index = series.imageIds.indexOf(imageId);
  return index >= 0 ? index : null;
}
