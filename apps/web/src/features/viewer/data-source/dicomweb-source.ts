import { TAG, numberOf, textOf, type TDicomJson } from './dicom-json';
import { buildStack, dicomwebRoot, type TStackInstance } from './image-ids';
import { isDecodableSyntax } from '@radflow/core';

/** One series of the study as the series panel lists it. */
export interface TSeriesSummary {
  seriesInstanceUid: string;
  seriesNumber: number | null;
  modality: string;
  description: string;
  instanceCount: number;
}

/** A series ready for a viewport: its stack, and what the browser cannot decode in it. */
export interface TLoadedSeries {
  studyInstanceUid: string;
  seriesInstanceUid: string;
  stack: TStackInstance[];
  imageIds: string[];
  /** Stored transfer syntax of each SOP Instance UID (QIDO Available Transfer Syntax UID). */
  syntaxOf: Map<string, string>;
}

/**
 * The viewer's one data source (STYLE: OHIF data-source module): everything the viewer reads about
 * images goes through this interface, so pointing it at another archive touches no viewer code.
 */
export interface TViewerDataSource {
  listSeries(studyInstanceUid: string): Promise<TSeriesSummary[]>;
  loadSeries(studyInstanceUid: string, seriesInstanceUid: string): Promise<TLoadedSeries>;
  thumbnailUrl(studyInstanceUid: string, seriesInstanceUid: string): string;
}

async function getJson(url: string, signal?: AbortSignal): Promise<TDicomJson[]> {
  const response = await fetch(url, {
    credentials: 'same-origin',
    headers: { Accept: 'application/dicom+json' },
    ...(signal ? { signal } : {}),
  });
  if (response.status === 204) return [];
  if (!response.ok) throw new Error(`${response.status} ${response.statusText} for ${url}`);
  return (await response.json()) as TDicomJson[];
}

const bySeriesNumber = (a: TSeriesSummary, b: TSeriesSummary) =>
  (a.seriesNumber ?? Number.MAX_SAFE_INTEGER) - (b.seriesNumber ?? Number.MAX_SAFE_INTEGER) ||
  a.seriesInstanceUid.localeCompare(b.seriesInstanceUid);

/**
 * Our DICOMweb at /api/dicomweb with the session cookie: QIDO-RS for the series list and the stored
 * transfer syntaxes, WADO-RS series metadata (from the index) for the stack, frames by WADO-RS
 * through the image ids.
 */
export function createDicomwebSource(origin: string = window.location.origin): TViewerDataSource {
  const root = dicomwebRoot(origin);
  const e = encodeURIComponent;
  const seriesUrl = (study: string, series: string) => `${root}/studies/${e(study)}/series/${e(series)}`;
  return {
    async listSeries(studyInstanceUid) {
      const found = await getJson(`${root}/studies/${e(studyInstanceUid)}/series`);
      return found
        .map((s) => ({
          seriesInstanceUid: textOf(s, TAG.seriesInstanceUid),
          seriesNumber: numberOf(s, TAG.seriesNumber),
          modality: textOf(s, TAG.modality),
          description: textOf(s, TAG.seriesDescription),
          instanceCount: numberOf(s, TAG.numberOfSeriesRelatedInstances) ?? 0,
        }))
        .sort(bySeriesNumber);
    },
    async loadSeries(studyInstanceUid, seriesInstanceUid) {
      const base = seriesUrl(studyInstanceUid, seriesInstanceUid);
      const [metadata, instances] = await Promise.all([
        getJson(`${base}/metadata`),
        getJson(`${base}/instances`),
      ]);
      const syntaxOf = new Map(
        instances.map((i) => [textOf(i, TAG.sopInstanceUid), textOf(i, TAG.availableTransferSyntaxUid)]),
      );
      const stack = buildStack(root, studyInstanceUid, seriesInstanceUid, metadata);
      return {
        studyInstanceUid,
        seriesInstanceUid,
        stack,
        imageIds: stack.flatMap((i) => i.imageIds),
        syntaxOf,
      };
    },
    thumbnailUrl(studyInstanceUid, seriesInstanceUid) {
      return `${seriesUrl(studyInstanceUid, seriesInstanceUid)}/thumbnail`;
    },
  };
}

/** The stored syntax the browser cannot decode for a SOP instance of the series, or null. */
export function unsupportedSyntaxOf(series: TLoadedSeries, sopInstanceUid: string): string | null {
  const syntax = series.syntaxOf.get(sopInstanceUid) ?? '';
  return isDecodableSyntax(syntax) ? null : syntax;
}
