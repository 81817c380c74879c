import { type TRecordDeskPaymentBody, type TRequestPaymentBody, ZStudyPayments } from '@radflow/core';
import { apiRequest } from '../../api/client';

/** The study payment calls (server module payments). The dialog shows failures in place: quiet. */

export const studyPaymentsQueryKey = (id: number) => ['study-payments', id] as const;

export function fetchStudyPayments(id: number, signal?: AbortSignal) {
  return apiRequest(`/api/report-status/payments/${id}`, { schema: ZStudyPayments, quiet: true, signal });
}

export function requestPayment(id: number, body: TRequestPaymentBody) {
  return apiRequest(`/api/report-status/payment/request/${id}`, {
    json: body,
    schema: ZStudyPayments,
    quiet: true,
  });
}

export function recordDeskPayment(id: number, body: TRecordDeskPaymentBody) {
  return apiRequest(`/api/report-status/payment/record/${id}`, {
    json: body,
    schema: ZStudyPayments,
    quiet: true,
  });
}

export function cancelPaymentRequest(id: number) {
  return apiRequest(`/api/report-status/payment/cancel/${id}`, {
    method: 'POST',
    schema: ZStudyPayments,
    quiet: true,
  });
}
