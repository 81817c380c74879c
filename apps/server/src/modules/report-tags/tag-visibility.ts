import { type Placeholder, type SQL, and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { TStudyTag } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { reportTags, users } from '../../db/schema.js';

/**
 * Who sees a tag (report-tags/DECISIONS.md): a global tag is the group's, a local tag its creator's
 * alone. Every place that reads tags — the tag calls, the study detail, the list rows and the list's
 * tag filter — puts this in its WHERE, so a local tag never shows to anyone else. The values may be
 * placeholders, for the list's prepared query.
 */
export interface TTagViewer {
  userId: number | Placeholder;
  groupId: number | Placeholder;
}

export function tagSeenBy(viewer: TTagViewer): SQL | undefined {
  return and(
    eq(reportTags.groupId, viewer.groupId),
    or(eq(reportTags.globalTag, true), eq(reportTags.createdByUserId, viewer.userId)),
  );
}

/** The fields of a tag in every answer (spec-core §3 tag): the creator's e-mail, '' when that user is gone. */
export const TAG_FIELDS = {
  id: reportTags.id,
  tag: reportTags.tag,
  globalTag: reportTags.globalTag,
  createdBy: sql<string>`coalesce(${users.email}, '')`,
  reportStatusId: reportTags.reportStatusId,
};

/** The tags the viewer sees on the given report rows, oldest first. */
export async function tagsOfReports(
  db: DbOrTx,
  viewer: { userId: number; groupId: number },
  reportStatusIds: readonly number[],
): Promise<TStudyTag[]> {
  if (reportStatusIds.length === 0) return [];
  return db
    .select(TAG_FIELDS)
    .from(reportTags)
    .leftJoin(users, eq(users.id, reportTags.createdByUserId))
    .where(and(inArray(reportTags.reportStatusId, [...reportStatusIds]), tagSeenBy(viewer)))
    .orderBy(asc(reportTags.id));
}
