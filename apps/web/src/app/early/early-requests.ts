import { deviceHeaders } from '../../api/device';
import { SESSION_PATHS } from '../../api/session-paths';
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

/**
 * The page's early requests (VIEWER.md "Speed"). A viewer page opened on its own (the worklist's
 * popup, a link) otherwise asks for its data in one chain: the app's 200 KB bundle downloaded and
 * evaluated (~0.3 s of a 2-core machine's main thread), then the session, then the study's series
 * list, then the first series's metadata, then its first frame. This script is built apart from the
 * app (vite.config.ts `earlyRequests`), a few KB that index.html loads on viewer addresses only,
 * and it asks for all of it while the bundle is still on its way: the first image (one answer: the
 * slice the viewer opens on, with its metadata and frame), the session's calls, the viewer
 * context, and the series list → the first series's metadata and instances. The app's own reads take the answers over (lib/early-responses.ts), each once; what they
 * do not take within 30 s is dropped.
 *
 * Nothing here decides anything: the server checks the session and the study's access on every one
 * of these requests, exactly as when the app asks, and a refused answer is not handed on — the app
 * asks again and shows its failure the usual way. The server picks the first image by the viewer's own
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
): Promise<void> {
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

function startEarlyRequests(pathname: string, origin: string): void {
  const address = parseViewerAddress(pathname);
  if (!address) return;
  const study = address.studyInstanceUid;
  // First, the image itself: one request whose URL the address names, answered before the rest.
  const firstImageAt = study ? firstImageUrl(origin, study) : null;
  const firstImage = firstImageAt ? fetchFirstImage(firstImageAt) : null;
  if (firstImageAt && firstImage) rememberEarlyResponse(firstImageAt, firstImage);
  const get = (path: string) =>
    rememberEarlyResponse(path, fetch(path, { credentials: 'same-origin', headers: deviceHeaders() }));
  // The session as identity.ts reads it for every role but the assignor (whose session reads the
  // group's preferences instead: for them two of these go unread and expire).
  get(SESSION_PATHS.currentUser);
  get(SESSION_PATHS.preferences);
  get(SESSION_PATHS.mapping);
  get(SESSION_PATHS.teleInfo);
  if (address.id !== null) get(viewerContextPath(address.id));
  if (!study || !firstImage) return;
  rememberEarlyChain(firstSeriesReadsOf(study), earlyFirstSeriesReads(study, origin, firstImage));
}

startEarlyRequests(window.location.pathname, window.location.origin);
