import { viewerQueryOf } from '@radflow/core';
import { useSearchParams } from 'react-router';
import { preloadable } from '../../lib/preloadable';

// Two chunks: the diagnostic viewer (whose Cornerstone chunk loads later still) and the light one,
// which holds no image code at all (VIEWER.md "Light viewer").
const ViewerPage = preloadable(() => import('./ViewerPage'));
const LightViewerPage = preloadable(() => import('./light/LightViewerPage'));

/**
 * /viewer/:studyInstanceUids/:id — spec-core §2 Viewer entry: "parameter d selects one viewer,
 * otherwise another viewer is used": `d=1` the diagnostic viewer, anything else the light one.
 */
export function ViewerRoute() {
  const [search] = useSearchParams();
  return viewerQueryOf(search).kind === 'diagnostic' ? <ViewerPage /> : <LightViewerPage />;
}
