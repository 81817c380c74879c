import {
  AppError,
  type TZipAnonymizationType,
  type TZipVariant,
  ZIP_MESSAGES,
  canDownloadZip,
  groupFlags,
  zipDownloadRefusal,
  zipVariantFor,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { reportStatuses, studies } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadVisibleReportRow } from '../studies/visible-row.js';
import { loadGroupPreferences } from '../preferences/preferences.js';

/** A report row the caller may see, with what the zip rules and the job need of its study. */
export interface TZipSubject {
  reportStatusId: number;
  studyId: number;
  groupId: number;
  apiVersion: number;
  lastUploadCompletedAt: Date | null;
  createdAt: Date;
  patientName: string;
  lastInstanceAt: Date | null;
}

/**
 * The report row `id` if the caller may see that row (`visibleReportRows`, the one access rule), else
 * 404 'Not found': a row the caller may not see does not exist for them. The row, not its study:
 * seeing one row of a split study does not open its sibling's zip.
 */
export const findVisibleReport = (ctx: AppContext, auth: TAuth, id: number): Promise<TZipSubject> =>
  loadVisibleReportRow(ctx.db, auth, id, {
    reportStatusId: reportStatuses.id,
    studyId: studies.id,
    groupId: studies.groupId,
    apiVersion: reportStatuses.apiVersion,
    lastUploadCompletedAt: reportStatuses.lastUploadCompletedAt,
    createdAt: reportStatuses.createdAt,
    patientName: studies.patientName,
    lastInstanceAt: studies.lastInstanceAt,
  });

/**
 * spec-core §5 download rules for one user and study, checked before a zip job is queued and
 * before a link is given: the role/setting rule (403), then not uploaded yet (409) and backup
 * duration passed (403), each with the spec's message. Answers which zip the user gets.
 */
export async function assertZipAllowed(
  ctx: AppContext,
  auth: TAuth,
  subject: TZipSubject,
  requested: TZipAnonymizationType | null | undefined,
): Promise<TZipVariant> {
  const flags = groupFlags(await loadGroupPreferences(ctx.db, subject.groupId));
  if (!canDownloadZip(auth.roles, flags)) throw new AppError('FORBIDDEN', ZIP_MESSAGES.zipDisabled);
  const refusal = zipDownloadRefusal({
    apiVersion: subject.apiVersion,
    lastUploadCompletedAt: subject.lastUploadCompletedAt,
    createdAt: subject.createdAt,
    durationOfBackupInMonth: flags.durationOfBackupInMonth,
    now: ctx.now(),
  });
  if (refusal === ZIP_MESSAGES.notUploaded) throw new AppError('CONFLICT', refusal);
  if (refusal) throw new AppError('FORBIDDEN', refusal);
  return zipVariantFor(auth.roles, flags, requested);
}
