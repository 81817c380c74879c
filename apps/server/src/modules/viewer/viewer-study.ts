import {
  AppError,
  type TGroupFlags,
  canAnnotateStudy,
  groupFlags,
  hasFullViewer,
  uploadStateOf,
  viewerEntry,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { reportStatuses, studies } from '../../db/schema.js';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';
import { loadVisibleReportRow } from '../studies/visible-row.js';
import { loadGroupPreferences } from '../preferences/preferences.js';

/** The report row `id` with its archive study, when the caller may see the row; else 404. */
export const loadViewerStudy = (db: DbOrTx, auth: TAuth, id: number) =>
  loadVisibleReportRow(db, auth, id, {
    id: reportStatuses.id,
    studyId: reportStatuses.studyId,
    groupId: reportStatuses.groupId,
    centerId: reportStatuses.centerId,
    apiVersion: reportStatuses.apiVersion,
    status: reportStatuses.status,
    patientName: reportStatuses.patientName,
    patientId: reportStatuses.patientId,
    patientSex: reportStatuses.patientSex,
    patientAge: reportStatuses.patientAge,
    studyName: reportStatuses.studyName,
    lastUploadCompletedAt: reportStatuses.lastUploadCompletedAt,
    studyInstanceUid: studies.studyInstanceUid,
    studyDate: studies.studyDate,
    studyDescription: studies.studyDescription,
    patientBirthDate: studies.patientBirthDate,
    issuerOfPatientId: studies.issuerOfPatientId,
    modalities: studies.modalities,
    instanceCount: studies.instanceCount,
  });
export type TViewerStudy = Awaited<ReturnType<typeof loadViewerStudy>>;

/**
 * Whether the caller may annotate this study: the full viewer (core hasFullViewer: a center only
 * with enableFullViewerForCenter) and core canAnnotateStudy.
 */
export function mayAnnotate(
  auth: TAuth,
  study: TViewerStudy,
  flags: Pick<TGroupFlags, 'enableFullViewerForCenter'>,
): boolean {
  return (
    hasFullViewer({ roles: auth.roles, flags }) &&
    canAnnotateStudy({ roles: auth.roles, row: study, userCenterId: auth.user.centerId })
  );
}

/**
 * The study for a change to its annotations or key images: visible (404), the caller may annotate it
 * (403: a read-only role, a center without the full viewer) and the viewer opens it (403 with the
 * entry's message: a deleted study, a study with no image).
 */
export async function loadAnnotatableStudy(db: DbOrTx, auth: TAuth, id: number): Promise<TViewerStudy> {
  const study = await loadViewerStudy(db, auth, id);
  const flags = groupFlags(await loadGroupPreferences(db, study.groupId));
  if (!mayAnnotate(auth, study, flags)) throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
  const entry = viewerEntry({ status: study.status, upload: uploadStateOf(study) });
  if (!entry.allowed) throw new AppError('FORBIDDEN', entry.message ?? MESSAGE_NOT_ALLOWED);
  return study;
}
