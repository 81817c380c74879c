import {
  AUTO_REFRESH_MS,
  type TCriticalResult,
  type TRaiseCriticalResultRequest,
  ZCriticalResult,
  ZCriticalResults,
  formatErrorMessage,
  mayReadCriticalResults,
} from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { ApiError, NETWORK_ERROR_MESSAGE, apiRequest } from '../../api/client';
import { useSignedInSession } from '../auth/session';

/**
 * The critical-results calls (issue 23 §5; server modules/critical-results/README.md). The query
 * keys are the ones the live stream invalidates on a study event: `['critical-results', id]` for a
 * row's results, `['critical-results-open']` for the open list.
 */
export const criticalResultsQueryKey = (reportStatusId: number) =>
  ['critical-results', reportStatusId] as const;
export const OPEN_CRITICAL_RESULTS_QUERY_KEY = ['critical-results-open'] as const;

export function fetchCriticalResults(
  reportStatusId: number,
  signal?: AbortSignal,
): Promise<TCriticalResult[]> {
  // Quiet: the section is an addition to the editor; a failure leaves it empty, not a snackbar.
  return apiRequest(`/api/critical-results?entityId=${reportStatusId}`, {
    schema: ZCriticalResults,
    signal,
    quiet: true,
  });
}

export function fetchOpenCriticalResults(signal?: AbortSignal): Promise<TCriticalResult[]> {
  return apiRequest('/api/critical-results/open', { schema: ZCriticalResults, signal, quiet: true });
}

/** Quiet: the dialog shows a refusal (400 with the message) beside the form. */
export function raiseCriticalResult(body: TRaiseCriticalResultRequest): Promise<TCriticalResult> {
  return apiRequest('/api/critical-results', { json: body, schema: ZCriticalResult, quiet: true });
}

export function acknowledgeCriticalResult(id: number): Promise<TCriticalResult> {
  return apiRequest(`/api/critical-results/${id}/acknowledge`, { method: 'POST', schema: ZCriticalResult });
}

/**
 * The unacknowledged results on the studies the signed-in user sees (each with `canAcknowledge`),
 * for the roles that read them; refreshed like the lists (the stream refreshes it sooner).
 */
export function useOpenCriticalResults() {
  const session = useSignedInSession();
  const enabled = mayReadCriticalResults(session.roles);
  const autoRefresh = session.preferences.UI_PREFERENCES.autoRefresh;
  const query = useQuery({
    queryKey: OPEN_CRITICAL_RESULTS_QUERY_KEY,
    queryFn: ({ signal }) => fetchOpenCriticalResults(signal),
    enabled,
    refetchInterval: autoRefresh ? AUTO_REFRESH_MS : false,
  });
  return enabled ? (query.data ?? []) : [];
}

/** A refused call's words for the dialog: the server's errorDescription (the rule's message). */
export function criticalErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return NETWORK_ERROR_MESSAGE;
    const description = (error.body as { errorDescription?: unknown } | null)?.errorDescription;
    return typeof description === 'string' && description ? description : formatErrorMessage(error.body);
  }
  return error instanceof Error ? error.message : String(error);
}
