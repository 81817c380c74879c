import type { THybridStudy, TViewerContext } from '@radflow/core';
import type { AnnotationStore } from '../viewer/viewer-api';
import type { RouterClient } from './router-client';

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
 * ask: id 0, even when the cloud has the study (nothing saved in the cloud — annotations, key images,
 * priors — is asked for: viewer-api `keepsAnnotations`), the images all here. Its measurements are
 * kept on the router ({@link routerAnnotationStore}).
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

/** Where the offline viewer keeps the study's measurements: the router (HYBRID.md "Measurements offline"). */
export function routerAnnotationStore(client: RouterClient, studyInstanceUid: string): AnnotationStore {
  return {
    queryKey: ['router-annotations', client.baseUrl, studyInstanceUid],
    list: () => client.offlineAnnotations(studyInstanceUid),
    save: (annotation) => {
      const { createdBy: _by, createdAt: _at, ...drawn } = annotation;
      return client.saveOfflineAnnotation({ studyInstanceUid, annotation: drawn });
    },
    remove: (annotationUid) => client.deleteOfflineAnnotation({ studyInstanceUid, annotationUid }),
  };
}
