import {
  ZEchoResult,
  ZForwardRecord,
  ZForwardStatusResponse,
  ZForwardingPacs,
  type TForwardingPacsInput,
} from '@radflow/core';
import { ApiError, apiRequest } from '../../api/client';

/** Forwarding to a PACS (issue 3 §6; server: apps/server/src/modules/forwarding/FORWARDING.md). */

export const forwardingPacsKey = (centerId: number | null) => ['forwarding-pacs', centerId] as const;
export const forwardStatusKey = (reportStatusId: number) => ['forward-status', reportStatusId] as const;

const centerQuery = (centerId: number | null) => (centerId === null ? '' : `?centerId=${centerId}`);

/** The center's destinations (a center user's own center when `centerId` is null). */
export function fetchForwardingPacs(centerId: number | null, signal?: AbortSignal) {
  return apiRequest(`/api/forwarding-pacs${centerQuery(centerId)}`, {
    schema: ZForwardingPacs.array(),
    ...(signal ? { signal } : {}),
  });
}

/** Quiet: the settings form shows a 400's message in place. */
export function createForwardingPacs(input: TForwardingPacsInput) {
  return apiRequest('/api/forwarding-pacs', {
    method: 'POST',
    json: input,
    schema: ZForwardingPacs,
    quiet: true,
  });
}

export function deleteForwardingPacs(id: number) {
  return apiRequest(`/api/forwarding-pacs/${id}`, { method: 'DELETE' });
}

export function echoForwardingPacs(id: number) {
  return apiRequest(`/api/forwarding-pacs/${id}/echo`, { method: 'POST', schema: ZEchoResult });
}

/** Quiet: the dialog shows 'Report Id: {id} | {message}' itself (spec-core §8). */
export function sendToPacs(request: { reportStatusId: number; pacsId: number }) {
  return apiRequest('/api/forward/send', {
    method: 'POST',
    json: request,
    schema: ZForwardRecord,
    quiet: true,
  });
}

export function resendToPacs(sendId: number) {
  return apiRequest(`/api/forward/${sendId}/resend`, { method: 'POST', schema: ZForwardRecord, quiet: true });
}

export function fetchForwardStatus(reportStatusIds: number[], signal?: AbortSignal) {
  return apiRequest(`/api/forward/status?reportStatusIds=${reportStatusIds.join(',')}`, {
    schema: ZForwardStatusResponse,
    ...(signal ? { signal } : {}),
  });
}

/** The server's own words for a failed call (errorDescription), else the client's text. */
export function errorTextOf(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body as { errorDescription?: unknown } | null;
    if (body && typeof body.errorDescription === 'string') return body.errorDescription;
  }
  return error instanceof Error ? error.message : String(error);
}
