import { and, asc, eq } from 'drizzle-orm';
import {
  type TReportDraft,
  type TReportDraftRequest,
  checkReportHolder,
  checkReportWriter,
  reportingActorOf,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { reportDrafts, reports, userMappings } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadVisibleStudyRow } from '../studies/visible-row.js';
import { sanitizeReportHtml } from '../preferences/sanitize-report-html.js';
import { throwIfRefused } from './report-writes.js';

/*
 * Report drafts (issue 7 §1 auto-save): the writer's unsaved text, one per (row, user), so a reload or
 * a lost connection loses nothing. Only a writer of the row keeps one (the guards of a save: a
 * read-only role 403 before the row is looked up, an unseen row 404, a row held by another doctor
 * 403); a save or sign-off removes the writer's draft in its transaction (save-report.ts).
 */

/** The writer guards shared by the three calls; answers nothing, throws the refusal. */
async function checkDraftWriter(db: DbOrTx, auth: TAuth, id: number): Promise<void> {
  // Who may never write a report (not even as a verifier) is told so before the row is looked up.
  throwIfRefused(checkReportWriter(auth.roles, reportingActorOf(auth.roles, { awaitingVerification: true })));
  const row = (await loadVisibleStudyRow(db, auth, id)).report;
  const [main] = await db
    .select({ awaitingVerification: reports.awaitingVerification })
    .from(reports)
    .where(and(eq(reports.reportStatusId, id), eq(reports.isAddendum, false)))
    .orderBy(asc(reports.id))
    .limit(1);
  const actor = reportingActorOf(auth.roles, { awaitingVerification: main?.awaitingVerification ?? false });
  throwIfRefused(checkReportWriter(auth.roles, actor));
  if (row.status === 'DELETED' || actor === 'DOCTOR') {
    throwIfRefused(checkReportHolder({ doctorUserId: auth.user.id, row }));
    return;
  }
  if (actor === 'TYPIST' && row.lockedByUserId !== null) {
    // A typist types for a doctor of their user map: the row must be free or held by one of them.
    const [mapped] = await db
      .select({ id: userMappings.id })
      .from(userMappings)
      .where(
        and(
          eq(userMappings.userId, auth.user.id),
          eq(userMappings.role, 'ROLE_DOCTOR'),
          eq(userMappings.mappedUserId, row.lockedByUserId),
        ),
      );
    if (!mapped) throwIfRefused(checkReportHolder({ doctorUserId: auth.user.id, row }));
  }
}

const whereDraft = (id: number, userId: number) =>
  and(eq(reportDrafts.reportStatusId, id), eq(reportDrafts.userId, userId));

const toDraft = (row: typeof reportDrafts.$inferSelect): TReportDraft => ({
  name: row.name,
  content: row.contentHtml,
  baseVersion: row.baseVersion,
  updatedAt: row.updatedAt.toISOString(),
});

/** GET /report/draft/{id}: the caller's draft of the row, or null. */
export async function getReportDraft(ctx: AppContext, auth: TAuth, id: number): Promise<TReportDraft | null> {
  await checkDraftWriter(ctx.db, auth, id);
  const [row] = await ctx.db.select().from(reportDrafts).where(whereDraft(id, auth.user.id));
  return row ? toDraft(row) : null;
}

/**
 * PUT /report/draft/{id}: keeps the caller's draft (replacing the last one). The content is cleaned
 * like a save (the cap is checked by the schema before cleaning).
 */
export async function putReportDraft(
  ctx: AppContext,
  auth: TAuth,
  id: number,
  body: TReportDraftRequest,
): Promise<TReportDraft> {
  await checkDraftWriter(ctx.db, auth, id);
  const values = {
    name: body.name,
    contentHtml: sanitizeReportHtml(body.content),
    baseVersion: body.baseVersion,
    updatedAt: ctx.now(),
  };
  const [row] = await ctx.db
    .insert(reportDrafts)
    .values({ reportStatusId: id, userId: auth.user.id, ...values })
    .onConflictDoUpdate({ target: [reportDrafts.reportStatusId, reportDrafts.userId], set: values })
    .returning();
  if (!row) throw new Error('report draft: upsert returned no row');
  return toDraft(row);
}

/** DELETE /report/draft/{id}: drops the caller's draft (nothing to drop is fine). */
export async function deleteReportDraft(ctx: AppContext, auth: TAuth, id: number): Promise<void> {
  await checkDraftWriter(ctx.db, auth, id);
  await ctx.db.delete(reportDrafts).where(whereDraft(id, auth.user.id));
}

/** Inside a save's transaction: the writer's draft is now the saved report. */
export async function removeWriterDraft(tx: DbOrTx, reportStatusId: number, userId: number): Promise<void> {
  await tx.delete(reportDrafts).where(whereDraft(reportStatusId, userId));
}
