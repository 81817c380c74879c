import {
  LAB_DOCUMENT_MESSAGES,
  type TPrintDocument,
  type TPrintOption,
  documentsOfPrintOption,
} from '@radflow/core';
import { fetchLabDocument } from './lab-summary-api';

/**
 * Opening a bill's PDFs in a new tab (spec-lab §2: /api/lab/bill/print/{id} opens in a new tab).
 * Each tab is opened at once, while the click still counts as the user's (a tab opened after the
 * download would be blocked as a pop-up), and shown its PDF when it has arrived; on any failure the
 * tab is closed again and `onError` gets 'Error downloading PDF' (spec-lab §8).
 */
async function showInTab(
  tab: Window | null,
  document: TPrintDocument,
  billId: number,
  onError: (message: string) => void,
): Promise<boolean> {
  try {
    const blob = await fetchLabDocument(document, billId);
    const url = URL.createObjectURL(blob);
    if (tab) tab.location.href = url;
    else window.open(url, '_blank');
    // The tab keeps its own copy once it has loaded.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    return true;
  } catch {
    tab?.close();
    onError(LAB_DOCUMENT_MESSAGES.errorDownloadingPdf);
    return false;
  }
}

/** One document of a bill in a new tab; false (and `onError` told) when it could not be had. */
export function openLabDocument(
  document: TPrintDocument,
  billId: number,
  onError: (message: string) => void,
): Promise<boolean> {
  return showInTab(window.open('', '_blank'), document, billId, onError);
}

/** The bill / invoice PDF in a new tab. */
export function openBillPrint(billId: number, onError: (message: string) => void): Promise<boolean> {
  return openLabDocument('INVOICE', billId, onError);
}

/** The appointment slip PDF in a new tab. */
export function openAppointmentSlipPrint(
  billId: number,
  onError: (message: string) => void,
): Promise<boolean> {
  return openLabDocument('APPOINTMENT_SLIP', billId, onError);
}

/**
 * What the print-option chooser opens: each document of the option in its own tab, invoice first.
 * Both tabs open during the click; one error message however many failed.
 */
export async function openPrintOption(
  option: TPrintOption,
  billId: number,
  onError: (message: string) => void,
): Promise<boolean> {
  const documents = documentsOfPrintOption(option);
  const tabs = documents.map(() => window.open('', '_blank'));
  let failed = false;
  const results = await Promise.all(
    documents.map((document, i) =>
      showInTab(tabs[i] ?? null, document, billId, () => {
        failed = true;
      }),
    ),
  );
  if (failed) onError(LAB_DOCUMENT_MESSAGES.errorDownloadingPdf);
  return results.every(Boolean);
}
