import { type SQL, sql } from 'drizzle-orm';
import type { TReportStatus, TStudyEventPayloads, TStudyEventType } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { studyEvents } from '../../db/schema.js';

/**
 * Who acted: a user (`userId`), or when no user did a label (a modality's AE title, 'Share link',
 * 'Payment provider'); neither when nobody can be named.
 */
export interface TStudyEventActor {
  userId?: number | null;
  label?: string | null;
}

export interface TStudyEventInput<T extends TStudyEventType> {
  type: T;
  /** The study row (report_statuses.id) the event belongs to. */
  reportStatusId: number;
  actor: TStudyEventActor;
  /** The row's status before and after; omitted by writers that do not look at it (archive, forwarding). */
  fromStatus?: TReportStatus | null;
  toStatus?: TReportStatus | null;
  /** The event's detail, as core's TStudyEventPayloads types it for `type`. */
  payload: TStudyEventPayloads[T];
  /** When it happened; the database's now() when omitted. */
  at?: Date;
  /**
   * Write it only if the row has no event of this type after `since` (with `sameDetail`: none with
   * the same value of that payload key), checked in the insert's own statement. For events a
   * reload or a resend would otherwise repeat (SHARE_OPENED, FOREIGN_IMAGES_REFUSED).
   */
  unlessSince?: { since: Date | SQL; sameDetail?: keyof TStudyEventPayloads[T] & string };
}

/**
 * The one way a study timeline row is written (issue 22 §2): in the caller's transaction, so the
 * change and its event commit together. `type` is core's TStudyEventType and `payload` the detail
 * of that type: a misspelt name or a wrong detail does not compile.
 */
export async function recordStudyEvent<T extends TStudyEventType>(
  db: DbOrTx,
  event: TStudyEventInput<T>,
): Promise<void> {
  const row = {
    reportStatusId: event.reportStatusId,
    eventType: event.type,
    actorUserId: event.actor.userId ?? null,
    actorLabel: event.actor.label ?? null,
    fromStatus: event.fromStatus ?? null,
    toStatus: event.toStatus ?? null,
    detail: event.payload ?? null,
    createdAt: event.at,
  };
  if (!event.unlessSince) {
    await db.insert(studyEvents).values(row);
    return;
  }
  const { since, sameDetail } = event.unlessSince;
  const after = since instanceof Date ? sql`${since.toISOString()}::timestamptz` : since;
  const detailValue = sameDetail ? (event.payload as Record<string, unknown>)[sameDetail] : undefined;
  const sameDetailClause = sameDetail
    ? sql`and x.detail ->> ${sameDetail}::text = ${String(detailValue)}::text`
    : sql``;
  await db.execute(sql`
    insert into ${studyEvents} (report_status_id, event_type, actor_user_id, actor_label, from_status, to_status, detail, created_at)
    select ${row.reportStatusId}::integer, ${row.eventType}::text, ${row.actorUserId}::integer,
      ${row.actorLabel}::text, ${row.fromStatus}::text, ${row.toStatus}::text,
      ${row.detail === null ? null : JSON.stringify(row.detail)}::jsonb,
      coalesce(${event.at ? event.at.toISOString() : null}::timestamptz, now())
    where not exists (
      select 1 from ${studyEvents} x
       where x.report_status_id = ${row.reportStatusId}::integer and x.event_type = ${row.eventType}::text
         and x.created_at > ${after} ${sameDetailClause})`);
}

/**
 * An event name for hand-written SQL (the archive's pipelined ingest statement): the name itself,
 * checked against core's union so that SQL text cannot misspell it either.
 */
export const studyEventName = <T extends TStudyEventType>(type: T): T => type;
