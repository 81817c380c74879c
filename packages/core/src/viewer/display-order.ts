/**
 * The order the viewer shows a study in: which series opens first and which slice a stack starts
 * on. The browser orders what DICOMweb returns with these, and the server's first-image answer
 * (apps/server modules/viewer/viewer-first-image.ts) picks the same series and slice with them, so
 * the image it sends is the one the viewport shows. Import-free (a subpath export of its own): the
 * web page's early script, built apart from the app, uses it too.
 */

const LAST = Number.MAX_SAFE_INTEGER;

/** Series Number ascending, series without one last; ties by Series Instance UID, so it is stable. */
export function compareSeriesForDisplay(
  a: { seriesNumber: number | null; seriesInstanceUid: string },
  b: { seriesNumber: number | null; seriesInstanceUid: string },
): number {
  return (
    (a.seriesNumber ?? LAST) - (b.seriesNumber ?? LAST) ||
    a.seriesInstanceUid.localeCompare(b.seriesInstanceUid)
  );
}

/** Instance Number ascending, instances without one last; ties by SOP Instance UID. */
export function compareStackInstances(
  a: { instanceNumber: number | null; sopInstanceUid: string },
  b: { instanceNumber: number | null; sopInstanceUid: string },
): number {
  return (
    (a.instanceNumber ?? LAST) - (b.instanceNumber ?? LAST) ||
    a.sopInstanceUid.localeCompare(b.sopInstanceUid)
  );
}

/** A multi-frame instance's frames in the stack (NumberOfFrames, at least 1). */
export function stackFramesOf(numberOfFrames: number | null): number {
  return Math.max(1, numberOfFrames ?? 1);
}
