import { viewerQueryOf } from '@radflow/core';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useRoutes } from 'react-router';
import { SESSION_QUERY_KEY, loadSession } from '../features/auth/session';
import { isServedByRouter } from '../features/pacs-router/served-by-router';
import { AppErrorBoundary } from './AppErrorBoundary';
import { AppProviders, createQueryClient } from './providers';
import { preloadable } from '../lib/preloadable';
import { APP_ROUTES, preloadScreenAt } from './routes';
import { warmScreenDataAt } from './screen-data';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
// Served by the center's router (the cloud unreachable, apps/router/HYBRID.md): the offline hybrid
// screen alone, against the router; the cloud session is never asked for.
const servedByRouter = isServedByRouter();
const RouterOfflineApp = preloadable(() => import('../features/pacs-router/RouterOfflineApp'));

// The session's calls (the route guard waits for them) start now, not after React's first render;
// AppRoot's useSession reads the same query.
if (!servedByRouter) {
  void queryClient.prefetchQuery({
    queryKey: SESSION_QUERY_KEY,
    queryFn: ({ signal }) => loadSession(signal),
    staleTime: Infinity,
  });
  // The screen of this address loads beside them too, and the first data it draws (screen-data.ts).
  preloadScreenAt(window.location.pathname);
  warmScreenDataAt(window.location.pathname, window.location.search, queryClient);
}
// A diagnostic viewer page (d=1) opened directly starts the viewer's code, the study's context and
// its series now, beside the session calls; the dynamic import keeps this out of the login and
// worklist bundle. The light viewer (no d=1) needs none of it (VIEWER.md "Light viewer").
if (
  !servedByRouter &&
  window.location.pathname.startsWith('/viewer/') &&
  viewerQueryOf(window.location.search).kind === 'diagnostic'
) {
  void import('../features/viewer/viewer-warm')
    .then((m) => m.warmViewerRoute(window.location.pathname, queryClient))
    .catch(() => undefined);
}
// Declarative routing (BrowserRouter + useRoutes): the app uses no loaders, actions or other data
// router APIs, and the data router's code was ~12 KB gzip of the login + list budget.
function AppRoutes() {
  return useRoutes(APP_ROUTES);
}

createRoot(root).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      {servedByRouter ? (
        <Suspense fallback={null}>
          <RouterOfflineApp />
        </Suspense>
      ) : (
        <BrowserRouter>
          <AppErrorBoundary>
            <AppRoutes />
          </AppErrorBoundary>
        </BrowserRouter>
      )}
    </AppProviders>
  </StrictMode>,
);
