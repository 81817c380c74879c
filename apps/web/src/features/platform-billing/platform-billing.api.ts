import {
  PLATFORM_TIME_ZONE,
  calendarDayIn,
  ZIssueInvoicesAnswer,
  ZPlatformDashboard,
  ZPlatformInvoice,
  ZPlatformPlan,
  ZPlatformInvoiceList,
  ZPlatformOverview,
  ZPlatformPayment,
  ZPlatformSubscription,
  ZPlatformUsage,
  type TCreatePlanBody,
  type TIssueInvoicesAnswer,
  type TPlanTermsBody,
  type TPlatformPlan,
  type TPlatformDashboard,
  type TPlatformInvoice,
  type TPlatformOverview,
  type TPlatformPayment,
  type TPlatformSubscription,
  type TPlatformUsage,
  type TRecordPlatformPaymentBody,
} from '@radflow/core';
import { apiRequest } from '../../api/client';

/** The platform's billing calls (server modules/platform-billing). */

export const PLATFORM_BILLING_KEY = ['platform-billing'] as const;

export const fetchOverview = (signal?: AbortSignal): Promise<TPlatformOverview> =>
  apiRequest('/api/platform-billing/overview', { schema: ZPlatformOverview, signal });

export const fetchInvoices = (signal?: AbortSignal): Promise<{ invoices: TPlatformInvoice[] }> =>
  apiRequest('/api/platform-billing/invoices', { schema: ZPlatformInvoiceList, signal });

export const fetchUsage = (from: string, to: string, signal?: AbortSignal): Promise<TPlatformUsage> =>
  apiRequest(`/api/platform-billing/usage?${new URLSearchParams({ from, to }).toString()}`, {
    schema: ZPlatformUsage,
    signal,
  });

export const fetchPlatformDashboard = (
  from: string,
  to: string,
  signal?: AbortSignal,
  quiet?: boolean,
): Promise<TPlatformDashboard> =>
  apiRequest(`/api/platform-billing/dashboard?${new URLSearchParams({ from, to }).toString()}`, {
    schema: ZPlatformDashboard,
    signal,
    quiet,
  });

/** Months the Billing and Admin Sales dashboards show: the last twelve, this one included. */
const DASHBOARD_MONTHS = 12;

/**
 * The dashboards' one query (PlatformDashboardPage), also asked at startup when the page is opened
 * directly (app/screen-data.ts): the months end with this one in the platform's zone. `quiet`: the
 * startup's ask shows no failure; the page asks again and shows its own.
 */
export function platformDashboardQuery(now: Date, quiet = false) {
  const today = calendarDayIn(now, PLATFORM_TIME_ZONE);
  const from = periodOf(today, DASHBOARD_MONTHS - 1);
  const to = periodOf(today);
  return {
    queryKey: [...PLATFORM_BILLING_KEY, 'dashboard', from, to] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchPlatformDashboard(from, to, signal, quiet),
  };
}

export const changePlan = (
  groupId: number,
  planCode: string,
  version: number | null,
): Promise<TPlatformSubscription> =>
  apiRequest(`/api/platform-billing/groups/${groupId}/plan`, {
    json: { planCode, version },
    schema: ZPlatformSubscription,
  });

export const extendSubscription = (groupId: number, version: number, months: number) =>
  apiRequest(`/api/platform-billing/groups/${groupId}/extend`, {
    json: { version, months },
    schema: ZPlatformSubscription,
  });

export const expireSubscription = (groupId: number, version: number) =>
  apiRequest(`/api/platform-billing/groups/${groupId}/expire`, {
    json: { version },
    schema: ZPlatformSubscription,
  });

export const issueInvoices = (period: string): Promise<TIssueInvoicesAnswer> =>
  apiRequest('/api/platform-billing/invoices/issue', { json: { period }, schema: ZIssueInvoicesAnswer });

/** A double-clicked Save sends the same key twice: the server records one payment. */
export const recordPayment = (
  body: TRecordPlatformPaymentBody,
  idempotencyKey: string,
): Promise<TPlatformPayment> =>
  apiRequest('/api/platform-billing/payments', {
    json: body,
    schema: ZPlatformPayment,
    headers: { 'Idempotency-Key': idempotencyKey },
  });

/** A new plan (admin biller). */
export const createPlan = (body: TCreatePlanBody): Promise<TPlatformPlan> =>
  apiRequest('/api/platform-billing/plans', { json: body, schema: ZPlatformPlan, quiet: true });

/** A plan's new terms, for invoices issued from now on. */
export const updatePlan = (planId: number, body: TPlanTermsBody): Promise<TPlatformPlan> =>
  apiRequest(`/api/platform-billing/plans/${planId}`, { json: body, schema: ZPlatformPlan, quiet: true });

/** Credits the whole unpaid invoice (the month's next run re-issues it), with a reason. */
export const creditInvoice = (invoiceId: number, reason: string): Promise<TPlatformInvoice> =>
  apiRequest(`/api/platform-billing/invoices/${invoiceId}/credit-note`, {
    json: { reason },
    schema: ZPlatformInvoice,
  });

export const invoicePdfUrl = (invoiceId: number) => `/api/platform-billing/invoices/${invoiceId}/pdf`;

/** 'YYYY-MM' of a date in the platform's zone, and n months before it. */
export function periodOf(day: string, monthsBack = 0): string {
  const [y, m] = day.split('-').map(Number) as [number, number];
  const total = y * 12 + (m - 1) - monthsBack;
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}`;
}
