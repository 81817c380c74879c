import {
  ZReportDraft,
  ZReportSaveResponse,
  ZReportsResponse,
  ZStudyDetail,
  formatErrorMessage,
  type TReportDraft,
  type TReportDraftRequest,
  type TReportSaveResponse,
  type TReportsResponse,
  type TStudyDetail,
} from '@radflow/core';
import { ApiError, NETWORK_ERROR_MESSAGE, apiRequest } from '../../api/client';
import { uploadSettingAsset } from '../settings/asset-upload-api';

/*
 * The reporting calls the editor uses (apps/server/src/modules/reporting/DECISIONS.md). Every call is
 * quiet: a refusal such as 'Study is locked by someone else' is a 403 the editor shows in place (the
 * client would otherwise treat a 403 as "please login again").
 */

export const studyRowQueryKey = (id: number) => ['report-editor', 'row', id] as const;
export const reportsQueryKey = (id: number) => ['report-editor', 'reports', id] as const;

export function fetchStudyRow(id: number, signal?: AbortSignal): Promise<TStudyDetail> {
  return apiRequest(`/api/report-status/id/${id}`, { schema: ZStudyDetail, quiet: true, signal });
}

export function fetchReports(id: number, signal?: AbortSignal): Promise<TReportsResponse> {
  return apiRequest(`/api/report/${id}`, { schema: ZReportsResponse, quiet: true, signal });
}

/** POST /report/lock/{id}: opens the study to report (a typist names the doctor). */
export function lockReport(id: number, doctorEmail: string | null): Promise<TStudyDetail> {
  return apiRequest(`/api/report/lock/${id}`, {
    method: 'POST',
    json: doctorEmail ? { doctorEmail } : {},
    schema: ZStudyDetail,
    quiet: true,
  });
}

/** POST /report/save/{id}; `baseVersion` is the saved version the text started from (null: none). */
export function saveReport(
  id: number,
  body: { name: string; content: string; signOff: boolean; baseVersion: number | null; doctorEmail?: string },
): Promise<TReportSaveResponse> {
  return apiRequest(`/api/report/save/${id}`, { json: body, schema: ZReportSaveResponse, quiet: true });
}

export function addAddendum(
  id: number,
  body: { name: string; content: string },
): Promise<TReportSaveResponse> {
  return apiRequest(`/api/report/addendum/${id}`, { json: body, schema: ZReportSaveResponse, quiet: true });
}

export function fetchDraft(id: number, signal?: AbortSignal): Promise<TReportDraft | null> {
  return apiRequest(`/api/report/draft/${id}`, { schema: ZReportDraft.nullable(), quiet: true, signal });
}

export function putDraft(id: number, body: TReportDraftRequest): Promise<TReportDraft> {
  return apiRequest(`/api/report/draft/${id}`, {
    method: 'PUT',
    json: body,
    schema: ZReportDraft,
    quiet: true,
  });
}

export function deleteDraft(id: number): Promise<unknown> {
  return apiRequest(`/api/report/draft/${id}`, { method: 'DELETE', quiet: true });
}

/** A key image for the report: the PNG uploaded as REPORT_IMAGE; answers its address. */
export async function uploadReportImage(png: Blob): Promise<string> {
  const file = new File([png], 'key-image.png', { type: 'image/png' });
  return (await uploadSettingAsset(file, 'REPORT_IMAGE')).publicS3ImageUrl;
}

/**
 * The text to show for a failed call: the server's own sentence (403s included, e.g. 'Study is locked
 * by someone else'), or the network one.
 */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return NETWORK_ERROR_MESSAGE;
    const description = (error.body as { errorDescription?: unknown } | null)?.errorDescription;
    if (typeof description === 'string' && description) return description;
    return formatErrorMessage(error.body);
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The server refused a save as stale (issue 21 §7): someone saved after this text was opened. The
 * 409 names `baseVersion` (core checkBaseVersion); other 409s (not opened, signed off) are errors.
 */
export function isStaleSave(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 409 &&
    (error.body as { additionalInfo?: unknown } | null)?.additionalInfo === 'baseVersion'
  );
}

/** No answer at all (offline, server unreachable): worth retrying later. */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0;
}
