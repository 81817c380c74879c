import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  ACTIVE_IN_VIEWER_LIMIT,
  AppError,
  type TActiveInViewer,
  asksActiveInViewer,
  groupFlags,
  seesActiveInViewer,
} from '@radflow/core';
import type { Db } from '../../db/client.js';
import { reportStatuses, users, viewerActivity } from '../../db/schema.js';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { loadViewerStudy } from './viewer-study.js';

/**
 * The open viewer's heartbeat: the caller was active on the study now. Any user who may see the row
 * counts (404 otherwise); the row keeps one line per user, its time moved forward.
 */
export async function recordViewerActivity(db: Db, auth: TAuth, id: number): Promise<void> {
  await loadViewerStudy(db, auth, id);
  await db
    .insert(viewerActivity)
    .values({ reportStatusId: id, userId: auth.user.id })
    .onConflictDoUpdate({
      target: [viewerActivity.reportStatusId, viewerActivity.userId],
      set: { lastActiveAt: sql`now()` },
    });
}

/**
 * POST /api/viewer/active-users: for each given row of the caller's group, its ACTIVE_IN_VIEWER_LIMIT
 * most recent viewer users (spec-core §6: assignors with showActiveInViewer). Other roles get 403; an
 * assignor of a group without the switch gets `enabled: false` and nothing else (the assignor's
 * session does not load the group switches, so the answer tells the list whether to show the column).
 * Ids outside the group are left out, never shown.
 */
export async function listActiveInViewer(
  db: Db,
  auth: TAuth,
  ids: readonly number[],
): Promise<TActiveInViewer> {
  if (!asksActiveInViewer(auth.roles)) throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
  const flags = groupFlags(await loadGroupPreferences(db, auth.user.groupId));
  if (!seesActiveInViewer(auth.roles, flags)) return { enabled: false, activeUsers: {} };
  if (ids.length === 0) return { enabled: true, activeUsers: {} };
  const ranked = db
    .select({
      reportStatusId: viewerActivity.reportStatusId,
      userEmail: users.email,
      lastActiveAt: viewerActivity.lastActiveAt,
      rank: sql<number>`row_number() over (partition by ${viewerActivity.reportStatusId} order by ${viewerActivity.lastActiveAt} desc, ${viewerActivity.userId})`.as(
        'rank',
      ),
    })
    .from(viewerActivity)
    .innerJoin(users, eq(users.id, viewerActivity.userId))
    .innerJoin(reportStatuses, eq(reportStatuses.id, viewerActivity.reportStatusId))
    .where(
      and(inArray(viewerActivity.reportStatusId, [...ids]), eq(reportStatuses.groupId, auth.user.groupId)),
    )
    .as('ranked');
  const rows = await db
    .select()
    .from(ranked)
    .where(sql`${ranked.rank} <= ${ACTIVE_IN_VIEWER_LIMIT}`)
    .orderBy(ranked.reportStatusId, ranked.rank);
  const activeUsers: TActiveInViewer['activeUsers'] = {};
  for (const row of rows) {
    (activeUsers[String(row.reportStatusId)] ??= []).push({
      userEmail: row.userEmail,
      lastActive: new Date(row.lastActiveAt).toISOString(),
    });
  }
  return { enabled: true, activeUsers };
}
