import { ZReportDraft, type TReportDraft } from '@radflow/core';

/*
 * The device copy of a draft (issue 7 §1 "nothing typed is ever lost to a reload"): written on every
 * change, before the server hears of it; keyed by row and user so two people on one computer never
 * see each other's text. The router's offline report dialog keeps its copies the same way, keyed by
 * router, study and user (issue 27 §4: the offline editor has no cloud row to key them by).
 */

export const localDraftKey = (reportStatusId: number, userEmail: string) =>
  `radflow.report-draft.${reportStatusId}.${userEmail.toLowerCase()}`;

/** `baseVersion` of an offline draft is the router's local version the text started from. */
export const offlineDraftKey = (routerUrl: string, studyInstanceUid: string, userEmail: string) =>
  `radflow.offline-report-draft.${routerUrl}.${studyInstanceUid}.${userEmail.toLowerCase()}`;

export function readDraftAt(key: string): TReportDraft | null {
  try {
    const raw = window.localStorage.getItem(key);
    if (!raw) return null;
    const parsed = ZReportDraft.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Keeps the copy; false when the browser refused (storage full or disabled). */
export function writeDraftAt(key: string, draft: TReportDraft): boolean {
  try {
    window.localStorage.setItem(key, JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

export function clearDraftAt(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing kept, nothing to clear.
  }
}

export const readLocalDraft = (reportStatusId: number, userEmail: string) =>
  readDraftAt(localDraftKey(reportStatusId, userEmail));

export const writeLocalDraft = (reportStatusId: number, userEmail: string, draft: TReportDraft) =>
  writeDraftAt(localDraftKey(reportStatusId, userEmail), draft);

export const clearLocalDraft = (reportStatusId: number, userEmail: string) =>
  clearDraftAt(localDraftKey(reportStatusId, userEmail));
