import { eq } from 'drizzle-orm';
import {
  AppError,
  type TUpdateStudyDetailsRequest,
  canEditStudyDetails,
  canEditStudyType,
  checkStudyDetailsForm,
  studyDetailsFormContext,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { reportStatuses } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { findActiveGroupUser, findGroupStudyTypeNames } from './study-actions.repository.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { withLockedStudy } from '../studies/locked-study.js';
import { guardStudyAction, studyStatusConflict } from './study-transition.js';

/*
 * The Edit details form (spec-core §5) and the study type call. The form's rules are core's
 * (studyDetailsFormContext + checkStudyDetailsForm), run here under the row lock with the row's
 * current status, exactly as the browser form runs them.
 */

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/** The study types named, deduplicated, each a study type of the group (else 400 naming reportParts). */
async function checkedStudyParts(db: DbOrTx, groupId: number, names: readonly string[]): Promise<string[]> {
  const unique = [...new Set(names)];
  const known = await findGroupStudyTypeNames(db, groupId, unique);
  const unknown = unique.filter((n) => !known.has(n));
  if (unknown.length > 0)
    throw new AppError('BAD_REQUEST', `Unknown study type: ${unknown.join(', ')}`, 'reportParts');
  return unique;
}

/**
 * POST /report-status/update-details/{id}. The form is the whole set of fields (what it leaves out
 * is blank), except reportParts (absent: unchanged) and referringDoctorEmail (null: unchanged, the
 * referring doctor is removed by the sharing dialog). On a CREATED study submitted by a center or
 * tele-radiology user this is 'Send for reporting': the study moves to HISTORY_CREATED.
 */
export async function updateStudyDetails(
  ctx: AppContext,
  auth: TAuth,
  id: number,
  form: TUpdateStudyDetailsRequest,
): Promise<void> {
  await withLockedStudy(ctx, auth, id, async ({ tx, row, flags, now }) => {
    const current = row.report;
    const { status } = current;
    guardStudyAction('edit the study details', status, (s) =>
      canEditStudyDetails({
        roles: auth.roles,
        flags,
        row: { status: s, centerId: current.centerId },
        userCenterId: auth.user.centerId,
      }),
    );
    const context = studyDetailsFormContext({ roles: auth.roles, flags, row: { status } });
    const [issue] = checkStudyDetailsForm(form, context, {
      studyParts: current.studyParts,
      hasReferringDoctor: current.referringDoctorUserId !== null,
    });
    if (issue) throw new AppError('BAD_REQUEST', issue.message, issue.field);

    if (!context.canEditHistory && form.history !== current.history) {
      throw studyStatusConflict('change the history', status);
    }
    let studyParts = current.studyParts;
    if (form.reportParts !== undefined) {
      const next = await checkedStudyParts(tx, auth.user.groupId, form.reportParts);
      if (!sameList(next, current.studyParts)) {
        if (!context.canEditStudyType) throw studyStatusConflict('change the study type', status);
        studyParts = next;
      }
    }
    let referringDoctorUserId = current.referringDoctorUserId;
    if (form.referringDoctorEmail !== null) {
      const doctor = await findActiveGroupUser(
        tx,
        auth.user.groupId,
        form.referringDoctorEmail,
        'ROLE_REFERRING_DOCTOR',
      );
      if (!doctor) {
        throw new AppError(
          'BAD_REQUEST',
          `No active referring doctor ${form.referringDoctorEmail} in your group`,
          'referringDoctorEmail',
        );
      }
      referringDoctorUserId = doctor.id;
    }

    const next = {
      patientName: form.patientName,
      patientAge: form.patientAge,
      patientId: form.patientId,
      patientSex: form.patientSex,
      uhid: form.uhid,
      accessionNumber: form.accessionNumber,
      studyName: form.studyName,
      referringPhysicianName: form.referringPhysicianName,
      referringPhysicianEmail: form.referringPhysicianEmail,
      consultingDoctorEmails: form.consultingDoctorEmails,
      history: form.history,
      mobileNumber: form.mobileNumber || null,
      email: form.email || null,
      department: form.department ?? null,
      studyParts,
      referringDoctorUserId,
    };
    const changed = (Object.keys(next) as Array<keyof typeof next>).filter((field) => {
      const value = next[field];
      const before = current[field];
      return Array.isArray(value) && Array.isArray(before) ? !sameList(value, before) : value !== before;
    });
    const toStatus = context.sendsForReporting ? 'HISTORY_CREATED' : status;
    if (changed.length === 0 && toStatus === status) return;

    await tx
      .update(reportStatuses)
      .set({ ...next, status: toStatus, updatedAt: now })
      .where(eq(reportStatuses.id, id));
    await recordStudyEvent(tx, {
      reportStatusId: id,
      type: context.sendsForReporting ? 'SENT_FOR_REPORTING' : 'DETAILS_UPDATED',
      actor: { userId: auth.user.id },
      fromStatus: status,
      toStatus,
      payload: { changed },
    });
  });
}

/** POST /tele-pricing/add-study-part: sets the study types of a row (the Edit details rules apply). */
export async function setStudyParts(
  ctx: AppContext,
  auth: TAuth,
  input: { reportStatusId: number; reportParts: readonly string[] },
): Promise<void> {
  await withLockedStudy(ctx, auth, input.reportStatusId, async ({ tx, row, flags, now }) => {
    const { status, studyParts, centerId } = row.report;
    guardStudyAction('change the study type', status, (s) => {
      const rule = {
        roles: auth.roles,
        flags,
        row: { status: s, centerId },
        userCenterId: auth.user.centerId,
      };
      return canEditStudyDetails(rule) && canEditStudyType(rule);
    });
    const next = await checkedStudyParts(tx, auth.user.groupId, input.reportParts);
    if (sameList(next, studyParts)) return;
    await tx
      .update(reportStatuses)
      .set({ studyParts: next, updatedAt: now })
      .where(eq(reportStatuses.id, row.report.id));
    await recordStudyEvent(tx, {
      reportStatusId: row.report.id,
      type: 'STUDY_PARTS_UPDATED',
      actor: { userId: auth.user.id },
      fromStatus: status,
      toStatus: status,
      payload: { from: studyParts, to: next },
    });
  });
}
