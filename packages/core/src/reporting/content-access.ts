import type { TStudyAttachmentKind } from '../studies/study-files.js';
import type { TRole } from '../identity/roles.js';
import type { TReportStatus } from '../worklist/statuses.js';
import { isReportWriter } from './documents.js';
import { isReportReadOnly } from './rules.js';

/*
 * What of a report and of a study's working papers a caller reads (security issue §1: the patient, the
 * share viewer and the referring doctor read the preliminary text and every version through
 * GET /api/report/{id} while the PDF and the share page withheld it). One place for every call that
 * answers report content or history (report get, study detail and history, timeline, attachments,
 * audio notes); the browser hides the same things with it. Two questions:
 *
 * - The report before sign-off, and its versions: only those who write, type or verify it (core
 *   `isReportWriter`: doctor, typist, verifier — the same rule that gives them a preliminary PDF).
 *   Everyone else who sees the row — staff and read-only roles alike — reads what leaves the
 *   center, as the share page and the PDF show it: the signed-off report with its addenda.
 * - The study's working papers (timeline with the staff's steps, clinical history attachments, audio
 *   notes): every role that works on the study (spec-core §6 gives centers the history attachments
 *   and centers and assignors the timeline), not the read-only roles of spec-core §5 ("referring
 *   doctor, auditor, customer, viewer, lab supervisor, lab receptionist"), whom the spec gives none.
 */

/** Whether the caller reads a report before sign-off and its saved versions (writers only). */
export function readsUnsignedReports(roles: readonly TRole[]): boolean {
  return isReportWriter(roles);
}

/** Whether the caller reads the study's working papers: timeline, history attachments, audio notes. */
export function readsReportWork(roles: readonly TRole[]): boolean {
  return !isReportReadOnly(roles);
}

/** The facts of a report the rule reads. */
interface TReportFacts {
  awaitingVerification: boolean;
  signature: unknown;
}

/**
 * Whether a report has left the center: the row is SIGNED_OFF and the report itself is signed (not
 * waiting for a verifier). The share page, the share e-mail and every reader but the writers use this.
 */
export function isPublishedReport(status: TReportStatus, report: TReportFacts): boolean {
  return status === 'SIGNED_OFF' && report.signature !== null && !report.awaitingVerification;
}

/**
 * The reports of a row as the caller reads them: everything, with versions, for the writers; for
 * everyone else only the published ones (main report and addenda), without their versions (who
 * saved what when is the writers' working record).
 */
export function reportsForReader<TReport extends TReportFacts & { versions?: readonly unknown[] }>(
  roles: readonly TRole[],
  status: TReportStatus,
  reports: readonly TReport[],
): TReport[] {
  if (readsUnsignedReports(roles)) return [...reports];
  return reports
    .filter((r) => isPublishedReport(status, r))
    .map((r) => (r.versions === undefined ? r : { ...r, versions: [] }));
}

/**
 * Which attachment kinds of a row the caller lists and downloads. The read-only roles get the films
 * (the images they were given) and the report attachments once the report is signed off; the
 * clinical history papers stay with the staff (spec-core §6 gives history attachments to centers).
 */
export function readableAttachmentKinds(
  roles: readonly TRole[],
  status: TReportStatus,
): readonly TStudyAttachmentKind[] {
  if (readsReportWork(roles)) return ['HISTORY', 'FILM', 'REPORT'];
  return status === 'SIGNED_OFF' ? ['FILM', 'REPORT'] : ['FILM'];
}
