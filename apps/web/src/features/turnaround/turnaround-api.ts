import {
  AUTO_REFRESH_MS,
  type TTurnaroundAtRiskResponse,
  ZTurnaroundAtRiskResponse,
  canSeeTurnaroundAtRisk,
} from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { useSignedInSession } from '../auth/session';

/**
 * GET /turnaround/at-risk (issue 24 §4; server modules/turnaround/README.md). Under the study lists'
 * key (['studies', …]), so whatever refreshes the lists (an assignment, a live study event) refreshes
 * it too.
 */
export const AT_RISK_QUERY_KEY = ['studies', 'turnaround-at-risk'] as const;

export function fetchAtRisk(signal?: AbortSignal): Promise<TTurnaroundAtRiskResponse> {
  // Quiet: the badge is an addition to the list; a failure leaves it out, not a snackbar.
  return apiRequest('/api/turnaround/at-risk', { schema: ZTurnaroundAtRiskResponse, signal, quiet: true });
}

/**
 * The at-risk list for those who may assign (core canSeeTurnaroundAtRisk), when the group has a
 * sign-off limit (without one nothing is ever at risk, so nothing is asked); refreshed like the lists.
 */
export function useAtRisk() {
  const { roles, flags, preferences } = useSignedInSession();
  const enabled = canSeeTurnaroundAtRisk(roles) && flags.signOffTimeLimit !== null;
  const query = useQuery({
    queryKey: AT_RISK_QUERY_KEY,
    queryFn: ({ signal }) => fetchAtRisk(signal),
    enabled,
    refetchInterval: preferences.UI_PREFERENCES.autoRefresh ? AUTO_REFRESH_MS : false,
  });
  const data = enabled ? query.data : undefined;
  return {
    enabled,
    /** Every study at risk or breached; `rows` holds the first AT_RISK_ROWS_MAX of them. */
    count: data ? data.counts.atRisk + data.counts.breached : 0,
    rows: data?.rows ?? [],
  };
}

/** Minutes left as the list says it: '1 h 5 min left', '12 min left', 'Late by 3 min'. */
export function timeLeftText(minutes: number): string {
  const span = (m: number) => {
    const h = Math.floor(m / 60);
    return h > 0 ? `${h} h ${m % 60} min` : `${m} min`;
  };
  return minutes < 0 ? `Late by ${span(-minutes)}` : `${span(minutes)} left`;
}
