import {
  type TAllSlots,
  type TAppointmentList,
  type TAppointmentSearch,
  type TAppointmentSummary,
  type TAppointmentSummaryRequest,
  ZAllSlots,
  ZAppointmentList,
  ZAppointmentSummary,
} from '@radflow/core';
import { apiRequest, deviceHeaders } from '../../api/client';

/** The calls of the appointment views (spec-lab §7 get-all-slot; the lab-appointments module's two). */

export function fetchAllSlots(
  range: { startTime: string; endTime: string },
  signal?: AbortSignal,
): Promise<TAllSlots> {
  return apiRequest('/api/lab/get-all-slot', { json: range, schema: ZAllSlots, signal });
}

export function searchAppointments(
  body: TAppointmentSearch,
  signal?: AbortSignal,
): Promise<TAppointmentList> {
  return apiRequest('/api/lab/appointments/search', { json: body, schema: ZAppointmentList, signal });
}

export function fetchAppointmentSummary(
  body: TAppointmentSummaryRequest,
  signal?: AbortSignal,
): Promise<TAppointmentSummary> {
  // The dialog shows a refusal (the custom range's messages) in place of the counts.
  return apiRequest('/api/lab/appointments/summary', {
    json: body,
    schema: ZAppointmentSummary,
    signal,
    quiet: true,
  });
}

export const ERROR_DOWNLOADING_PDF = 'Error downloading PDF';

/**
 * The appointment slip (GET /api/lab/appointment-slip/print/{id}) in a new tab. The tab is opened
 * during the click (a tab opened after the download would be blocked as a pop-up) and shown the PDF
 * when it has arrived; on any failure it is closed again and `onError` gets 'Error downloading PDF'
 * (spec-lab §8).
 */
export async function openAppointmentSlip(
  billId: number,
  onError: (message: string) => void,
): Promise<boolean> {
  const tab = window.open('', '_blank');
  try {
    const response = await fetch(`/api/lab/appointment-slip/print/${billId}`, {
      headers: { ...deviceHeaders(), Accept: 'application/pdf' },
      credentials: 'same-origin',
    });
    if (!response.ok) throw new Error(`slip ${response.status}`);
    const url = URL.createObjectURL(await response.blob());
    if (tab) tab.location.href = url;
    else window.open(url, '_blank');
    // The tab keeps its own copy once it has loaded.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    return true;
  } catch {
    tab?.close();
    onError(ERROR_DOWNLOADING_PDF);
    return false;
  }
}
