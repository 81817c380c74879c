import {
  type TAppointmentList,
  type TAppointmentSearch,
  type TAppointmentSummary,
  type TAppointmentSummaryRequest,
  ZAppointmentList,
  ZAppointmentSummary,
} from '@radflow/core';
import { apiRequest } from '../../api/client';

/** The calls of the appointment views (the lab-appointments module's two; get-all-slot is api/lab.ts). */

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
