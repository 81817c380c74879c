import { eq, inArray } from 'drizzle-orm';
import {
  AppError,
  type TStudyAuditStatus,
  canAssign,
  canAssignAuditor,
  canAssignMulti,
  canSetAuditStatus,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { type TReportStatusRow, reportStatuses } from '../../db/schema.js';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';
import { findActiveGroupUser } from './study-actions.repository.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { withLockedStudies, withLockedStudy } from '../studies/locked-study.js';
import { guardStudyAction, studyStatusConflict } from './study-transition.js';

/*
 * Assignment calls of spec-core §7: assign, assign-multi, auditor-assign, and the audit
 * approve/reject switch. Rules in core (canAssign, canAssignMulti, canAssignAuditor,
 * canSetAuditStatus); each change and its timeline row in one transaction.
 */

type TUserRef = { id: number; email: string };

/** The doctor named by e-mail: an active ROLE_DOCTOR user of the caller's group, else 400. */
async function doctorOf(db: DbOrTx, auth: TAuth, email: string | null): Promise<TUserRef | null> {
  if (email === null) return null;
  const doctor = await findActiveGroupUser(db, auth.user.groupId, email, 'ROLE_DOCTOR');
  if (!doctor) throw new AppError('BAD_REQUEST', `No active doctor ${email} in your group`, 'assignedTo');
  return doctor;
}

/** POST /report-status/assign: assign one study to a doctor, or unassign it (assignedTo empty). */
export async function assignStudy(
  ctx: AppContext,
  auth: TAuth,
  input: { reportId: number; assignedTo: string | null },
): Promise<void> {
  await withLockedStudy(ctx, auth, input.reportId, async ({ tx, row, now }) => {
    const { status } = row.report;
    guardStudyAction('assign', status, (s) =>
      canAssign({ roles: auth.roles, flags: {}, row: { status: s } }),
    );
    const doctor = await doctorOf(tx, auth, input.assignedTo);
    await setAssignee(tx, auth, [row.report], doctor, now);
  });
}

/**
 * POST /report-status/assign-multi (spec-core §6 ROLE_ASSIGNOR only): every row or none. All rows
 * are locked first, in id order; one row the caller may not see is 404, one in a status that may not
 * be assigned is 409 naming it, and nothing changes.
 */
export async function assignStudies(
  ctx: AppContext,
  auth: TAuth,
  input: { reportId: readonly number[]; assignedTo: string | null },
): Promise<number[]> {
  if (!canAssignMulti({ roles: auth.roles }))
    throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED, 'assign-multi');
  await withLockedStudies(ctx, auth, input.reportId, async ({ tx, rows, now }) => {
    for (const { report } of rows) {
      if (!canAssign({ roles: auth.roles, flags: {}, row: report })) {
        throw studyStatusConflict('assign', report.status, report.id);
      }
    }
    const doctor = await doctorOf(tx, auth, input.assignedTo);
    await setAssignee(
      tx,
      auth,
      rows.map((r) => r.report),
      doctor,
      now,
    );
  });
  return [...new Set(input.reportId)];
}

async function setAssignee(
  tx: Tx,
  auth: TAuth,
  rows: ReadonlyArray<Pick<TReportStatusRow, 'id' | 'status' | 'assignedToUserId'>>,
  doctor: TUserRef | null,
  now: Date,
): Promise<void> {
  await tx
    .update(reportStatuses)
    .set({ assignedToUserId: doctor?.id ?? null, assignedAt: doctor ? now : null, updatedAt: now })
    .where(
      inArray(
        reportStatuses.id,
        rows.map((r) => r.id),
      ),
    );
  for (const row of rows) {
    await recordStudyEvent(tx, {
      reportStatusId: row.id,
      type: doctor ? 'ASSIGNED' : 'UNASSIGNED',
      actor: { userId: auth.user.id },
      fromStatus: row.status,
      toStatus: row.status,
      payload: { assignedTo: doctor?.email ?? null, previousAssignedToUserId: row.assignedToUserId },
    });
  }
}

/**
 * POST /report-status/auditor-assign: an active ROLE_AUDITOR user of the group reviews the
 * signed-off report (empty auditorEmail removes the auditor). A new auditor starts without a verdict.
 */
export async function assignAuditor(
  ctx: AppContext,
  auth: TAuth,
  input: { reportStatusId: number; auditorEmail: string | null },
): Promise<void> {
  await withLockedStudy(ctx, auth, input.reportStatusId, async ({ tx, row, flags, now }) => {
    const { status } = row.report;
    guardStudyAction('assign an auditor', status, (s) =>
      canAssignAuditor({ roles: auth.roles, flags, row: { status: s } }),
    );
    let auditor: TUserRef | null = null;
    if (input.auditorEmail !== null) {
      auditor = await findActiveGroupUser(tx, auth.user.groupId, input.auditorEmail, 'ROLE_AUDITOR');
      if (!auditor) {
        throw new AppError(
          'BAD_REQUEST',
          `No active auditor ${input.auditorEmail} in your group`,
          'auditorEmail',
        );
      }
    }
    await tx
      .update(reportStatuses)
      .set({ auditorUserId: auditor?.id ?? null, auditStatus: null, updatedAt: now })
      .where(eq(reportStatuses.id, row.report.id));
    await recordStudyEvent(tx, {
      reportStatusId: row.report.id,
      type: auditor ? 'AUDITOR_ASSIGNED' : 'AUDITOR_UNASSIGNED',
      actor: { userId: auth.user.id },
      fromStatus: status,
      toStatus: status,
      payload: { auditor: auditor?.email ?? null },
    });
  });
}

/**
 * POST /report-status/audit-status/{id}: the audit approve/reject switch, by the study's assigned
 * auditor only (core canSetAuditStatus). Another user who may see the row gets 403.
 */
export async function setAuditStatus(
  ctx: AppContext,
  auth: TAuth,
  id: number,
  verdict: TStudyAuditStatus,
): Promise<void> {
  await withLockedStudy(ctx, auth, id, async ({ tx, row, now }) => {
    const { status, auditorUserId } = row.report;
    const isAssignedAuditor = auditorUserId === auth.user.id;
    guardStudyAction('set the audit status', status, (s) =>
      canSetAuditStatus({ roles: auth.roles, row: { status: s }, isAssignedAuditor }),
    );
    if (row.report.auditStatus === verdict) return;
    await tx
      .update(reportStatuses)
      .set({ auditStatus: verdict, updatedAt: now })
      .where(eq(reportStatuses.id, id));
    await recordStudyEvent(tx, {
      reportStatusId: id,
      type: verdict === 'APPROVED' ? 'AUDIT_APPROVED' : 'AUDIT_REJECTED',
      actor: { userId: auth.user.id },
      fromStatus: status,
      toStatus: status,
      payload: { previous: row.report.auditStatus },
    });
  });
}
