import type { QueryClient } from '@tanstack/react-query';
import { startFirstImage, workspaceMayLoad } from './first-image/first-image';
import { fetchViewerContext, viewerContextQueryKey } from './viewer-api';
import { parseViewerAddress } from './viewer-address';

/**
 * A viewer address opened as a page of its own (the worklist's popup, a link): starts the study's
 * context, its series and first image (first-image/first-image.ts) and the viewer's code at boot,
 * while the shell still asks who is signed in, instead of after the session, the route chunk and
 * the context, one after another (VIEWER.md "Speed"). The page's early requests
 * (app/early/early-requests.ts) have usually asked for all of these already; their answers are
 * taken over here. Signed out, the reads are refused like any other and nothing is shown; the
 * context query then runs again when the page asks for it.
 */
export function warmViewerRoute(pathname: string, queryClient: QueryClient): void {
  const address = parseViewerAddress(pathname);
  if (!address) return;
  // The route's own chunk now (it draws the first image); Cornerstone's once the image is up.
  void import('./ViewerPage').catch(() => undefined);
  const { id } = address;
  if (id !== null) {
    void queryClient.prefetchQuery({
      queryKey: viewerContextQueryKey(id),
      queryFn: ({ signal }) => fetchViewerContext(id, signal),
      staleTime: 60_000,
    });
  }
  startFirstImage(address.studyInstanceUid);
  void workspaceMayLoad().then(() => import('./ViewerWorkspace').catch(() => undefined));
}
