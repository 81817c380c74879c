import {
  ZBill,
  ZBillListPage,
  ZSlotCounts,
  type TBill,
  type TBillCancel,
  type TBillCreate,
  type TBillListPage,
  type TBillSearch,
  type TBillTransactionUpdate,
  type TBillUpdate,
  type TSlotCounts,
} from '@radflow/core';
import { apiRequest } from '../../api/client';

/**
 * The bill calls of spec-lab §7 Lab (the server's modules/lab-bills). Writes that a double-click could
 * repeat (create, add payment) carry an Idempotency-Key header: the server answers a repeat of the
 * same key with the first answer, so one bill or one payment is recorded (idempotency.ts there).
 * Every write is `quiet`: the screens show a refusal in place (a 409 keeps the user's input).
 */

export const BILL_QUERY_KEY = (id: number) => ['lab', 'bill', id] as const;
export const BILL_LIST_QUERY_KEY = ['lab', 'bill-search'] as const;

export function fetchBill(id: number, signal?: AbortSignal): Promise<TBill> {
  return apiRequest(`/api/lab/bill/get/${id}`, { schema: ZBill, signal });
}

export function createBill(body: TBillCreate, idempotencyKey: string): Promise<TBill> {
  return apiRequest('/api/lab/bill', {
    method: 'POST',
    json: body,
    schema: ZBill,
    quiet: true,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function updateBill(body: TBillUpdate): Promise<TBill> {
  return apiRequest('/api/lab/bill', { method: 'PUT', json: body, schema: ZBill, quiet: true });
}

export function addTransactions(body: TBillTransactionUpdate, idempotencyKey: string): Promise<TBill> {
  return apiRequest('/api/lab/bill/update-transaction', {
    method: 'PUT',
    json: body,
    schema: ZBill,
    quiet: true,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function cancelBill(body: TBillCancel): Promise<TBill> {
  return apiRequest('/api/lab/cancel-status', { method: 'PUT', json: body, schema: ZBill, quiet: true });
}

export async function undoCancelBill(id: number): Promise<void> {
  await apiRequest('/api/lab/undo-cancel-status', { method: 'PUT', json: { id }, quiet: true });
}

export function searchBills(body: Partial<TBillSearch>, signal?: AbortSignal): Promise<TBillListPage> {
  return apiRequest('/api/lab/bill/search', { json: body, schema: ZBillListPage, signal });
}

export function fetchSlotCounts(body: {
  appointmentName: string;
  startTime: string;
  endTime: string;
}): Promise<TSlotCounts> {
  return apiRequest('/api/lab/get-slot', { json: body, schema: ZSlotCounts, quiet: true });
}
