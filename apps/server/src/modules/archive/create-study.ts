import { randomUUID } from 'node:crypto';
import { AppError, type ZCreateStudyRequest } from '@radflow/core';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { reportStatuses, studies, studyEvents } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { resolveUploadCenter } from './upload-access.js';

/** A new DICOM UID under the UUID root of PS3.5 §B.2: `2.25.` and the UUID as one decimal number. */
export function generateDicomUid(): string {
  return `2.25.${BigInt(`0x${randomUUID().replaceAll('-', '')}`).toString()}`;
}

/**
 * POST /api/dicom-web/study/create-from-website (spec-core §5 Create Study, §7): a study without
 * images, with its report row (CREATED, createdFromWebsite) and STUDY_CREATED event in one
 * transaction. Images arrive later by the upload-study action, DICOM with the same UID, or the router.
 */
export async function createStudyFromWebsite(
  ctx: AppContext,
  auth: TAuth,
  input: z.output<typeof ZCreateStudyRequest>,
): Promise<{ id: number; studyInstanceUID: string; apiVersion: number }> {
  const target = await resolveUploadCenter(ctx, auth, input.center, {
    foreignCenter: 'ignore',
    field: 'center',
  });
  const studyInstanceUid = input.studyInstanceUID || generateDicomUid();
  return ctx.db.transaction(async (tx) => {
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
      })
      .onConflictDoNothing({ target: [studies.groupId, studies.studyInstanceUid] })
      .returning({ id: studies.id });
    if (!study) {
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
        patientName: input.patientName,
        patientId: input.patientId,
        patientSex: input.patientSex,
        patientAge: input.patientAge,
        referringPhysicianName: input.referringPhysicianName,
        history: input.history,
        uhid: input.uhid,
        invoiceNumber: input.invoiceNumber,
      })
      .returning({ id: reportStatuses.id, apiVersion: reportStatuses.apiVersion });
    if (!report) throw new Error('report-status insert returned no row');
    await tx.insert(studyEvents).values({
      reportStatusId: report.id,
      eventType: 'STUDY_CREATED',
      actorUserId: auth.user.id,
      toStatus: 'CREATED',
      detail: {
        source: 'WEBSITE',
        studyInstanceUid,
        ...(input.studyId ? { labStudyId: input.studyId } : {}),
      },
    });
    return { id: report.id, studyInstanceUID: studyInstanceUid, apiVersion: report.apiVersion };
  });
}
