import { and, asc, eq } from 'drizzle-orm';
import {
  AppError,
  type TAppErrorKind,
  OFFLINE_REPORT_MESSAGES,
  type TOfflineReportUpload,
  type TOfflineReportUploadResult,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { offlineReportWrites, reportStatuses, studies, users } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { TAuth } from '../../plugins/auth.js';
import { storedRoles } from '../current-user/current-user.js';
import { lockForReport } from '../reporting/lock-report.js';
import { saveReport } from '../reporting/save-report.js';
import { scopeOfAuth, visibleReportRows } from '../studies/study-access.js';
import { holdsOfflineGrant, isHybridDoctor } from './offline-grants.js';

async function earlierWrite(
  ctx: AppContext,
  center: TAuth,
  writeId: string,
): Promise<TOfflineReportUploadResult | null> {
  const [found] = await ctx.db
    .select({
      reportStatusId: offlineReportWrites.reportStatusId,
      savedVersion: offlineReportWrites.savedVersion,
    })
    .from(offlineReportWrites)
    .innerJoin(reportStatuses, eq(reportStatuses.id, offlineReportWrites.reportStatusId))
    .where(and(eq(offlineReportWrites.writeId, writeId), eq(reportStatuses.groupId, center.user.groupId)));
  return found ? { outcome: 'SAME', ...found } : null;
}

/** The center's row of the study (the first row: a split study's parts are not reported offline). */
export async function rowOfStudy(ctx: AppContext, center: TAuth, studyInstanceUid: string): Promise<number> {
  const [row] = await ctx.db
    .select({ id: reportStatuses.id })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .where(and(eq(studies.studyInstanceUid, studyInstanceUid), visibleReportRows(scopeOfAuth(center))))
    .orderBy(asc(reportStatuses.id))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', OFFLINE_REPORT_MESSAGES.studyNotInCloud, 'studyInstanceUid');
  return row.id;
}

/**
 * For a report call made as the author on a row `rowOfStudy` found: the center's token already
 * proved the row is the center's, so the call's NOT_FOUND means only that the author may not see it
 * (another doctor holds or was assigned it). It is answered with the reason the router keeps for
 * the study, not as a missing study; any other error passes through.
 */
export function unseenByAuthor(
  kind: TAppErrorKind,
  message: string,
  field: string,
): (error: unknown) => never {
  return (error) => {
    if (error instanceof AppError && error.kind === 'NOT_FOUND') throw new AppError(kind, message, field);
    throw error;
  };
}

/**
 * The author as the report rules see them: their stored roles (hybrid mode replaces them by
 * ROLE_OFFLINE_HYBRID for the cloud's screens, but the report is a doctor's and carries a doctor's
 * signature). Only an active hybrid doctor of the token owner's group may be named, and only with a
 * live grant of theirs (offline-grants.ts): the center's token alone never speaks for a doctor.
 */
export async function hybridAuthor(
  ctx: AppContext,
  center: TAuth,
  email: string,
  grant: string,
): Promise<TAuth> {
  const [author] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.email, email.toLowerCase()), eq(users.groupId, center.user.groupId)));
  if (!author || !isHybridDoctor(author)) {
    throw new AppError('FORBIDDEN', OFFLINE_REPORT_MESSAGES.authorNotHybrid, 'authorEmail');
  }
  if (!(await holdsOfflineGrant(ctx, author.id, grant))) {
    throw new AppError('FORBIDDEN', OFFLINE_REPORT_MESSAGES.authorNotProven, 'authorGrant');
  }
  return { user: author, roles: storedRoles(author), sessionId: null };
}

/**
 * POST /api/router/offline-report (issue 27 §4; apps/router/HYBRID.md): one report save written on
 * the router while the link was down. Goes through the report calls' own services — open to report
 * (lockForReport) then save / sign off (saveReport, with its baseVersion check) — as the author; the
 * write id is recorded in the save's transaction, so a repeat is SAME and never a second version.
 */
export async function acceptOfflineReport(
  ctx: AppContext,
  center: TAuth,
  body: TOfflineReportUpload,
): Promise<TOfflineReportUploadResult> {
  const earlier = await earlierWrite(ctx, center, body.writeId);
  if (earlier) return earlier;
  const id = await rowOfStudy(ctx, center, body.studyInstanceUid);
  const author = await hybridAuthor(ctx, center, body.authorEmail, body.authorGrant);
  // The center sees the row but the author does not: another doctor holds it (locked or assigned).
  await lockForReport(ctx, author, id, {}).catch(
    unseenByAuthor('CONFLICT', OFFLINE_REPORT_MESSAGES.heldInCloud, 'studyInstanceUid'),
  );
  try {
    const { savedVersion } = await saveReport(
      ctx,
      author,
      id,
      { name: body.name, content: body.content, signOff: body.signOff, baseVersion: body.baseVersion },
      async (tx, version) => {
        await tx.insert(offlineReportWrites).values({
          writeId: body.writeId,
          reportStatusId: id,
          authorUserId: author.user.id,
          savedVersion: version,
          writtenAt: new Date(body.writtenAt),
        });
      },
    );
    return { outcome: 'SAVED', reportStatusId: id, savedVersion };
  } catch (error) {
    if (isUniqueViolation(error)) {
      const same = await earlierWrite(ctx, center, body.writeId);
      if (same) return same;
    }
    throw error;
  }
}
