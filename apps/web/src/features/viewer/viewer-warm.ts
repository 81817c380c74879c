import type { QueryClient } from '@tanstack/react-query';
import { warmStudy } from './data-source/dicomweb-source';
import { fetchViewerContext, viewerContextQueryKey } from './viewer-api';

/**
 * A viewer address opened as a page of its own (the worklist's popup, a link): starts the viewer's
 * code, the study's context and its series at boot, while the shell still asks who is signed in,
 * instead of after the session, the route chunk and the context, one after another (VIEWER.md
 * "Speed"). Signed out, the reads are refused like any other and nothing is shown; the context
 * query then runs again when the page asks for it.
 */
export function warmViewerRoute(pathname: string, queryClient: QueryClient): void {
  const match = /^\/viewer\/([^/]+)\/(\d+)(?:\/|$)/.exec(pathname);
  if (!match) return;
  void import('./ViewerWorkspace').catch(() => undefined);
  const id = Number(match[2]);
  if (Number.isSafeInteger(id) && id > 0) {
    void queryClient.prefetchQuery({
      queryKey: viewerContextQueryKey(id),
      queryFn: ({ signal }) => fetchViewerContext(id, signal),
      staleTime: 60_000,
    });
  }
  warmStudy(decodeURIComponent(match[1]!).split(',')[0] ?? '');
}
