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
import { apiRequest } from '../../api/client';

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
