import { randomUUID } from 'node:crypto';
import { AppError, type TCreatedStudy, type ZCreateStudyRequest } from '@radflow/core';
import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { reportStatuses, studies } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { linkBillLineToStudy, lockBillLineForStudy } from '../lab-worklist/bill-line-study.js';
import { type TUploadTarget, resolveUploadCenter } from './upload-access.js';

/** A new DICOM UID under the UUID root of PS3.5 §B.2: `2.25.` and the UUID as one decimal number. */
export function generateDicomUid(): string {
  return `2.25.${BigInt(`0x${randomUUID().replaceAll('-', '')}`).toString()}`;
}

/**
 * POST /api/dicom-web/study/create-from-website (spec-core §5 Create Study, §7): a study without
 * images, with its report row (CREATED, createdFromWebsite, the typed modality) and STUDY_CREATED
 * event in one transaction. Images arrive later by the upload-study action, DICOM with the same
 * UID, or the router.
 *
 * One row per study (DECISIONS.md "one row per study"): a UID the group already holds is 409, or
 * with `joinExisting` (Create Study whose files' headers name the study) the study's row when the
 * study is the same center's: nothing is changed, the typed details are not applied, and the
 * answer says `joinedExisting` so the clerk is told. Two such requests at once meet on the study
 * row: the second's insert waits for the first's commit, then reads its row.
 */
export async function createStudyFromWebsite(
  ctx: AppContext,
  auth: TAuth,
  input: z.output<typeof ZCreateStudyRequest>,
): Promise<TCreatedStudy> {
  const target = await resolveUploadCenter(ctx, auth, input.center, {
    foreignCenter: 'ignore',
    field: 'center',
  });
  // Stamped from the app's clock, which the turnaround forecast reads (not the database's now()).
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    // From a bill: the line is locked first, and its worklist UID is the study's unless one was named.
    const line =
      input.labBillTestId === undefined ? null : await lockBillLineForStudy(tx, target, input.labBillTestId);
    const studyInstanceUid = input.studyInstanceUID || line?.studyInstanceUid || generateDicomUid();
    const [study] = await tx
      .insert(studies)
      .values({
        groupId: target.groupId,
        centerId: target.centerId,
        studyInstanceUid,
        patientName: input.patientName,
        patientId: input.patientId,
        patientSex: input.patientSex,
        patientAge: input.patientAge,
        studyDescription: input.studyName,
        referringPhysicianName: input.referringPhysicianName,
        modalities: [input.labModality],
        createdAt: now,
      })
      .onConflictDoNothing({ target: [studies.groupId, studies.studyInstanceUid] })
      .returning({ id: studies.id });
    if (!study) {
      const joined = input.joinExisting ? await existingRow(tx, target, studyInstanceUid) : null;
      if (joined) return { ...joined, studyInstanceUID: studyInstanceUid, joinedExisting: true };
      throw new AppError(
        'ALREADY_PRESENT',
        'A study with this Study Instance UID already exists',
        'studyInstanceUID',
      );
    }
    const [report] = await tx
      .insert(reportStatuses)
      .values({
        studyId: study.id,
        groupId: target.groupId,
        centerId: target.centerId,
        status: 'CREATED',
        createdFromWebsite: true,
        studyName: input.studyName,
        modality: input.labModality,
        patientName: input.patientName,
        patientId: input.patientId,
        patientSex: input.patientSex,
        patientAge: input.patientAge,
        referringPhysicianName: input.referringPhysicianName,
        history: input.history,
        uhid: input.uhid,
        invoiceNumber: input.invoiceNumber,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: reportStatuses.id, apiVersion: reportStatuses.apiVersion });
    if (!report) throw new Error('report-status insert returned no row');
    if (line) await linkBillLineToStudy(tx, target, line, study.id, auth.user.email);
    await recordStudyEvent(tx, {
      reportStatusId: report.id,
      type: 'STUDY_CREATED',
      actor: { userId: auth.user.id },
      toStatus: 'CREATED',
      payload: {
        source: 'WEBSITE',
        studyInstanceUid,
        ...(input.studyId ? { labStudyId: input.studyId } : {}),
        ...(line ? { labBillTestId: line.id } : {}),
      },
    });
    return {
      id: report.id,
      studyInstanceUID: studyInstanceUid,
      apiVersion: report.apiVersion,
      joinedExisting: false,
    };
  });
}

/**
 * The row of the group's study `uid` when it is `target`'s center's, else null (another center's
 * study stays a 409 that names nothing of it). The study row is locked first, as an ingest's upsert
 * does, so a file being indexed for it commits before this reads its row.
 */
async function existingRow(
  tx: Tx,
  target: TUploadTarget,
  uid: string,
): Promise<{ id: number; apiVersion: number } | null> {
  const [study] = await tx
    .select({ id: studies.id, centerId: studies.centerId })
    .from(studies)
    .where(and(eq(studies.groupId, target.groupId), eq(studies.studyInstanceUid, uid)))
    .for('update');
  if (!study || study.centerId !== target.centerId) return null;
  const [row] = await tx
    .select({ id: reportStatuses.id, apiVersion: reportStatuses.apiVersion })
    .from(reportStatuses)
    .where(and(eq(reportStatuses.studyId, study.id), isNull(reportStatuses.splitFromReportStatusId)));
  return row ?? null;
}
