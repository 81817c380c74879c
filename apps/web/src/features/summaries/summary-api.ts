import {
  ZAdvancedSummaryPage,
  ZStudyListPage,
  type TAdvancedSummaryPage,
  ZSummaryTotals,
  type TStudyListPage,
  type TSummaryRequest,
  type TSummaryTotals,
} from '@radflow/core';
import { apiRequest, deviceHeaders, failedRequest, parseBody, sendRetryingWhenShed } from '../../api/client';
import { saveFile } from '../report-documents/report-documents.api';

/** The summary calls of spec-core §7 'Lists and summaries' and the screen's Excel download. */

export const SUMMARY_QUERY_KEY = ['report-summary'] as const;

export function fetchSummaryPage(body: TSummaryRequest, signal?: AbortSignal): Promise<TStudyListPage> {
  return apiRequest('/api/report-summary/', { json: body, schema: ZStudyListPage, signal });
}

export function fetchSummaryTotals(body: TSummaryRequest, signal?: AbortSignal): Promise<TSummaryTotals> {
  return apiRequest('/api/total-summary/', { json: body, schema: ZSummaryTotals, signal });
}

/** The file name of a Content-Disposition, else the fallback. */
function fileNameOf(disposition: string | null, fallback: string): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? fallback;
}

/**
 * 'Download Excel': POST /api/report-summary/xlsx, saved under the server's name. The server streams
 * the file; the browser keeps it as a blob until it is saved. A refusal is shown like any failure.
 */
export async function downloadSummaryExcel(body: TSummaryRequest): Promise<void> {
  let response: Response;
  try {
    response = await sendRetryingWhenShed(() =>
      fetch('/api/report-summary/xlsx', {
        method: 'POST',
        headers: { ...deviceHeaders(), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        credentials: 'same-origin',
      }),
    );
  } catch {
    throw failedRequest(0, null, false);
  }
  if (!response.ok) throw failedRequest(response.status, parseBody(await response.text()), false);
  saveFile(
    await response.blob(),
    fileNameOf(response.headers.get('Content-Disposition'), 'report-summary.xlsx'),
  );
}

/** POST /api/query/report-summary: the page of the range and the aggregates (Advanced Search Report Summary). */
export function fetchAdvancedSummary(
  body: TSummaryRequest,
  signal?: AbortSignal,
): Promise<TAdvancedSummaryPage> {
  return apiRequest('/api/query/report-summary', { json: body, schema: ZAdvancedSummaryPage, signal });
}
