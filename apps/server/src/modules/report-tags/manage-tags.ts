import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  AppError,
  MESSAGES,
  type TStudyTag,
  type TTagChoicesResponse,
  type TUpdateReportTagRequest,
  type ZAddReportTagRequest,
  canChangeReportTag,
  canTagStudyRow,
  normalizeTag,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { reportTags } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';
import { loadUserPreferences } from '../preferences/preferences.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { type TVisibleReport, loadVisibleReport } from '../studies/visible-row.js';
import { tagSeenBy, tagsOfReports } from './tag-visibility.js';

/** A tag the caller may see: a global tag of their group, or one of their own local tags. */
const seenBy = (auth: TAuth) => tagSeenBy({ userId: auth.user.id, groupId: auth.user.groupId });

const duplicate = (tag: string) => new AppError('CONFLICT', `The study already has the tag ${tag}`, 'tag');

/** May tag this study: core canTagStudyRow (a center role on its own center's studies only). */
function assertMayTag(auth: TAuth, report: TVisibleReport) {
  if (!canTagStudyRow({ roles: auth.roles, row: report, userCenterId: auth.user.centerId })) {
    throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
  }
}

/** POST /report-tag/add-tags: the tag and its timeline event in one transaction; 409 on a duplicate. */
export async function addReportTag(
  ctx: AppContext,
  auth: TAuth,
  input: z.output<typeof ZAddReportTagRequest>,
): Promise<{ id: number }> {
  const report = await loadVisibleReport(ctx.db, auth, input.reportStatusId);
  assertMayTag(auth, report);
  try {
    return await ctx.db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: reportTags.id })
        .from(reportTags)
        .where(and(eq(reportTags.reportStatusId, report.id), eq(reportTags.tag, input.tag)));
      if (existing) throw duplicate(input.tag);
      const [row] = await tx
        .insert(reportTags)
        .values({
          groupId: report.groupId,
          reportStatusId: report.id,
          tag: input.tag,
          globalTag: input.globalTag,
          createdByUserId: auth.user.id,
          createdAt: ctx.now(),
        })
        .returning({ id: reportTags.id });
      if (!row) throw new Error('tag insert returned no row');
      await recordStudyEvent(tx, {
        reportStatusId: report.id,
        type: 'TAG_ADDED',
        actor: { userId: auth.user.id },
        fromStatus: report.status,
        toStatus: report.status,
        payload: { tagId: row.id, tag: input.tag, globalTag: input.globalTag },
        at: ctx.now(),
      });
      return { id: row.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(input.tag);
    throw error;
  }
}

/** A tag the caller may see on a study they may see, or 404; 403 when they may not change it. */
async function loadChangeableTag(db: DbOrTx, auth: TAuth, id: number) {
  const [tag] = await db
    .select()
    .from(reportTags)
    .where(and(eq(reportTags.id, id), seenBy(auth)));
  if (!tag) throw new AppError('NOT_FOUND', MESSAGES.notFound, 'id');
  const report = await loadVisibleReport(db, auth, tag.reportStatusId);
  assertMayTag(auth, report);
  if (
    !canChangeReportTag({ roles: auth.roles, userId: auth.user.id, createdByUserId: tag.createdByUserId })
  ) {
    throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
  }
  return { tag, report };
}

/** DELETE /report-tag/delete. */
export async function deleteReportTag(ctx: AppContext, auth: TAuth, id: number): Promise<{ ok: true }> {
  const { tag, report } = await loadChangeableTag(ctx.db, auth, id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(reportTags).where(eq(reportTags.id, tag.id));
    await recordStudyEvent(tx, {
      reportStatusId: report.id,
      type: 'TAG_DELETED',
      actor: { userId: auth.user.id },
      fromStatus: report.status,
      toStatus: report.status,
      payload: { tagId: tag.id, tag: tag.tag, globalTag: tag.globalTag },
      at: ctx.now(),
    });
  });
  return { ok: true };
}

/** POST /report-tag/update: switch a tag between local and global. */
export async function updateReportTag(
  ctx: AppContext,
  auth: TAuth,
  input: TUpdateReportTagRequest,
): Promise<{ ok: true }> {
  const { tag, report } = await loadChangeableTag(ctx.db, auth, input.id);
  await ctx.db.transaction(async (tx) => {
    await tx.update(reportTags).set({ globalTag: input.globalTag }).where(eq(reportTags.id, tag.id));
    await recordStudyEvent(tx, {
      reportStatusId: report.id,
      type: 'TAG_UPDATED',
      actor: { userId: auth.user.id },
      fromStatus: report.status,
      toStatus: report.status,
      payload: { tagId: tag.id, tag: tag.tag, globalTag: input.globalTag, wasGlobalTag: tag.globalTag },
      at: ctx.now(),
    });
  });
  return { ok: true };
}

/** The tags of one study the caller sees (its global tags and the caller's local ones). */
export async function listStudyTags(
  ctx: AppContext,
  auth: TAuth,
  reportStatusId: number,
): Promise<TStudyTag[]> {
  await loadVisibleReport(ctx.db, auth, reportStatusId);
  return tagsOfReports(ctx.db, { userId: auth.user.id, groupId: auth.user.groupId }, [reportStatusId]);
}

/**
 * GET /report-tag/choices: what the tag dialog offers — the group's global tags, the caller's own
 * local tags, and the tags saved in the caller's TAGS preference (spec-core §3), each text once;
 * a text that is global anywhere in the group is offered as global.
 */
export async function listTagChoices(ctx: AppContext, auth: TAuth): Promise<TTagChoicesResponse> {
  const rows = await ctx.db
    .selectDistinct({ tag: reportTags.tag, globalTag: reportTags.globalTag })
    .from(reportTags)
    .where(seenBy(auth));
  const choices = new Map<string, boolean>();
  for (const row of rows) choices.set(row.tag, (choices.get(row.tag) ?? false) || row.globalTag);
  const prefs = await loadUserPreferences(ctx.db, auth.user);
  for (const saved of prefs.TAGS.tags) {
    const tag = normalizeTag(saved);
    if (tag && !choices.has(tag)) choices.set(tag, false);
  }
  const tags = [...choices]
    .map(([tag, globalTag]) => ({ tag, globalTag }))
    .sort((a, b) => a.tag.localeCompare(b.tag));
  return { tags };
}
