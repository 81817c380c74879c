import {
  ZAddReportTagResponse,
  ZShareResponse,
  ZStudyAttachmentLists,
  ZStudyHistory,
  ZStudyTimeline,
  ZStudyType,
  ZTagChoicesResponse,
  type TStudyAttachment,
  type TStudyAttachmentKind,
  type TStudyAuditStatus,
  type TStudyHistory,
  type TStudyTimeline,
  type TUpdateStudyDetailsInput,
} from '@radflow/core';
import { apiRequest } from '../../api/client';

/**
 * The study action calls of spec-core §7 "Study actions" (paths and bodies as the spec gives them,
 * under /api). Every call shows its failure through the client's snackbar unless it says `quiet`.
 */

const enc = encodeURIComponent;
const reportStatus = (action: string, id: number) => `/api/report-status/${action}/${id}`;

/** The state actions that are one POST with no body (spec-core §7). */
export const STATE_ACTIONS = ['urgent', 'mark-delete', 'split', 'unlock', 'rework'] as const;
export type TStateAction = (typeof STATE_ACTIONS)[number];

export function runStateAction(action: TStateAction, id: number): Promise<unknown> {
  return apiRequest(reportStatus(action, id), { method: 'POST' });
}

/** GET /history/{id}: the row with its attachment lists and its timeline. */
export function fetchHistory(id: number, signal?: AbortSignal): Promise<TStudyHistory> {
  return apiRequest(`/api/history/${id}`, { schema: ZStudyHistory, signal });
}

export const historyQueryKey = (id: number) => ['study-history', id] as const;

/** GET /attachments/{id}: the three attachment lists alone (the attachments dialog). */
export function fetchAttachments(id: number, signal?: AbortSignal) {
  return apiRequest(`/api/attachments/${id}`, { schema: ZStudyAttachmentLists, signal });
}

export const attachmentsQueryKey = (id: number) => ['study-history', id, 'attachments'] as const;

/** POST /report-status/update-details/{id}. Quiet: a 400 names the field and the form shows it. */
export function updateDetails(id: number, request: TUpdateStudyDetailsInput): Promise<unknown> {
  return apiRequest(reportStatus('update-details', id), { json: request, quiet: true });
}

export function fetchStudyTypes(signal?: AbortSignal) {
  return apiRequest('/api/user/study-type', { schema: ZStudyType.array(), signal });
}

/** POST /tele-pricing/add-study-part {reportStatusId, reportParts}. */
export function addStudyPart(reportStatusId: number, reportParts: string[]): Promise<unknown> {
  return apiRequest('/api/tele-pricing/add-study-part', { json: { reportStatusId, reportParts } });
}

/** The path prefix of each attachment kind's calls (spec-core §7). */
const ATTACHMENT_BASE: Record<TStudyAttachmentKind, string> = {
  HISTORY: '/api/history',
  FILM: '/api/film',
  REPORT: '/api/report-attachment',
};

/** The upload URL of a kind (multipart, one `file` per request). */
export function attachmentUploadPath(kind: TStudyAttachmentKind, id: number): string {
  return `${ATTACHMENT_BASE[kind]}/upload/${id}`;
}

/** The download URL, opened by the browser (spec-core §7: history and film name the file, report does not). */
export function attachmentDownloadPath(
  kind: TStudyAttachmentKind,
  id: number,
  file: Pick<TStudyAttachment, 'path' | 'fileName'>,
): string {
  const base = `${ATTACHMENT_BASE[kind]}/download/${id}/${enc(file.path)}`;
  return kind === 'REPORT' ? base : `${base}/${enc(file.fileName)}`;
}

export function deleteAttachment(kind: TStudyAttachmentKind, id: number, path: string): Promise<unknown> {
  return apiRequest(`${ATTACHMENT_BASE[kind]}/delete/${id}/${enc(path)}`, { method: 'DELETE' });
}

/** POST /report-status/assign {reportId, assignedTo}. */
export function assignDoctor(reportId: number, assignedTo: string | null): Promise<unknown> {
  return apiRequest('/api/report-status/assign', { json: { reportId, assignedTo } });
}

/** POST /report-status/assign-multi {reportId (list), assignedTo}. */
export function assignDoctorMulti(reportIds: number[], assignedTo: string | null): Promise<unknown> {
  return apiRequest('/api/report-status/assign-multi', { json: { reportId: reportIds, assignedTo } });
}

/** POST /report-status/auditor-assign {reportStatusId, auditorEmail}. */
export function assignAuditor(reportStatusId: number, auditorEmail: string | null): Promise<unknown> {
  return apiRequest('/api/report-status/auditor-assign', { json: { reportStatusId, auditorEmail } });
}

/** POST /report-status/audit-status/{id} {status}: the audit approve/reject switch. */
export function setAuditStatus(id: number, status: TStudyAuditStatus): Promise<unknown> {
  return apiRequest(reportStatus('audit-status', id), { json: { status } });
}

/** POST /report-status/save {studyId, reportStatusId, referringDoctorEmail}. */
export function saveReferringDoctor(
  studyId: number | null,
  reportStatusId: number,
  referringDoctorEmail: string,
): Promise<unknown> {
  return apiRequest('/api/report-status/save', { json: { studyId, reportStatusId, referringDoctorEmail } });
}

/** POST /report-status/send-message/{id} {number, referringPhysician}. */
export function sendMessage(id: number, number: string, referringPhysician: string) {
  return apiRequest(reportStatus('send-message', id), {
    json: { number, referringPhysician },
    schema: ZShareResponse,
  });
}

/** POST /report-status/send-email/{id} {email}. */
export function sendEmail(id: number, email: string) {
  return apiRequest(reportStatus('send-email', id), { json: { email }, schema: ZShareResponse });
}

/** POST /report-tag/add-tags {reportStatusId, tag, globalTag}; answers the new id. */
export function addTag(reportStatusId: number, tag: string, globalTag: boolean) {
  return apiRequest('/api/report-tag/add-tags', {
    json: { reportStatusId, tag, globalTag },
    schema: ZAddReportTagResponse,
  });
}

/** GET /report-tag/choices: the group's global tags and the caller's local ones. */
export function fetchTagChoices(signal?: AbortSignal) {
  return apiRequest('/api/report-tag/choices', { schema: ZTagChoicesResponse, signal });
}

/** DELETE /report-tag/delete {id}. */
export function deleteTag(id: number): Promise<unknown> {
  return apiRequest('/api/report-tag/delete', { method: 'DELETE', json: { id } });
}

/** POST /report-tag/update {id, globalTag}. */
export function updateTag(id: number, globalTag: boolean): Promise<unknown> {
  return apiRequest('/api/report-tag/update', { json: { id, globalTag } });
}

/** GET /report-status/timeline/{id}: who did what, when, from which status, oldest first. */
export function fetchStudyTimeline(id: number, signal?: AbortSignal): Promise<TStudyTimeline> {
  return apiRequest(`/api/report-status/timeline/${id}`, { schema: ZStudyTimeline, signal });
}
