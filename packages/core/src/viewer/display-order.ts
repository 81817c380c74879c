/**
 * The order the viewer shows a study in: which series opens first and which slice a stack starts
 * on. The browser orders what DICOMweb returns with these, and the server's first-image answer
 * (apps/server modules/viewer/viewer-first-image.ts) picks the same series and slice with them, so
 * the image it sends is the one the viewport shows. Import-free (a subpath export of its own): the
 * web page's early script, built apart from the app, uses it too.
 */

const LAST = Number.MAX_SAFE_INTEGER;

/** A number ascending, none last; ties by UID, so the order is stable. */
const byNumberThenUid = (an: number | null, bn: number | null, au: string, bu: string) =>
  (an ?? LAST) - (bn ?? LAST) || au.localeCompare(bu);

/** Series Number ascending, series without one last; ties by Series Instance UID. */
export function compareSeriesForDisplay(
  a: { seriesNumber: number | null; seriesInstanceUid: string },
  b: { seriesNumber: number | null; seriesInstanceUid: string },
): number {
  return byNumberThenUid(a.seriesNumber, b.seriesNumber, a.seriesInstanceUid, b.seriesInstanceUid);
}

/** Instance Number ascending, instances without one last; ties by SOP Instance UID. */
export function compareStackInstances(
  a: { instanceNumber: number | null; sopInstanceUid: string },
  b: { instanceNumber: number | null; sopInstanceUid: string },
): number {
  return byNumberThenUid(a.instanceNumber, b.instanceNumber, a.sopInstanceUid, b.sopInstanceUid);
}

/** A multi-frame instance's frames in the stack (NumberOfFrames, at least 1). */
export function stackFramesOf(numberOfFrames: number | null): number {
  return Math.max(1, numberOfFrames ?? 1);
}

/**
 * The JSON part of the server's first-image answer (GET /api/viewer/studies/:study/first-image),
 * before the frame part. `TDataset` is how each side types a PS3.18 JSON data set.
 */
export interface TFirstImageDescriptor<TDataset = Record<string, unknown>> {
  /** The series' QIDO-RS attributes (PS3.18 Table 10.6.3-4). */
  series: TDataset;
  sopInstanceUid: string;
  frameNumber: number;
  /** Frames in the whole stack, for 'Img: 1/N'. */
  stackFrames: number;
  /** The instance's PS3.18 JSON, as in the series metadata. */
  metadata: TDataset;
}
