import {
  PAYMENT_ID_PARAM,
  ZBillingDocumentList,
  ZInvoicePayConfirm,
  ZInvoicePayLink,
  ZPlatformInvoiceList,
  type TBillingDocumentList,
  type TInvoicePayConfirm,
  type TInvoicePayLink,
  type TPlatformInvoice,
} from '@radflow/core';
import { apiRequest } from '../../api/client';

/** The payers' invoice calls (server modules/invoice-payments). */

export const CENTER_INVOICES_KEY = ['center-invoices'] as const;
export const GROUP_PLATFORM_INVOICES_KEY = ['group-platform-invoices'] as const;

export const fetchCenterInvoices = (signal?: AbortSignal): Promise<TBillingDocumentList> =>
  apiRequest('/api/center-billing/invoices', { schema: ZBillingDocumentList, signal });

export const payCenterInvoice = (id: number): Promise<TInvoicePayLink> =>
  apiRequest(`/api/center-billing/invoices/${id}/pay`, {
    method: 'POST',
    schema: ZInvoicePayLink,
    quiet: true,
  });

export const centerInvoicePdfUrl = (id: number) => `/api/center-billing/invoices/${id}/pdf`;

export const fetchGroupPlatformInvoices = (signal?: AbortSignal): Promise<{ invoices: TPlatformInvoice[] }> =>
  apiRequest('/api/group-billing/platform-invoices', { schema: ZPlatformInvoiceList, signal });

export const payPlatformInvoice = (id: number): Promise<TInvoicePayLink> =>
  apiRequest(`/api/group-billing/platform-invoices/${id}/pay`, {
    method: 'POST',
    schema: ZInvoicePayLink,
    quiet: true,
  });

export const platformInvoicePdfUrl = (id: number) => `/api/group-billing/platform-invoices/${id}/pdf`;

/** The provider's return: every query parameter (first value each) when `payment-id` is there. */
export function returnParamsOf(search: URLSearchParams): Record<string, string> | null {
  if (!search.get(PAYMENT_ID_PARAM)) return null;
  const params: Record<string, string> = {};
  for (const [k, v] of search.entries()) if (!(k in params)) params[k] = v;
  return params;
}

export const confirmInvoicePayment = (params: Record<string, string>): Promise<TInvoicePayConfirm> =>
  apiRequest('/api/invoice-payments/confirm', { json: params, schema: ZInvoicePayConfirm, quiet: true });
