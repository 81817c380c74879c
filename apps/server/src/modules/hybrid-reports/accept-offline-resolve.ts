import { and, eq } from 'drizzle-orm';
import {
  OFFLINE_REPORT_MESSAGES,
  REPORTING_MESSAGES,
  type TOfflineResolveResult,
  type TOfflineResolveUpload,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { offlineReportWrites, reportStatuses, reportVersions, reports } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { TAuth } from '../../plugins/auth.js';
import { addAddendum } from '../reporting/add-addendum.js';
import { lockForReport } from '../reporting/lock-report.js';
import { saveReport } from '../reporting/save-report.js';
import { hybridAuthor, rowOfStudy, unseenByAuthor } from './accept-offline-report.js';

/** The row's main report as it reads now: what the router's copy shows after a resolution. */
async function cloudReportOf(
  db: DbOrTx,
  reportStatusId: number,
): Promise<Omit<TOfflineResolveResult, 'outcome'>> {
  const [main] = await db
    .select({
      id: reports.id,
      name: reports.name,
      content: reports.contentHtml,
      signedOffAt: reports.signedOffAt,
    })
    .from(reports)
    .where(and(eq(reports.reportStatusId, reportStatusId), eq(reports.isAddendum, false)));
  if (!main) return { reportStatusId, name: '', content: '', savedVersion: null, signedOff: false };
  const versions = await db
    .select({ version: reportVersions.version })
    .from(reportVersions)
    .where(eq(reportVersions.reportId, main.id));
  const newest = versions.reduce<number | null>(
    (max, v) => (max === null || v.version > max ? v.version : max),
    null,
  );
  return {
    reportStatusId,
    name: main.name,
    content: main.content,
    savedVersion: newest,
    signedOff: main.signedOffAt !== null,
  };
}

/**
 * POST /api/router/offline-resolve (issue 27 §4; apps/router/HYBRID.md "Resolving a conflict"): a
 * hybrid doctor's choice for a study the router holds in CONFLICT. KEEP_CLOUD writes nothing and
 * answers the cloud's report. ADDENDUM sends the offline text through the report calls' own
 * services as the doctor: an addendum of a signed-off report (addAddendum: only the doctor who
 * signed it off), else a new version on top of the cloud's newest one (lockForReport + saveReport:
 * not while another doctor holds the row). The resolution id is kept in the write's transaction, so
 * a repeat answers SAME and never adds twice.
 */
export async function acceptOfflineResolve(
  ctx: AppContext,
  center: TAuth,
  body: TOfflineResolveUpload,
): Promise<TOfflineResolveResult> {
  const id = await rowOfStudy(ctx, center, body.studyInstanceUid);
  const author = await hybridAuthor(ctx, center, body.authorEmail, body.authorGrant);
  if (body.action === 'KEEP_CLOUD') return { outcome: 'SAVED', ...(await cloudReportOf(ctx.db, id)) };
  if (await earlierResolution(ctx.db, id, body.resolutionId)) {
    return { outcome: 'SAME', ...(await cloudReportOf(ctx.db, id)) };
  }
  const record = async (tx: Tx, version: number) => {
    await tx.insert(offlineReportWrites).values({
      writeId: body.resolutionId,
      reportStatusId: id,
      authorUserId: author.user.id,
      savedVersion: version,
      writtenAt: ctx.now(),
    });
  };
  try {
    const [row] = await ctx.db
      .select({ status: reportStatuses.status })
      .from(reportStatuses)
      .where(eq(reportStatuses.id, id));
    if (row?.status === 'SIGNED_OFF') {
      // HYBRID.md: a doctor who did not sign it off is told so, and the conflict stays with that reason.
      await addAddendum(ctx, author, id, { name: body.name, content: body.content }, record).catch(
        unseenByAuthor('FORBIDDEN', REPORTING_MESSAGES.addendumNotYours, 'authorEmail'),
      );
    } else {
      await lockForReport(ctx, author, id, {}).catch(
        unseenByAuthor('CONFLICT', OFFLINE_REPORT_MESSAGES.heldInCloud, 'studyInstanceUid'),
      );
      const { savedVersion } = await cloudReportOf(ctx.db, id);
      await saveReport(
        ctx,
        author,
        id,
        { name: body.name, content: body.content, signOff: false, baseVersion: savedVersion },
        record,
      );
    }
  } catch (error) {
    if (isUniqueViolation(error) && (await earlierResolution(ctx.db, id, body.resolutionId))) {
      return { outcome: 'SAME', ...(await cloudReportOf(ctx.db, id)) };
    }
    throw error;
  }
  return { outcome: 'SAVED', ...(await cloudReportOf(ctx.db, id)) };
}

async function earlierResolution(db: DbOrTx, reportStatusId: number, resolutionId: string): Promise<boolean> {
  const [found] = await db
    .select({ id: offlineReportWrites.writeId })
    .from(offlineReportWrites)
    .where(
      and(
        eq(offlineReportWrites.writeId, resolutionId),
        eq(offlineReportWrites.reportStatusId, reportStatusId),
      ),
    );
  return found !== undefined;
}
