import { isDecodableSyntax } from '@radflow/core';
import { earlyChainAsked, takeEarly } from '../../../lib/early-responses';
import { TAG, textOf, type TDicomJson } from './dicom-json';
import {
  dicomwebUrls,
  fetchDicomJson,
  firstSeriesReadsOf,
  readDicomJson,
  seriesSummaries,
  type TSeriesSummary,
} from './dicomweb-reads';
import { buildStack, type TStackInstance } from './image-ids';

export type { TSeriesSummary } from './dicomweb-reads';

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

/** Answers asked for ahead of the viewer (warmStudy), each handed to the first reader only. */
const warmed = new Map<string, Promise<TDicomJson[]>>();
/** An answer nobody read by then (the study was refused, another series opened) is dropped. */
const WARM_TTL_MS = 30_000;

/** The page's early answer to this URL (app/early/early-requests.ts) if it came, else a fetch. */
async function readJson(url: string, signal?: AbortSignal): Promise<TDicomJson[]> {
  const early = await takeEarly(url);
  if (!early) return fetchDicomJson(url, signal);
  return 'json' in early ? (early.json as TDicomJson[]) : readDicomJson(early.response);
}

function warm(url: string): Promise<TDicomJson[]> {
  const answer = readJson(url);
  // A failure is the reader's to see (getJson hands the same promise on), not an unhandled one.
  answer.catch(() => undefined);
  warmed.set(url, answer);
  setTimeout(() => {
    if (warmed.get(url) === answer) warmed.delete(url);
  }, WARM_TTL_MS);
  return answer;
}

function getJson(url: string, signal?: AbortSignal): Promise<TDicomJson[]> {
  const early = warmed.get(url);
  if (early) {
    warmed.delete(url);
    return early;
  }
  return readJson(url, signal);
}

/** The first series of a study as warmStudy asked for it: its summary and metadata. */
export interface TWarmSeries {
  summary: TSeriesSummary;
  metadata: TDicomJson[];
}

/** Per study, what warmStudy asked for, for the first image (first-image/first-image.ts). */
const warmedFirstSeries = new Map<string, Promise<TWarmSeries | null>>();

/**
 * Drops what warmStudy asked for, as a new page load starts without it. A page loads this module
 * once, so only tests, which open many pages in one module graph (src/test/setup.ts), call it.
 */
export function forgetWarmedStudies(): void {
  warmed.clear();
  warmedFirstSeries.clear();
}

/**
 * Asks for what the viewer will read first — the study's series list, then the first series's
 * metadata and instances — while the page is still asking whether the study may open and loading
 * the viewer's code (VIEWER.md "Speed"). The viewer's own reads take these answers over. The
 * server checks access on every DICOMweb request, so asking early reveals nothing a refusal hides.
 * The answer is the first series (null when the study has none or a read failed), which the first
 * image is drawn from: the same answers, not asked twice.
 */
export function warmStudy(
  studyInstanceUid: string,
  origin: string = window.location.origin,
): Promise<TWarmSeries | null> {
  if (!studyInstanceUid) return Promise.resolve(null);
  const known = warmedFirstSeries.get(studyInstanceUid);
  if (known) return known;
  const urls = dicomwebUrls(origin);
  // The page's early reads of this study (app/early/early-requests.ts), if any, are taken over once
  // they have asked for all they will: not asked a second time beside them.
  const firstSeries = earlyChainAsked(firstSeriesReadsOf(studyInstanceUid))
    .then(() => warm(urls.seriesList(studyInstanceUid)))
    .then(async (found) => {
      const summary = seriesSummaries(found)[0];
      if (!summary) return null;
      // The instances (stored syntaxes) are the viewport's; the first image needs the metadata only.
      void warm(urls.instances(studyInstanceUid, summary.seriesInstanceUid));
      const metadata = await warm(urls.metadata(studyInstanceUid, summary.seriesInstanceUid));
      return { summary, metadata };
    });
  const settled = firstSeries.catch(() => null);
  warmedFirstSeries.set(studyInstanceUid, settled);
  setTimeout(() => {
    if (warmedFirstSeries.get(studyInstanceUid) === settled) warmedFirstSeries.delete(studyInstanceUid);
  }, WARM_TTL_MS);
  return settled;
}

/**
 * Our DICOMweb at /api/dicomweb with the session cookie: QIDO-RS for the series list and the stored
 * transfer syntaxes, WADO-RS series metadata (from the index) for the stack, frames by WADO-RS
 * through the image ids.
 */
export function createDicomwebSource(origin: string = window.location.origin): TViewerDataSource {
  const urls = dicomwebUrls(origin);
  const { root } = urls;
  return {
    async listSeries(studyInstanceUid) {
      return seriesSummaries(await getJson(urls.seriesList(studyInstanceUid)));
    },
    async loadSeries(studyInstanceUid, seriesInstanceUid) {
      const [metadata, instances] = await Promise.all([
        getJson(urls.metadata(studyInstanceUid, seriesInstanceUid)),
        getJson(urls.instances(studyInstanceUid, seriesInstanceUid)),
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
      return `${urls.series(studyInstanceUid, seriesInstanceUid)}/thumbnail`;
    },
  };
}

/** The stored syntax the browser cannot decode for a SOP instance of the series, or null. */
export function unsupportedSyntaxOf(series: TLoadedSeries, sopInstanceUid: string): string | null {
  const syntax = series.syntaxOf.get(sopInstanceUid) ?? '';
  return isDecodableSyntax(syntax) ? null : syntax;
}
