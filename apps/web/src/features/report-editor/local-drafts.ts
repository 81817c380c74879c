import { ZReportDraft, type TReportDraft } from '@radflow/core';

/*
 * The device copy of a draft (issue 7 §1 "nothing typed is ever lost to a reload"): written on every
 * change, before the server hears of it; keyed by row and user so two people on one computer never
 * see each other's text.
 */

export const localDraftKey = (reportStatusId: number, userEmail: string) =>
  `radflow.report-draft.${reportStatusId}.${userEmail.toLowerCase()}`;

export function readLocalDraft(reportStatusId: number, userEmail: string): TReportDraft | null {
  try {
    const raw = window.localStorage.getItem(localDraftKey(reportStatusId, userEmail));
    if (!raw) return null;
    const parsed = ZReportDraft.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Keeps the copy; false when the browser refused (storage full or disabled). */
export function writeLocalDraft(reportStatusId: number, userEmail: string, draft: TReportDraft): boolean {
  try {
    window.localStorage.setItem(localDraftKey(reportStatusId, userEmail), JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

export function clearLocalDraft(reportStatusId: number, userEmail: string): void {
  try {
    window.localStorage.removeItem(localDraftKey(reportStatusId, userEmail));
  } catch {
    // Nothing kept, nothing to clear.
  }
}
