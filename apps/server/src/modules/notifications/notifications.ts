import { type SQL, and, count, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import {
  ASSIGNEE_FIELDS,
  BELL_EVENT_TYPES,
  NOTIFICATION_WINDOW_DAYS,
  type TNotification,
  type TNotificationsPage,
  type TNotificationsQuery,
  type TStudyEventAudience,
  type TStudyEventType,
  ZNotificationPreferences,
  bellRuleOf,
  heldAudiences,
  popupKindsOf,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { notificationSeen, reportStatuses, studies, studyEvents, users } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { readStoredSection } from '../preferences/preferences.js';
import { scopeOfAuth, visibleReportRows } from '../studies/study-access.js';

/*
 * A user's notifications are computed from the study timeline (README.md): the events of the types
 * they are an audience of (core STUDY_EVENT_RULES), on rows they may see, not their own, within
 * NOTIFICATION_WINDOW_DAYS. Nothing is written per user when an event happens; reading one writes
 * a notification_seen row.
 */

const e = studyEvents;
const rs = reportStatuses;

/**
 * The relation of one audience to the event and its row, in SQL: the same relations as core
 * `isInAudience` (notifications/audiences.ts), which the core unit tests pin.
 */
function relation(audience: TStudyEventAudience, auth: TAuth, held: readonly TStudyEventAudience[]): SQL {
  const userId = auth.user.id;
  const rowDoctor = sql`(${rs.assignedToUserId} = ${userId} or ${rs.lockedByUserId} = ${userId})`;
  const ofCenter = auth.user.centerId === null ? sql`false` : sql`${rs.centerId} = ${auth.user.centerId}`;
  switch (audience) {
    case 'REPORT_TEAM':
      return sql`false`;
    case 'ASSIGNEE': {
      const named = Object.entries(ASSIGNEE_FIELDS).map(
        ([type, field]) => sql`(${e.eventType} = ${type} and ${e.detail} ->> ${field} = ${auth.user.email})`,
      );
      return sql`(${sql.join(named, sql` or `)})`;
    }
    case 'ASSIGNED_DOCTOR':
      return rowDoctor;
    case 'CENTER':
      return ofCenter;
    case 'ROUTERS':
    case 'VERIFIERS':
      return sql`true`;
    case 'REFERRING_DOCTOR':
      return sql`${rs.referringDoctorUserId} = ${userId}`;
    case 'ADDRESSEE': {
      const addressedTo = (to: string, when: SQL) => sql`(${e.detail} ->> 'assignedTo' = ${to} and ${when})`;
      const alternatives = [
        sql`coalesce(${e.detail} -> 'mentions' @> jsonb_build_array(${userId}::int), false)`,
        ...(held.includes('CENTER') ? [addressedTo('center', ofCenter)] : []),
        ...(held.includes('ASSIGNED_DOCTOR') ? [addressedTo('radiologist', rowDoctor)] : []),
        ...(held.includes('ROUTERS') ? [addressedTo('admin', sql`true`)] : []),
      ];
      return sql`(${sql.join(alternatives, sql` or `)})`;
    }
  }
}

/**
 * The caller's notifications as a condition on study_events joined to their report row: the types
 * whose audience they hold (with its relation), the `reaching` status, not their own action, within
 * the window, on rows they may see (the access rule).
 */
function notificationsOf(ctx: AppContext, auth: TAuth): SQL | null {
  const held = heldAudiences({ roles: auth.roles, centerId: auth.user.centerId });
  const byType: SQL[] = [];
  for (const type of BELL_EVENT_TYPES) {
    const rule = bellRuleOf(type);
    if (!rule) continue;
    const audiences = rule.audiences.filter((a) => held.includes(a));
    if (audiences.length === 0) continue;
    const reaching = rule.reaching
      ? sql` and ${e.toStatus} = ${rule.reaching} and ${e.fromStatus} is distinct from ${rule.reaching}`
      : sql``;
    const told = sql.join(
      audiences.map((a) => relation(a, auth, held)),
      sql` or `,
    );
    byType.push(sql`(${e.eventType} = ${type}${reaching} and (${told}))`);
  }
  if (byType.length === 0) return null;
  const types = BELL_EVENT_TYPES.filter((t) => bellRuleOf(t)?.audiences.some((a) => held.includes(a)));
  const since = new Date(ctx.now().getTime() - NOTIFICATION_WINDOW_DAYS * 24 * 3600 * 1000);
  return and(
    inArray(e.eventType, types as TStudyEventType[]),
    sql`${e.createdAt} > ${since.toISOString()}::timestamptz`,
    sql`${e.actorUserId} is distinct from ${auth.user.id}`,
    visibleReportRows(scopeOfAuth(auth)),
    sql`(${sql.join(byType, sql` or `)})`,
  )!;
}

const seenByCaller = (auth: TAuth) =>
  and(eq(notificationSeen.studyEventId, e.id), eq(notificationSeen.userId, auth.user.id));

async function unseenCount(ctx: AppContext, auth: TAuth, mine: SQL): Promise<number> {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(e)
    .innerJoin(rs, eq(rs.id, e.reportStatusId))
    .leftJoin(notificationSeen, seenByCaller(auth))
    .where(and(mine, isNull(notificationSeen.userId)));
  return row?.n ?? 0;
}

/** GET /api/notifications: the unseen count, the newest page (before `before`), the pop-up choice. */
export async function listNotifications(
  ctx: AppContext,
  auth: TAuth,
  query: TNotificationsQuery,
): Promise<TNotificationsPage> {
  const stored = ZNotificationPreferences.safeParse(
    (await readStoredSection(ctx.db, auth.user, 'NOTIFICATION_PREFERENCES')) ?? {},
  );
  const choice = stored.success ? stored.data : ZNotificationPreferences.parse({});
  const preferences = {
    popupKinds: popupKindsOf(auth.roles, choice.popupKinds),
    browserNotifications: choice.browserNotifications,
  };
  const mine = notificationsOf(ctx, auth);
  if (!mine) return { unseen: 0, notifications: [], more: false, ...preferences };
  const rows = await ctx.db
    .select({
      id: e.id,
      eventType: e.eventType,
      reportStatusId: e.reportStatusId,
      studyId: rs.studyId,
      studyInstanceUid: studies.studyInstanceUid,
      apiVersion: rs.apiVersion,
      patientName: rs.patientName,
      studyName: rs.studyName,
      actorName: users.identifier,
      actorLabel: e.actorLabel,
      at: e.createdAt,
      seenBy: notificationSeen.userId,
    })
    .from(e)
    .innerJoin(rs, eq(rs.id, e.reportStatusId))
    .innerJoin(studies, eq(studies.id, rs.studyId))
    .leftJoin(users, eq(users.id, e.actorUserId))
    .leftJoin(notificationSeen, seenByCaller(auth))
    .where(query.before === undefined ? mine : and(mine, lt(e.id, query.before)))
    .orderBy(desc(e.id))
    .limit(query.limit + 1);
  const notifications: TNotification[] = rows.slice(0, query.limit).flatMap((r) => {
    const kind = bellRuleOf(r.eventType)?.kind;
    if (!kind) return [];
    return [
      {
        id: r.id,
        kind,
        eventType: r.eventType,
        reportStatusId: r.reportStatusId,
        studyId: r.studyId,
        studyInstanceUid: r.studyInstanceUid,
        apiVersion: r.apiVersion,
        patientName: r.patientName,
        studyName: r.studyName,
        actor: r.actorName ?? r.actorLabel ?? null,
        at: r.at.toISOString(),
        seen: r.seenBy !== null,
      },
    ];
  });
  return {
    unseen: await unseenCount(ctx, auth, mine),
    notifications,
    more: rows.length > query.limit,
    ...preferences,
  };
}

/**
 * POST /api/notifications/seen {ids} (or every one with `ids` null: all-seen): the caller's unseen
 * notifications among them become seen. Ids that are not the caller's notifications match nothing
 * and are ignored, so the call says nothing about other users' events.
 */
export async function markNotificationsSeen(
  ctx: AppContext,
  auth: TAuth,
  ids: readonly number[] | null,
): Promise<{ seen: number; unseen: number }> {
  const mine = notificationsOf(ctx, auth);
  if (!mine) return { seen: 0, unseen: 0 };
  const which = ids === null ? mine : and(mine, inArray(e.id, [...ids]))!;
  const unseen = ctx.db
    .select({
      userId: sql<number>`${auth.user.id}::int`.as('user_id'),
      studyEventId: e.id,
      seenAt: sql<Date>`${ctx.now().toISOString()}::timestamptz`.as('created_at'),
    })
    .from(e)
    .innerJoin(rs, eq(rs.id, e.reportStatusId))
    .leftJoin(notificationSeen, seenByCaller(auth))
    .where(and(which, isNull(notificationSeen.userId)));
  const inserted = await ctx.db
    .insert(notificationSeen)
    .select(unseen)
    .onConflictDoNothing()
    .returning({ id: notificationSeen.studyEventId });
  return { seen: inserted.length, unseen: await unseenCount(ctx, auth, mine) };
}
