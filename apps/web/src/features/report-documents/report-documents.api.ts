import {
  REPORT_DOCUMENT_LEFT_OUT,
  REPORT_LEFT_OUT_HEADER,
  ZReportDocumentExtras,
  type TReportDocumentExtras,
  type TReportDocumentLeftOut,
  type TReportDownloadOption,
  type TStudyListRow,
} from '@radflow/core';
import { apiRequest, deviceHeaders, failedRequest, parseBody, sendRetryingWhenShed } from '../../api/client';

/** What a document call needs of the study row. */
export type TDocumentRow = Pick<TStudyListRow, 'id' | 'instanceId' | 'patientName' | 'studyName'>;

export interface TDocumentExtras {
  /** The editor's unsaved text (only users who may edit the report; the server checks). */
  customHtml?: string | null;
  reportName?: string;
}

/**
 * The file name the server gave (RFC 6266: `filename*` in UTF-8 first, else `filename`), or the
 * fallback when there is none.
 */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape: fall through to the plain name.
    }
  }
  const plain = /filename="([^"]*)"/i.exec(disposition) ?? /filename=([^;]+)/i.exec(disposition);
  return plain?.[1]?.trim() || fallback;
}

/**
 * One document of spec-core §9 (spec-core §7 POST /pdf/download, download-images, word). A refusal
 * is shown by the API client like any other failure.
 */
export async function fetchReportDocument(
  option: TReportDownloadOption,
  row: TDocumentRow,
  extras: TDocumentExtras = {},
): Promise<{ blob: Blob; fileName: string; leftOut: TReportDocumentLeftOut[] }> {
  const body = {
    uid: row.instanceId,
    reportStatusId: row.id,
    ...(option.showTemplate === null ? {} : { showTemplate: option.showTemplate }),
    ...(option.print ? { print: true } : {}),
    ...(extras.customHtml != null ? { customHtml: extras.customHtml } : {}),
    ...(extras.reportName ? { reportName: extras.reportName } : {}),
  };
  let response: Response;
  try {
    response = await sendRetryingWhenShed(() =>
      fetch(option.path, {
        method: 'POST',
        headers: {
          ...deviceHeaders(),
          Accept: option.format === 'PDF' ? 'application/pdf' : 'application/octet-stream',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(body),
        credentials: 'same-origin',
      }),
    );
  } catch {
    throw failedRequest(0, null, false);
  }
  if (!response.ok) throw failedRequest(response.status, parseBody(await response.text()), false);
  const fallback = `report-${row.id}.${option.format === 'PDF' ? 'pdf' : 'docx'}`;
  return {
    blob: await response.blob(),
    fileName: fileNameOf(response.headers.get('Content-Disposition'), fallback),
    leftOut: leftOutOf(response.headers.get(REPORT_LEFT_OUT_HEADER)),
  };
}

/** The server's x-report-left-out (issue 21 §7): what the document was asked for and does not hold. */
export function leftOutOf(header: string | null): TReportDocumentLeftOut[] {
  const names = (header ?? '').split(',').map((part) => part.trim());
  return REPORT_DOCUMENT_LEFT_OUT.filter((known) => names.includes(known));
}

export const documentExtrasQueryKey = (id: number) => ['report-documents', 'extras', id] as const;

/** GET /pdf/extras/{id}: whether the row's documents can have a letterhead and key images. */
export function fetchDocumentExtras(id: number, signal?: AbortSignal): Promise<TReportDocumentExtras> {
  return apiRequest(`/api/pdf/extras/${id}`, { schema: ZReportDocumentExtras, quiet: true, signal });
}

/** Saves a downloaded file under its name (a temporary link the browser follows). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has its own copy once started.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
