import type { QueryClient } from '@tanstack/react-query';

/**
 * The data a screen draws first, asked for at startup (main.tsx) beside the session calls and the
 * screen's chunk, when the screen's address is opened directly (a reload, a bookmark, a link):
 * otherwise it is asked only once the session is in and the shell has drawn, a chain that put the
 * Billing Dashboard's numbers ~450 ms after navigation on a quiet 2-core machine. The page's own
 * query takes the answer over (same key; its staleTime keeps it from asking twice).
 *
 * Only a query whose key the address alone decides belongs here: one that needs the session (a
 * group's time zone, a role) would ask for the wrong thing. The asks are quiet; a refusal (signed
 * out, another role) is left for the page, which asks again and shows its own. Each entry's code
 * is a dynamic import, so the entry bundle holds only this table.
 */
type TScreenData = (queryClient: QueryClient, search: URLSearchParams) => Promise<void>;

const platformDashboard: TScreenData = async (queryClient) => {
  const { platformDashboardQuery } = await import('../features/platform-billing/platform-billing.api');
  await queryClient.prefetchQuery(platformDashboardQuery(new Date(), true));
};

const dashboard: TScreenData = async (queryClient, search) => {
  const startTime = search.get('startTime');
  const endTime = search.get('endTime');
  if (!startTime || !endTime) return;
  const { dashboardQuery } = await import('../features/dashboards/dashboards.api');
  await queryClient.prefetchQuery(dashboardQuery({ startTime, endTime }, true));
};

const SCREEN_DATA: Readonly<Record<string, TScreenData>> = {
  '/admin-page/billing-dashboard': platformDashboard,
  '/admin-page/sales-dashboard': platformDashboard,
  '/page/dashboard': dashboard,
  '/admin-page/dashboard': dashboard,
  '/admin-page/eskag-dashboard': dashboard,
};

/** Starts the first data of the screen at this address, if it has any that the address decides. */
export function warmScreenDataAt(pathname: string, search: string, queryClient: QueryClient): void {
  const warm = SCREEN_DATA[pathname];
  if (warm) void warm(queryClient, new URLSearchParams(search)).catch(() => undefined);
}
