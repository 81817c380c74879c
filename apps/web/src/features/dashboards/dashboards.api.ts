import {
  ZDashboard,
  ZDashboardStudyPage,
  type TDashboard,
  type TDashboardMetric,
  type TDashboardStudyPage,
} from '@radflow/core';
import { apiRequest } from '../../api/client';

/** The dashboards' calls (issue 24 §3; server modules/dashboards). */

export interface TDashboardRange {
  startTime: string;
  endTime: string;
}

export const dashboardQueryKey = (range: TDashboardRange) =>
  ['dashboards', 'numbers', range.startTime, range.endTime] as const;

export function fetchDashboard(
  range: TDashboardRange,
  signal?: AbortSignal,
  quiet?: boolean,
): Promise<TDashboard> {
  const query = new URLSearchParams({ startTime: range.startTime, endTime: range.endTime });
  return apiRequest(`/api/dashboard?${query.toString()}`, { schema: ZDashboard, signal, quiet });
}

/**
 * A dashboard's numbers for a range (DashboardPage), also asked at startup when a dashboard address
 * that names its range is opened directly (app/screen-data.ts; without one the range's days depend
 * on the group's zone, known only after the session). `quiet`: the startup's ask shows no failure;
 * the page asks again and shows its own.
 */
export function dashboardQuery(range: TDashboardRange, quiet = false) {
  return {
    queryKey: dashboardQueryKey(range),
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchDashboard(range, signal, quiet),
  };
}

/** One number of the dashboard: which rows it counts. */
export interface TDrillDownTarget {
  metric: TDashboardMetric;
  key?: string;
  /** What the list's title says, e.g. 'Uploaded on 2026-03-01'. */
  title: string;
}

export const drillDownQueryKey = (range: TDashboardRange, target: TDrillDownTarget, page: number) =>
  ['dashboards', 'studies', range.startTime, range.endTime, target.metric, target.key ?? '', page] as const;

export function fetchDrillDown(
  range: TDashboardRange,
  target: TDrillDownTarget,
  page: number,
  size: number,
  signal?: AbortSignal,
): Promise<TDashboardStudyPage> {
  const query = new URLSearchParams({
    startTime: range.startTime,
    endTime: range.endTime,
    metric: target.metric,
    page: String(page),
    size: String(size),
  });
  if (target.key !== undefined) query.set('key', target.key);
  return apiRequest(`/api/dashboard/studies?${query.toString()}`, { schema: ZDashboardStudyPage, signal });
}
