import type { TStudyAttachmentKind } from '../schemas/study-files.js';
import type { TRole } from '../roles.js';
import type { TReportStatus } from '../worklist/statuses.js';
import { isReportReadOnly } from './rules.js';

/*
 * What of a report and of a study's working papers a caller reads (security issue: the patient, the
 * share viewer and the referring doctor read the preliminary text and every version through
 * GET /api/report/{id} while the PDF and the share page withheld it). One rule for every call that
 * answers report content or history (report get, study detail and history, timeline, attachments,
 * audio notes); the browser hides the same things with it.
 *
 * Who: the read-only roles of spec-core §5 ("referring doctor, auditor, customer, viewer, lab
 * supervisor, lab receptionist": they read reports but never write, type or verify them) read what
 * leaves the center — the signed-off report with its addenda, like the share page — and nothing of
 * how it was made. Every other role that sees the row takes part in the work on it (writes, types,
 * verifies, edits as a center, assigns, bills, administers) and reads it all, as before.
 */

/** Whether the caller reads a report before sign-off, its versions, and the study's working papers. */
export function readsReportWork(roles: readonly TRole[]): boolean {
  return !isReportReadOnly(roles);
}

/** The facts of a report the rule reads. */
interface TReportFacts {
  isAddendum: boolean;
  awaitingVerification: boolean;
  signature: unknown;
}

/**
 * Whether a report has left the center: the row is SIGNED_OFF and the report itself is signed (not
 * waiting for a verifier). The share page, the share e-mail and the read-only readers use this.
 */
export function isPublishedReport(status: TReportStatus, report: TReportFacts): boolean {
  return status === 'SIGNED_OFF' && report.signature !== null && !report.awaitingVerification;
}

/**
 * The reports of a row as the caller reads them: everything for those who work on the report; for
 * the read-only roles only the published ones (main report and addenda), without their versions
 * (who saved what when is the center's working record).
 */
export function reportsForReader<TReport extends TReportFacts & { versions?: readonly unknown[] }>(
  roles: readonly TRole[],
  status: TReportStatus,
  reports: readonly TReport[],
): TReport[] {
  if (readsReportWork(roles)) return [...reports];
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
