import { eq } from 'drizzle-orm';
import {
  type TReportLockRequest,
  checkReportHolder,
  checkReportWriter,
  reportingActorOf,
  statusAfterLock,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { reportStatuses } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { withLockedStudy } from '../studies/locked-study.js';
import { doctorOfCaller, throwIfRefused } from './report-writes.js';

/**
 * POST /report/lock/{id}: open the study to report it (issue 7 §2). CREATED/HISTORY_CREATED become
 * LOCKED for the doctor (the caller, or the doctor a typist names); opening it again as its holder
 * changes nothing.
 */
export async function lockForReport(
  ctx: AppContext,
  auth: TAuth,
  id: number,
  body: TReportLockRequest,
): Promise<void> {
  const actor = reportingActorOf(auth.roles, { awaitingVerification: false });
  // Who may never open a study to report is told so before the row is looked up (403, not 404).
  throwIfRefused(checkReportWriter(auth.roles, actor));
  await withLockedStudy(ctx, auth, id, async ({ tx, row, now }) => {
    const r = row.report;
    const doctor = await doctorOfCaller(tx, auth, actor as 'DOCTOR' | 'TYPIST', body.doctorEmail);
    throwIfRefused(checkReportHolder({ doctorUserId: doctor.id, row: r }));
    const status = statusAfterLock(r.status);
    if (r.lockedByUserId === doctor.id && status === r.status) return;
    await tx
      .update(reportStatuses)
      .set({ status, lockedByUserId: doctor.id, updatedAt: now })
      .where(eq(reportStatuses.id, id));
    await recordStudyEvent(tx, {
      reportStatusId: id,
      type: 'REPORT_LOCKED',
      actor: { userId: auth.user.id },
      fromStatus: r.status,
      toStatus: status,
      payload: { doctor: doctor.email },
    });
  });
}
