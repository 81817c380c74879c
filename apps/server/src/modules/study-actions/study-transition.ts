import { AppError, REPORT_STATUSES, type TReportStatus, type TStudyEventType } from '@radflow/core';
import type { Tx } from '../../db/client.js';
import { studyEvents } from '../../db/schema.js';
import { MESSAGE_NOT_ALLOWED } from '../../plugins/auth.js';

/*
 * The rule checks and timeline rows of a study action; they run inside the locked-row unit of work
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

/** One timeline row, written in the caller's transaction. */
export async function recordStudyEvent(
  tx: Tx,
  event: {
    reportStatusId: number;
    eventType: TStudyEventType;
    actorUserId: number;
    fromStatus: TReportStatus;
    toStatus: TReportStatus;
    detail?: Record<string, unknown>;
  },
): Promise<void> {
  await tx.insert(studyEvents).values({ ...event, detail: event.detail ?? null });
}
