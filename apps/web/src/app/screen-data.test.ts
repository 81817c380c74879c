import { QueryClient } from '@tanstack/react-query';
import type { TPlatformDashboard } from '@radflow/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { configureApiClient, type TApiFailure } from '../api/client';
import { dashboardQueryKey } from '../features/dashboards/dashboards.api';
import { platformDashboardQuery } from '../features/platform-billing/platform-billing.api';
import { fakeApi } from '../test/fake-api';
import { warmScreenDataAt } from './screen-data';

const refused = {
  status: 403,
  body: { errorStatusCode: 403, errorDescription: 'Forbidden', additionalInfo: null, txnId: 't' },
};

describe('warmScreenDataAt: a screen opened directly asks for its first data at startup', () => {
  let failures: TApiFailure[];
  let restore: () => void;
  let queryClient: QueryClient;
  beforeEach(() => {
    failures = [];
    restore = configureApiClient({ isAuthenticated: () => true, onFailure: (f) => failures.push(f) });
    queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  });
  afterEach(() => restore());

  it("the Billing Dashboard: the page's own query, answered before the page asks", async () => {
    const answer: TPlatformDashboard = {
      from: '2025-12',
      to: '2026-11',
      revenueByMonth: [],
      groupsByPlan: [],
      usageByMonth: [],
      signUpsByMonth: [],
      overdue: { count: 0, amount: 0, invoices: [] },
      expiredGroups: 3,
    };
    const api = fakeApi({ 'GET /api/platform-billing/dashboard': { body: answer } });
    warmScreenDataAt('/admin-page/billing-dashboard', '', queryClient);
    const { queryKey } = platformDashboardQuery(new Date());
    await waitFor(() => expect(queryClient.getQueryData(queryKey)).toEqual(answer));
    expect(api.requests.map((r) => [r.path, r.query.get('from'), r.query.get('to')])).toEqual([
      ['/api/platform-billing/dashboard', queryKey[2], queryKey[3]],
    ]);
  });

  it('a dashboard asks only when its address names the range, and a refusal shows nothing', async () => {
    const api = fakeApi({ 'GET /api/dashboard': refused });
    warmScreenDataAt('/page/dashboard', '', queryClient);
    warmScreenDataAt('/page/dashboard', '?startTime=2026-11-01', queryClient);
    warmScreenDataAt('/study-list', '?startTime=2026-11-01&endTime=2026-11-30', queryClient);
    warmScreenDataAt('/admin-page/eskag-dashboard', '?startTime=2026-11-01&endTime=2026-11-30', queryClient);
    const range = { startTime: '2026-11-01', endTime: '2026-11-30' };
    await waitFor(() => expect(queryClient.getQueryState(dashboardQueryKey(range))?.status).toBe('error'));
    expect(api.requests.map((r) => `${r.path}?${r.query.toString()}`)).toEqual([
      '/api/dashboard?startTime=2026-11-01&endTime=2026-11-30',
    ]);
    // Quiet: the page asks again when drawn and shows its own failure.
    expect(failures).toEqual([]);
  });
});
