import { effectiveRoles, isViewerSession, opensStudies, type TRole } from '@radflow/core/roles';
import { VIEWER_Z_INDEX, firstViewportArea } from '../../features/viewer/components/viewer-geometry';
import type { TDicomJson } from '../../features/viewer/data-source/dicom-json';
import {
  firstImageAnswerOf,
  previewPixels,
  syntaxOfContentType,
} from '../../features/viewer/first-image/native-frame';
import { paintPreview } from '../../features/viewer/first-image/paint-preview';
import { viewerEntryOf } from '../../features/viewer/viewer-entry';
import { EARLY_PREVIEW_ID, dropEarlyPreview, earlyPreviewDone } from '../../lib/early-preview-layer';

/**
 * The first image drawn by the early script (VIEWER.md "Speed"), before the app's bundle has run:
 * the app's start (its bundle's evaluation, the session, React's first renders) costs a 2-core
 * machine's page thread most of half a second, and the image needs none of it. Drawn in a layer
 * above the page, exactly where the viewer's first viewport will be (viewer-geometry.ts) and as
 * its loading page draws it (paint-preview.ts); the app removes the layer once its own page shows
 * the image there, or shows anything else (lib/early-preview-layer.ts).
 *
 * Shown only when the app would show it: a signed-in user whose roles open studies, not a viewer
 * session (a shared link whose payment the app checks first), and a study whose context says it
 * opens — the same rules the app applies, from the same answers. The server has checked the
 * study's access on each of them. A frame it cannot reproduce exactly (native-frame.ts) is left to
 * the app.
 */

/** What the first-image answer carried. */
export interface TFirstImageBody {
  contentType: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** Whether the app would open the study's images for this user (RouteGuard, ViewerPage). */
function wouldOpen(user: unknown, context: unknown): boolean {
  const who = user as { roles?: unknown; hybridModeOn?: unknown } | null;
  if (!who || !Array.isArray(who.roles)) return false;
  const roles = effectiveRoles(who.roles as TRole[], who.hybridModeOn === true);
  if (!opensStudies(roles) || isViewerSession(roles)) return false;
  const study = context as Parameters<typeof viewerEntryOf>[0] | null;
  if (!study?.entry || typeof study.entry.allowed !== 'boolean') return false;
  return viewerEntryOf(study).kind === 'open';
}

function decode(body: TFirstImageBody) {
  const answer = firstImageAnswerOf<{ metadata?: TDicomJson }>(body.contentType, body.bytes);
  const metadata = answer?.descriptor.metadata;
  if (!answer || !metadata) return null;
  const decoded = previewPixels(metadata, syntaxOfContentType(answer.frame.contentType), answer.frame.bytes);
  return decoded.ok ? decoded.pixels : null;
}

async function bodyReady(): Promise<void> {
  if (document.body) return;
  await new Promise((done) => document.addEventListener('DOMContentLoaded', done, { once: true }));
}

/** Draws the first image early if the app would show it; quietly nothing otherwise. */
export async function showEarlyPreview(inputs: {
  firstImage: Promise<TFirstImageBody | null>;
  currentUser: Promise<unknown>;
  context: Promise<unknown>;
}): Promise<void> {
  const [body, user, context] = await Promise.all([inputs.firstImage, inputs.currentUser, inputs.context]);
  if (!body || !wouldOpen(user, context) || earlyPreviewDone()) return;
  const pixels = decode(body);
  if (!pixels) return;
  await bodyReady();
  if (earlyPreviewDone() || document.getElementById(EARLY_PREVIEW_ID)) return;
  const { clientWidth, clientHeight } = document.documentElement;
  const area = firstViewportArea(clientWidth, clientHeight);
  const layer = document.createElement('div');
  layer.id = EARLY_PREVIEW_ID;
  layer.dataset.testid = 'viewport-early';
  // Just above the viewer's frame as it appears around it, below dialogs.
  layer.style.cssText = `position:fixed;left:${area.left}px;top:${area.top}px;width:${area.width}px;height:${area.height}px;z-index:${VIEWER_Z_INDEX + 1};background:#000`;
  layer.addEventListener('contextmenu', (event) => event.preventDefault());
  const canvas = document.createElement('canvas');
  canvas.style.cssText = 'position:absolute;width:100%;height:100%;image-rendering:pixelated';
  layer.append(canvas);
  if (!paintPreview(canvas, pixels, area.width, area.height)) return;
  document.body.append(layer);
  // Drawn for this window's size: the app's page redraws for another.
  window.addEventListener('resize', dropEarlyPreview, { once: true });
}
