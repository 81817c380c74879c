import { AppError, REPORT_STATUSES, type TReportStatus } from '@radflow/core';
import { MESSAGE_NOT_ALLOWED } from '../../plugins/auth.js';

/*
 * The rule checks of a study action (its timeline rows: ../study-events); they run inside the locked-row unit of work
 * (`withLockedStudy`, ../studies/locked-study.ts).
 */

/**
 * Applies a core rule to the locked row's status: allowed → nothing; allowed on some other status →
 * 409 naming the current status (the row moved on, or the caller's screen is stale); allowed on no
 * status (the role or a group switch forbids it) → 403.
 */
export function guardStudyAction(
  action: string,
  status: TReportStatus,
  isAllowedOn: (status: TReportStatus) => boolean,
): void {
  if (isAllowedOn(status)) return;
  if (REPORT_STATUSES.some(isAllowedOn)) throw studyStatusConflict(action, status);
  throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED, action);
}

/** 409 naming the status the study is in. */
export function studyStatusConflict(action: string, status: TReportStatus, id?: number): AppError {
  const study = id === undefined ? 'the study' : `study ${id}`;
  return new AppError('CONFLICT', `Cannot ${action}: ${study} is ${status}`, 'status');
}
