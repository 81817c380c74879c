import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router';
import { ApiFailureBridge } from '../app/ApiFailureBridge';
import { AppProviders, createQueryClient } from '../app/providers';

/**
 * Renders routes inside the app's real providers (theme, query client, feedback) and the API failure
 * bridge, at `path`. The browser URL follows, since the API client reads the pathname.
 */
export function renderRoutes(routes: RouteObject[], path: string) {
  window.history.replaceState(null, '', path);
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: Infinity } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  router.subscribe((state) => {
    window.history.replaceState(null, '', state.location.pathname + state.location.search);
  });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <ApiFailureBridge />
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

/** One screen at one route pattern, for feature tests. */
export function renderScreen(
  element: ReactNode,
  { path = '/', route }: { path?: string; route?: string } = {},
) {
  return renderRoutes([{ path: route ?? path, element }], path);
}

/** Makes MUI's useMediaQuery see a wide screen (permanent drawer). */
export function simulateWideScreen(): void {
  window.matchMedia = ((query: string) => ({
    matches: query.includes('min-width'),
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
}
