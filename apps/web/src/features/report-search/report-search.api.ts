import { type TReportSearchForm, ZReportSearchAnswer } from '@radflow/core';
import { apiRequest } from '../../api/client';

/** spec-core §7 POST /query/search: one page of the signed-off reports the user may see. */
export function searchReports(request: TReportSearchForm, signal?: AbortSignal) {
  return apiRequest('/api/query/search', {
    json: request,
    schema: ZReportSearchAnswer,
    signal,
    // The page shows a refusal (switch off, bad dates) where the results would be.
    quiet: true,
  });
}
