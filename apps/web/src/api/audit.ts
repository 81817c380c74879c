import {
  ZAuditPage,
  ZAuditRow,
  ZLoginLogPage,
  type TAuditRow,
  type TUpdateApprovalRequest,
} from '@radflow/core';
import { apiRequest } from './client';

/** Login audit calls (spec-core §4 Audit approval, §7 POST /user/audit/...). */

export type TLoginAuditStatus = TAuditRow['status'];

export interface TAuditSearch {
  page: number;
  size: number;
  filters: { email?: string; status?: TLoginAuditStatus; deviceId?: string };
}

function toRequest({ page, size, filters }: TAuditSearch, orderingCriteria: string) {
  const cleaned = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== ''));
  return { page, size, sortOrder: 'DESC', orderingCriteria, filters: cleaned };
}

export function searchAuditDevices(search: TAuditSearch, signal?: AbortSignal) {
  return apiRequest('/api/user/audit/search', {
    json: toRequest(search, 'lastSeenAt'),
    schema: ZAuditPage,
    signal,
  });
}

export function searchSignInLog(search: TAuditSearch, signal?: AbortSignal) {
  return apiRequest('/api/user/audit/search-logs', {
    json: toRequest(search, 'createdAt'),
    schema: ZLoginLogPage,
    signal,
  });
}

export function updateApprovalStatus(request: TUpdateApprovalRequest): Promise<TAuditRow> {
  return apiRequest('/api/user/audit/update-approval-status', { json: request, schema: ZAuditRow });
}
