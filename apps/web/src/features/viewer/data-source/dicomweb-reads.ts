import { compareSeriesForDisplay } from '@radflow/core/display-order';
import { TAG, numberOf, textOf, type TDicomJson } from './dicom-json';
import { dicomwebRoot } from './image-ids';

/**
 * The DICOMweb reads the viewer opens a study with, and the order of its series: shared by the
 * data source and the page's early requests (app/early/early-requests.ts), which must ask for the
 * same URLs with the same headers for their answers to be taken over. No imports beyond these
 * small modules: the early script is built from this file on its own.
 */

/** One series of the study as the series panel lists it. */
export interface TSeriesSummary {
  seriesInstanceUid: string;
  seriesNumber: number | null;
  modality: string;
  description: string;
  instanceCount: number;
}

/** A WADO-RS frame request: each frame as stored, whatever its transfer syntax. */
export const FRAME_ACCEPT = 'multipart/related; type=application/octet-stream; transfer-syntax=*';

/** The Accept of a QIDO-RS or WADO-RS metadata read. */
export const DICOM_JSON_ACCEPT = 'application/dicom+json';

/** A QIDO-RS or WADO-RS metadata request's answer, unread. */
export function fetchDicomJsonAnswer(url: string, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    credentials: 'same-origin',
    headers: { Accept: DICOM_JSON_ACCEPT },
    ...(signal ? { signal } : {}),
  });
}

export async function fetchDicomJson(url: string, signal?: AbortSignal): Promise<TDicomJson[]> {
  const response = await fetchDicomJsonAnswer(url, signal);
  if (!response.ok) throw new Error(`${response.status} ${response.statusText} for ${url}`);
  return readDicomJson(response);
}

/** A successful QIDO-RS / WADO-RS metadata answer's data sets (204: none matched). */
export async function readDicomJson(response: Response): Promise<TDicomJson[]> {
  if (response.status === 204) return [];
  return (await response.json()) as TDicomJson[];
}

/** A frame of the stack (a wadors image id without its scheme) as the stored bytes. */
export function fetchFrame(url: string): Promise<Response> {
  return fetch(url, { credentials: 'same-origin', headers: { Accept: FRAME_ACCEPT } });
}

/** The series of a QIDO-RS answer in the order the viewer shows them; the first opens first. */
export function seriesSummaries(found: TDicomJson[]): TSeriesSummary[] {
  return found
    .map((s) => ({
      seriesInstanceUid: textOf(s, TAG.seriesInstanceUid),
      seriesNumber: numberOf(s, TAG.seriesNumber),
      modality: textOf(s, TAG.modality),
      description: textOf(s, TAG.seriesDescription),
      instanceCount: numberOf(s, TAG.numberOfSeriesRelatedInstances) ?? 0,
    }))
    .sort(compareSeriesForDisplay);
}

/**
 * The image the viewer opens a study on, in one answer (server modules/viewer/viewer-first-image.ts):
 * a JSON part (the first series as QIDO-RS lists it, the stack's first instance's metadata, the
 * stack's frame count) and that instance's first frame as a WADO-RS frame part. Its URL needs only
 * the study UID, so the page can ask for it before anything else has answered.
 */
export const firstImageUrl = (origin: string, studyInstanceUid: string) =>
  `${origin.replace(/\/$/, '')}/api/viewer/studies/${encodeURIComponent(studyInstanceUid)}/first-image`;

export function fetchFirstImage(url: string): Promise<Response> {
  return fetch(url, { credentials: 'same-origin' });
}

/** The name of the page's early reads of a study's first series (lib/early-responses.ts chains). */
export const firstSeriesReadsOf = (studyInstanceUid: string) => `first-series:${studyInstanceUid}`;

export function dicomwebUrls(origin: string) {
  const root = dicomwebRoot(origin);
  const e = encodeURIComponent;
  const study = (uid: string) => `${root}/studies/${e(uid)}`;
  const series = (studyUid: string, seriesUid: string) => `${study(studyUid)}/series/${e(seriesUid)}`;
  return {
    root,
    seriesList: (studyUid: string) => `${study(studyUid)}/series`,
    series,
    metadata: (studyUid: string, seriesUid: string) => `${series(studyUid, seriesUid)}/metadata`,
    instances: (studyUid: string, seriesUid: string) => `${series(studyUid, seriesUid)}/instances`,
  };
}
