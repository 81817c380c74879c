import {
  LAB_DOCUMENT_MESSAGES,
  ZLabSummaryPage,
  ZLabUsers,
  labDocumentPath,
  type TLabSummaryPage,
  type TLabSummaryRequest,
  type TLabUser,
  type TPrintDocument,
} from '@radflow/core';
import { apiRequest, deviceHeaders, failedRequest, parseBody, sendRetryingWhenShed } from '../../api/client';
import { fileNameOf, saveFile } from '../report-documents/report-documents.api';

/** The lab summary's calls (spec-lab §7) and the bill documents' (GET …/print/{id}). */

export const LAB_SUMMARY_QUERY_KEY = ['lab-summary'] as const;

export function searchLabSummary(body: TLabSummaryRequest, signal?: AbortSignal): Promise<TLabSummaryPage> {
  return apiRequest('/api/lab/summary/search', { json: body, schema: ZLabSummaryPage, signal });
}

export function fetchLabUsers(signal?: AbortSignal): Promise<TLabUser[]> {
  return apiRequest('/api/lab/get-lab-users', { schema: ZLabUsers, signal });
}

/** The summary's downloads: the path, what the loading indicator says, the file's fallback name. */
export const LAB_DOWNLOADS = {
  csv: {
    path: '/api/lab/summary/csv',
    loading: LAB_DOCUMENT_MESSAGES.downloadingCsv,
    fallback: 'lab-summary.csv',
  },
  testsExcel: {
    path: '/api/lab/summary/tests/csv',
    loading: LAB_DOCUMENT_MESSAGES.downloadingTestsExcel,
    fallback: 'lab-tests.xlsx',
  },
  pdf: {
    path: '/api/lab/summary/pdf',
    loading: LAB_DOCUMENT_MESSAGES.downloadingPdf,
    fallback: 'lab-summary.pdf',
  },
  amuPdf: {
    path: '/api/lab/summary/amu-summary-pdf',
    loading: LAB_DOCUMENT_MESSAGES.downloadingPdf,
    fallback: 'lab-amu-summary.pdf',
  },
} as const;
export type TLabDownload = keyof typeof LAB_DOWNLOADS;

/** POSTs the body and saves the answer under the server's name; a refusal is shown like any failure. */
export async function downloadLabFile(kind: TLabDownload, body: object): Promise<void> {
  const { path, fallback } = LAB_DOWNLOADS[kind];
  let response: Response;
  try {
    response = await sendRetryingWhenShed(() =>
      fetch(path, {
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
  saveFile(await response.blob(), fileNameOf(response.headers.get('Content-Disposition'), fallback));
}

/** A bill's document as a PDF blob; any failure is one error the caller shows as 'Error downloading PDF'. */
export async function fetchLabDocument(document: TPrintDocument, billId: number): Promise<Blob> {
  let response: Response;
  try {
    response = await sendRetryingWhenShed(() =>
      fetch(labDocumentPath(document, billId), {
        headers: { ...deviceHeaders(), Accept: 'application/pdf' },
        credentials: 'same-origin',
      }),
    );
  } catch {
    throw failedRequest(0, null, true);
  }
  if (!response.ok) throw failedRequest(response.status, parseBody(await response.text()), true);
  return response.blob();
}
