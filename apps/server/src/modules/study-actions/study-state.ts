import { eq } from 'drizzle-orm';
import {
  AppError,
  type TReportStatus,
  canMarkDeleted,
  canMarkUrgent,
  canRework,
  canSplit,
  canUnlock,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { reportStatuses } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { deleteReportsOfRow } from '../reporting/reporting.repository.js';
import { removeReportSearchText } from '../reporting/report-search-text.js';
import { hasSplitChildOf } from './study-actions.repository.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { withLockedStudy } from '../studies/locked-study.js';
import { guardStudyAction } from './study-transition.js';

/*
 * The row actions of spec-core §4 "Actions offered" that change a study's state: urgent, mark
 * deleted, split, unlock and rework. Each checks its core rule under the row lock (study-transition.ts)
 * and writes the change and its timeline row in one transaction. Decisions: DECISIONS.md.
 */

/**
 * The status a study returns to when it is unlocked or reworked: sent for reporting and waiting for
 * a doctor (the doctor's Pending tab), with no lock held.
 */
export const REOPENED_STATUS: TReportStatus = 'HISTORY_CREATED';

/** POST /report-status/urgent/{id}: toggles the urgent mark. */
export async function toggleUrgent(ctx: AppContext, auth: TAuth, id: number): Promise<void> {
  await withLockedStudy(ctx, auth, id, async ({ tx, row, now }) => {
    const { status, urgent, centerId } = row.report;
    guardStudyAction('mark urgent', status, (s) =>
      canMarkUrgent({
        roles: auth.roles,
        flags: {},
        row: { status: s, centerId },
        userCenterId: auth.user.centerId,
      }),
    );
    await tx.update(reportStatuses).set({ urgent: !urgent, updatedAt: now }).where(eq(reportStatuses.id, id));
    await recordStudyEvent(tx, {
      reportStatusId: id,
      type: urgent ? 'URGENT_UNMARKED' : 'URGENT_MARKED',
      actor: { userId: auth.user.id },
      fromStatus: status,
      toStatus: status,
      payload: null,
    });
  });
}

/** POST /report-status/mark-delete/{id}: irreversible (no call moves a study out of DELETED). */
export async function markDeleted(ctx: AppContext, auth: TAuth, id: number): Promise<void> {
  await withLockedStudy(ctx, auth, id, async ({ tx, row, flags, now }) => {
    const { status, centerId } = row.report;
    guardStudyAction('mark deleted', status, (s) =>
      canMarkDeleted({
        roles: auth.roles,
        flags: {},
        row: { status: s, centerId },
        userCenterId: auth.user.centerId,
        // spec-core §4's hide-deleted setting is the group switch hideDeletedStudies (ours).
        hideDeletedSetting: flags.hideDeletedStudies,
      }),
    );
    await tx
      .update(reportStatuses)
      .set({ status: 'DELETED', deletedAt: now, updatedAt: now })
      .where(eq(reportStatuses.id, id));
    // A deleted study's report is no longer found by the report search (its text goes with it).
    await removeReportSearchText(tx, id);
    await recordStudyEvent(tx, {
      reportStatusId: id,
      type: 'DELETED',
      actor: { userId: auth.user.id },
      fromStatus: status,
      toStatus: 'DELETED',
      payload: null,
    });
  });
}

/**
 * POST /report-status/split/{id}: a new report row for the same archive study (status CREATED,
 * splitFromReportStatusId = the parent), with the parent's patient and order fields. Answers the new
 * row's id. The parent's lock makes a second split of the same study wait and then see the first.
 */
export async function splitStudy(ctx: AppContext, auth: TAuth, id: number): Promise<number> {
  return withLockedStudy(ctx, auth, id, async ({ tx, row, flags }) => {
    const parent = row.report;
    const now = ctx.now();
    guardStudyAction('split', parent.status, (s) =>
      canSplit({
        roles: auth.roles,
        flags,
        row: { status: s, centerId: parent.centerId, splitFromReportStatusId: null, hasSplitChild: false },
        userCenterId: auth.user.centerId,
      }),
    );
    // "Already split" (either way) is a conflict with the row's state, not a permission question.
    if (parent.splitFromReportStatusId !== null) {
      throw new AppError(
        'CONFLICT',
        'Cannot split: the study was itself split from another study',
        'splitFromReportStatusId',
      );
    }
    if (await hasSplitChildOf(tx, parent.id)) {
      throw new AppError(
        'CONFLICT',
        'Cannot split: the study has already been split',
        'splitFromReportStatusId',
      );
    }
    const [child] = await tx
      .insert(reportStatuses)
      .values({
        studyId: parent.studyId,
        groupId: parent.groupId,
        centerId: parent.centerId,
        apiVersion: parent.apiVersion,
        status: 'CREATED',
        createdFromWebsite: parent.createdFromWebsite,
        splitFromReportStatusId: parent.id,
        studyName: parent.studyName,
        history: parent.history,
        uhid: parent.uhid,
        invoiceNumber: parent.invoiceNumber,
        patientName: parent.patientName,
        patientId: parent.patientId,
        patientSex: parent.patientSex,
        patientAge: parent.patientAge,
        referringPhysicianName: parent.referringPhysicianName,
        modality: parent.modality,
        referringPhysicianEmail: parent.referringPhysicianEmail,
        consultingDoctorEmails: parent.consultingDoctorEmails,
        accessionNumber: parent.accessionNumber,
        department: parent.department,
        mobileNumber: parent.mobileNumber,
        email: parent.email,
        // The images are the parent's: the child is as uploaded as the parent.
        firstUploadCompletedAt: parent.firstUploadCompletedAt,
        lastUploadCompletedAt: parent.lastUploadCompletedAt,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: reportStatuses.id });
    if (!child) throw new Error('split: insert returned no row');
    await recordStudyEvent(tx, {
      reportStatusId: parent.id,
      type: 'SPLIT',
      actor: { userId: auth.user.id },
      fromStatus: parent.status,
      toStatus: parent.status,
      payload: { splitReportStatusId: child.id },
    });
    await recordStudyEvent(tx, {
      reportStatusId: child.id,
      type: 'SPLIT_CREATED',
      actor: { userId: auth.user.id },
      fromStatus: 'CREATED',
      toStatus: 'CREATED',
      payload: { splitFromReportStatusId: parent.id },
    });
    return child.id;
  });
}

/**
 * POST /report-status/unlock/{id}: back to REOPENED_STATUS with the lock released. Sign-off times
 * stay (they are history); the reports stay (unlock is not rework).
 */
export async function unlockStudy(ctx: AppContext, auth: TAuth, id: number): Promise<void> {
  await withLockedStudy(ctx, auth, id, async ({ tx, row, flags, now }) => {
    const { status } = row.report;
    guardStudyAction('unlock', status, (s) => canUnlock({ roles: auth.roles, flags, row: { status: s } }));
    await tx
      .update(reportStatuses)
      .set({ status: REOPENED_STATUS, lockedByUserId: null, updatedAt: now })
      .where(eq(reportStatuses.id, id));
    await recordStudyEvent(tx, {
      reportStatusId: id,
      type: 'UNLOCKED',
      actor: { userId: auth.user.id },
      fromStatus: status,
      toStatus: REOPENED_STATUS,
      payload: row.report.lockedByUserId !== null ? { lockedByUserId: row.report.lockedByUserId } : null,
    });
  });
}

/**
 * POST /report-status/rework/{id}: spec-core §4 "deletes all reports of the study", then the
 * reworked alert. Sets reworked, clears the sign-off and the lock and reopens the study.
 */
export async function reworkStudy(ctx: AppContext, auth: TAuth, id: number): Promise<void> {
  await withLockedStudy(ctx, auth, id, async ({ tx, row, flags, now }) => {
    const { status } = row.report;
    guardStudyAction('rework', status, (s) => canRework({ roles: auth.roles, flags, row: { status: s } }));
    // spec-core §4 Rework "deletes all reports of the study" (their versions go with them).
    const deletedReports = await deleteReportsOfRow(tx, id);
    await tx
      .update(reportStatuses)
      .set({
        status: REOPENED_STATUS,
        reworked: true,
        lockedByUserId: null,
        signedOffAt: null,
        signedOffAfterPrint: false,
        updatedAt: now,
      })
      .where(eq(reportStatuses.id, id));
    await recordStudyEvent(tx, {
      reportStatusId: id,
      type: 'REWORKED',
      actor: { userId: auth.user.id },
      fromStatus: status,
      toStatus: REOPENED_STATUS,
      payload: { deletedReports },
    });
  });
}
