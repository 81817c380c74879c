import {
  type TAddDoctorRateBody,
  type TPayoutPeriodBody,
  type TRecordBillingPaymentBody,
  ZDoctorRate,
  ZDoctorRateList,
  ZMarginReport,
  ZPayoutIssueResult,
  ZPayoutPreview,
  ZPayoutStatementDetail,
  ZPayoutStatementList,
} from '@radflow/core';
import { apiRequest } from '../../api/client';

/** The payout calls (server module tele-payouts). Failures show as the app's snackbar. */

export const payoutKeys = {
  rates: ['tele-payout', 'rates'] as const,
  statements: ['tele-payout', 'statements'] as const,
  statement: (id: number) => ['tele-payout', 'statement', id] as const,
  margin: (from: string, to: string) => ['tele-payout', 'margin', from, to] as const,
};

export const fetchDoctorRates = (signal?: AbortSignal) =>
  apiRequest('/api/tele-payout/rates', { schema: ZDoctorRateList, signal });

export const addDoctorRate = (body: TAddDoctorRateBody) =>
  apiRequest('/api/tele-payout/rates', { json: body, schema: ZDoctorRate });

export const previewPayouts = (body: TPayoutPeriodBody) =>
  apiRequest('/api/tele-payout/preview', { json: body, schema: ZPayoutPreview });

export const issuePayouts = (body: TPayoutPeriodBody) =>
  apiRequest('/api/tele-payout/issue', { json: body, schema: ZPayoutIssueResult });

export const fetchStatements = (signal?: AbortSignal) =>
  apiRequest('/api/tele-payout/statements', { schema: ZPayoutStatementList, signal });

export const fetchStatement = (id: number, signal?: AbortSignal) =>
  apiRequest(`/api/tele-payout/statements/${id}`, { schema: ZPayoutStatementDetail, signal });

export const recordPayoutPayment = (id: number, body: TRecordBillingPaymentBody) =>
  apiRequest(`/api/tele-payout/statements/${id}/payment`, { json: body, schema: ZPayoutStatementDetail });

export const fetchMargin = (from: string, to: string, signal?: AbortSignal) =>
  apiRequest(`/api/tele-payout/margin?from=${from}&to=${to}`, { schema: ZMarginReport, signal });

export const statementPdfUrl = (id: number) => `/api/tele-payout/statements/${id}/pdf`;
