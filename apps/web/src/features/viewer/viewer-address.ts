/** What a viewer page's address names (spec-core §2 route `/viewer/:studyInstanceUids/:id`). */
export interface TViewerAddress {
  /** The study the viewer opens on: the first of the comma-separated Study Instance UIDs. */
  studyInstanceUid: string;
  /** The report-status id, when it is a usable one. */
  id: number | null;
}

const VIEWER_PATH = /^\/viewer\/([^/]+)\/(\d+)(?:\/|$)/;

/** The viewer address of a page path, or null when the page is not a viewer. */
export function parseViewerAddress(pathname: string): TViewerAddress | null {
  const match = VIEWER_PATH.exec(pathname);
  if (!match) return null;
  let uids: string;
  try {
    uids = decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
  const id = Number(match[2]);
  return {
    studyInstanceUid: uids.split(',')[0] ?? '',
    id: Number.isSafeInteger(id) && id > 0 ? id : null,
  };
}

/** GET /api/viewer/:id/context, the viewer's entry verdict (viewer-api.ts; asked early too). */
export const viewerContextPath = (id: number) => `/api/viewer/${id}/context`;
