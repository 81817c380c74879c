import {
  ZAccountPayment,
  ZReportMessages,
  ZShareCodeSent,
  ZSharePage,
  ZShareSeriesList,
  ZViewerQrResponse,
  type TErrorBody,
} from '@radflow/core';
import { ApiError, apiRequest } from '../../api/client';

/*
 * The public share page's calls (issue 7 §5; server module share-page): the link token in the path
 * is the credential, plus the access cookie a verified code sets. The page shows every failure in
 * place, so all calls here are quiet.
 */

const base = (link: string) => `/api/share/${encodeURIComponent(link)}`;

export const sharePageQueryKey = (link: string) => ['share-page', link] as const;
export const shareSeriesQueryKey = (link: string) => ['share-page', link, 'series'] as const;

export function fetchSharePage(link: string, signal?: AbortSignal) {
  return apiRequest(base(link), { schema: ZSharePage, quiet: true, signal });
}

export function fetchShareSeries(link: string, signal?: AbortSignal) {
  return apiRequest(`${base(link)}/series`, { schema: ZShareSeriesList, quiet: true, signal });
}

export function requestShareCode(link: string) {
  return apiRequest(`${base(link)}/code`, { method: 'POST', schema: ZShareCodeSent, quiet: true });
}

export function verifyShareCode(link: string, code: string) {
  return apiRequest(`${base(link)}/verify`, { json: { code }, quiet: true });
}

/** Where the signed report's PDF downloads from (a plain link: the browser sends the access cookie). */
export const sharePdfUrl = (link: string) => `${base(link)}/report.pdf`;

/** What a failed share call means for the page. */
export type TShareFailure =
  | { kind: 'code'; mobile: string }
  | { kind: 'gone'; text: string }
  | { kind: 'not-found' }
  | { kind: 'message'; text: string };

export function shareFailureOf(error: unknown): TShareFailure {
  if (!(error instanceof ApiError)) return { kind: 'message', text: String(error) };
  const body = (error.body ?? {}) as Partial<TErrorBody>;
  if (error.status === 401 && body.additionalInfo) return { kind: 'code', mobile: body.additionalInfo };
  if (error.status === 410) return { kind: 'gone', text: body.errorDescription ?? 'This link has expired' };
  if (error.status === 404) return { kind: 'not-found' };
  return { kind: 'message', text: body.errorDescription ?? error.message };
}

/** GET /api/report-status/messages/{id}: the row's messages with their delivery status (share dialog). */
export function fetchReportMessages(reportStatusId: number, signal?: AbortSignal) {
  return apiRequest(`/api/report-status/messages/${reportStatusId}`, {
    schema: ZReportMessages,
    quiet: true,
    signal,
  });
}

export const reportMessagesQueryKey = (reportStatusId: number) =>
  ['report-messages', reportStatusId] as const;

/** POST /api/pdf/generate-viewer-qr {reportStatusId}: the share link (made if missing) and its QR. */
export function generateViewerQr(reportStatusId: number) {
  return apiRequest('/api/pdf/generate-viewer-qr', {
    json: { reportStatusId },
    schema: ZViewerQrResponse,
    quiet: true,
  });
}

/** GET /api/customer-report/payment-info: the signed-in viewer's payment page (spec-core §4 Viewer payment). */
export function fetchAccountPayment(signal?: AbortSignal) {
  return apiRequest('/api/customer-report/payment-info', { schema: ZAccountPayment, quiet: true, signal });
}

export const accountPaymentQueryKey = (email: string) => ['account-payment', email] as const;
