import type { THybridStudy, TViewerContext } from '@radflow/core';

/** Where the router's own page opens a study in the diagnostic viewer (HYBRID.md). */
export const OFFLINE_VIEWER_PREFIX = '/offline-viewer/';

export const offlineViewerPath = (studyInstanceUid: string) =>
  `${OFFLINE_VIEWER_PREFIX}${encodeURIComponent(studyInstanceUid)}`;

/** The study a path of the router's page names, or null when it names none. */
export function offlineViewerStudyOf(pathname: string): string | null {
  if (!pathname.startsWith(OFFLINE_VIEWER_PREFIX)) return null;
  const encoded = pathname.slice(OFFLINE_VIEWER_PREFIX.length).replace(/\/+$/, '');
  if (encoded === '' || encoded.includes('/')) return null;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

/**
 * The viewer's context for a study the router holds, built from the router's list, with no cloud to
 * ask: id 0, even when the cloud has the study (no saved annotations, key images or priors are asked
 * for; measurements are drawn and never saved: viewer-api `keepsAnnotations`), the images all here.
 */
export function offlineViewerContext(study: THybridStudy): TViewerContext {
  return {
    id: 0,
    studyInstanceUid: study.studyInstanceUid,
    apiVersion: 2,
    patientName: study.patientName ?? '',
    patientId: study.patientId ?? '',
    patientSex: study.patientSex ?? '',
    patientAge: study.patientAge ?? '',
    studyDate: study.studyDate ?? '',
    studyDescription: study.studyDescription ?? '',
    modalities: study.modality ? [study.modality] : [],
    status: 'CREATED',
    deleted: false,
    upload: 'COMPLETE',
    entry: { allowed: true },
    seriesNames: [],
    canAnnotate: true,
    openInWeasis: false,
  };
}
