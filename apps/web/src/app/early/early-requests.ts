import { deviceHeaders } from '../../api/device';
import { SESSION_PATHS } from '../../api/session-paths';
import { EARLY_PREVIEW_SETTLED } from './early-script';
import {
  dicomwebUrls,
  fetchDicomJson,
  fetchDicomJsonAnswer,
  fetchFirstImage,
  firstSeriesReadsOf,
  firstImageUrl,
  seriesSummaries,
} from '../../features/viewer/data-source/dicomweb-reads';
import { parseViewerAddress, viewerContextPath } from '../../features/viewer/viewer-address';
import { rememberEarlyChain, rememberEarlyJson, rememberEarlyResponse } from '../../lib/early-responses';
import { showEarlyPreview, type TFirstImageBody } from './early-preview';

/**
 * The page's early requests (VIEWER.md "Speed"). A viewer page opened on its own (the worklist's
 * popup, a link) otherwise asks for its data in one chain: the app's 200 KB bundle downloaded and
 * evaluated (~0.3 s of a 2-core machine's main thread), then the session, then the study's series
 * list, then the first series's metadata, then its first frame. This script is built apart from the
 * app (vite.config.ts `earlyRequests`), a few KB that index.html loads on viewer addresses only,
 * and it asks for all of it while the bundle is still on its way: the first image (one answer: the
 * slice the viewer opens on, with its metadata and frame), the current user and the viewer
 * context; once those are in, it draws the image itself where the viewer will (early-preview.ts)
 * if the app would show it, and asks for the rest of the session and the series list → the first
 * series's metadata and instances. The app's own reads take the answers over
 * (lib/early-responses.ts), each once; what they do not take within 30 s is dropped.
 *
 * The requests decide nothing: the server checks the session and the study's access on every one
 * of these requests, exactly as when the app asks, and a refused answer is not handed on — the app
 * asks again and shows its failure the usual way. The early preview applies the app's own rules to
 * the same answers (early-preview.ts). The server picks the first image by the viewer's own
 * display-order rules (`@radflow/core`), so it is the one the viewer opens on. The same one-line
 * loader in index.html also preloads the viewer route's chunks, so they too come while the bundle
 * loads instead of after it.
 */

/**
 * The study's series list, then its first series's metadata and instances (what the workspace
 * reads): each kept as it is asked for, so the app's read takes over whatever is under way. The
 * series list is read here (its values name the next URL) and handed on read, as is the metadata.
 */
async function earlyFirstSeriesReads(
  study: string,
  origin: string,
  firstImage: Promise<unknown>,
  firstPaint: Promise<unknown>,
): Promise<void> {
  await firstPaint;
  const urls = dicomwebUrls(origin);
  const seriesList = fetchDicomJson(urls.seriesList(study));
  rememberEarlyJson(urls.seriesList(study), seriesList);
  const first = seriesSummaries(await seriesList)[0];
  if (!first) return;
  // The series's metadata (a megabyte for 500 slices) and instances are the workspace's, which
  // loads after the first image is on screen: asked once the server has answered the image, so
  // the server (and, on the embedded database, its one thread) works on the image first.
  await firstImage.catch(() => undefined);
  const series = first.seriesInstanceUid;
  rememberEarlyResponse(urls.instances(study, series), fetchDicomJsonAnswer(urls.instances(study, series)));
  const metadata = fetchDicomJson(urls.metadata(study, series));
  rememberEarlyJson(urls.metadata(study, series), metadata);
}

/**
 * The first-image answer read here (the early preview draws from it) and handed to the app as a
 * response of the same bytes; an answer that is not a success is handed on unread.
 */
function readFirstImage(answer: Promise<Response>): {
  response: Promise<Response>;
  body: Promise<TFirstImageBody | null>;
} {
  const read = answer.then(async (response) => {
    if (!response.ok) return { response, body: null };
    const contentType = response.headers.get('content-type') ?? '';
    const bytes = new Uint8Array(await response.arrayBuffer());
    return {
      response: new Response(bytes, { status: response.status, headers: { 'content-type': contentType } }),
      body: { contentType, bytes },
    };
  });
  return { response: read.then((r) => r.response), body: read.then((r) => r.body).catch(() => null) };
}

/** The values of a JSON answer, read from a copy: the app reads the answer itself. */
const jsonCopyOf = (answer: Promise<Response>): Promise<unknown> =>
  answer.then((response) => (response.ok ? response.clone().json() : null)).catch(() => null);

function startEarlyRequests(pathname: string, origin: string): void {
  const address = parseViewerAddress(pathname);
  if (!address) return;
  const study = address.studyInstanceUid;
  // First, the image itself: one request whose URL the address names, answered before the rest.
  const firstImageAt = study ? firstImageUrl(origin, study) : null;
  const firstImage = firstImageAt ? readFirstImage(fetchFirstImage(firstImageAt)) : null;
  if (firstImageAt && firstImage) rememberEarlyResponse(firstImageAt, firstImage.response);
  const ask = (path: string) => fetch(path, { credentials: 'same-origin', headers: deviceHeaders() });
  const get = (path: string) => {
    const answer = ask(path);
    rememberEarlyResponse(path, answer);
    return answer;
  };
  // What the early preview draws from first: the image, who asks, and whether the study opens.
  const currentUser = get(SESSION_PATHS.currentUser);
  const context = address.id !== null ? get(viewerContextPath(address.id)) : null;
  const firstPaint =
    firstImage && context ? Promise.allSettled([firstImage.body, currentUser, context]) : Promise.resolve([]);
  // The rest of the session as identity.ts reads it for every role but the assignor (whose session
  // reads the group's preferences instead: for them two of these go unread and expire), asked once
  // those are in: the server (on the embedded database, one thread for every query) answers the
  // first image first. Kept at once, so the app's read of one waits for it instead of asking again.
  const later = (path: string) => {
    const answer = firstPaint.then(() => ask(path));
    rememberEarlyResponse(path, answer);
  };
  later(SESSION_PATHS.preferences);
  later(SESSION_PATHS.mapping);
  later(SESSION_PATHS.teleInfo);
  if (!study || !firstImage) return;
  // Copies taken now, before any reader of the app's can have read the answers. index.html's
  // loader starts the app once this has settled (early-script.ts).
  if (context) {
    const settled = showEarlyPreview({
      firstImage: firstImage.body,
      currentUser: jsonCopyOf(currentUser),
      context: jsonCopyOf(context),
    }).catch(() => undefined);
    (window as unknown as Record<string, unknown>)[EARLY_PREVIEW_SETTLED] = settled;
  }
  rememberEarlyChain(
    firstSeriesReadsOf(study),
    earlyFirstSeriesReads(study, origin, firstImage.response, firstPaint),
  );
}

startEarlyRequests(window.location.pathname, window.location.origin);
