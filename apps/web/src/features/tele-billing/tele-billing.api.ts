import {
  ZBillingDocumentDetail,
  ZBillingDocumentList,
  ZCopyDefaultPricesResult,
  ZEmailInvoiceResult,
  ZInvoicePreview,
  ZTelePrice,
  ZTelePriceList,
  type TAddTelePriceBody,
  type TBillingDocumentDetail,
  type TBillingDocumentList,
  type TCreditNoteBody,
  type TInvoicePreview,
  type TRecordBillingPaymentBody,
  type TTeleInvoiceRequest,
  type TTelePrice,
  type TTelePriceList,
} from '@radflow/core';
import { ApiError, apiRequest } from '../../api/client';

/** Manage Tele Pricing and Manage Tele Invoice calls (issue 26 §1; server modules/tele-billing). */

export const TELE_PRICES_KEY = ['tele-prices'] as const;
export const TELE_INVOICES_KEY = ['tele-invoices'] as const;

export function fetchTelePrices(centerId: number | null, signal?: AbortSignal): Promise<TTelePriceList> {
  const query = centerId === null ? '' : `?centerId=${centerId}`;
  return apiRequest(`/api/tele-pricing/prices${query}`, { schema: ZTelePriceList, signal });
}

export function addTelePrice(body: TAddTelePriceBody): Promise<TTelePrice> {
  return apiRequest('/api/tele-pricing/prices', { json: body, schema: ZTelePrice, quiet: true });
}

export function copyDefaultPrices(centerId: number, effectiveFrom: string): Promise<{ copied: number }> {
  return apiRequest('/api/tele-pricing/prices/copy-default', {
    json: { centerId, effectiveFrom },
    schema: ZCopyDefaultPricesResult,
    quiet: true,
  });
}

export function previewInvoice(body: TTeleInvoiceRequest): Promise<TInvoicePreview> {
  return apiRequest('/api/tele-invoices/preview', { json: body, schema: ZInvoicePreview, quiet: true });
}

export function issueInvoice(body: TTeleInvoiceRequest): Promise<TBillingDocumentDetail> {
  return apiRequest('/api/tele-invoices', { json: body, schema: ZBillingDocumentDetail, quiet: true });
}

export function invoiceMonth(month: string): Promise<TBillingDocumentList> {
  return apiRequest('/api/tele-invoices/month', {
    json: { month },
    schema: ZBillingDocumentList,
    quiet: true,
  });
}

export function fetchInvoices(
  filter: { centerId?: number; status?: string; from?: string; to?: string },
  signal?: AbortSignal,
): Promise<TBillingDocumentList> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== undefined && v !== '') q.set(k, String(v));
  const text = q.toString();
  return apiRequest(`/api/tele-invoices${text ? `?${text}` : ''}`, { schema: ZBillingDocumentList, signal });
}

export function fetchInvoice(id: number, signal?: AbortSignal): Promise<TBillingDocumentDetail> {
  return apiRequest(`/api/tele-invoices/${id}`, { schema: ZBillingDocumentDetail, signal });
}

export function recordPayment(
  id: number,
  body: TRecordBillingPaymentBody,
  idempotencyKey: string,
): Promise<TBillingDocumentDetail> {
  return apiRequest(`/api/tele-invoices/${id}/payments`, {
    json: body,
    schema: ZBillingDocumentDetail,
    quiet: true,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function addCreditNote(id: number, body: TCreditNoteBody): Promise<TBillingDocumentDetail> {
  return apiRequest(`/api/tele-invoices/${id}/credit-notes`, {
    json: body,
    schema: ZBillingDocumentDetail,
    quiet: true,
  });
}

export function emailInvoice(id: number): Promise<{ sentTo: string }> {
  return apiRequest(`/api/tele-invoices/${id}/email`, {
    method: 'POST',
    schema: ZEmailInvoiceResult,
    quiet: true,
  });
}

export const invoicePdfUrl = (id: number) => `/api/tele-invoices/${id}/pdf`;

/** The server's reason for a failed call (its errorDescription), else the error's text. */
export function failureText(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body as { errorDescription?: unknown } | null;
    if (body && typeof body.errorDescription === 'string' && body.errorDescription !== '')
      return body.errorDescription;
    if (error.failure.kind === 'message') return error.failure.text;
  }
  return error instanceof Error ? error.message : String(error);
}

/** ₹1,234.50 from a rupee number of the wire (core formatRupees over paise). */
export { formatRupees } from '@radflow/core';
