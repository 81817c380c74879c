import { asc, eq } from 'drizzle-orm';
import type { TReportStatus, TStudyEvent } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { studyEvents, users } from '../../db/schema.js';

/** The row's timeline, oldest first (spec-core §2 study history view, report notification timeline). */
export async function listStudyEvents(db: DbOrTx, reportStatusId: number): Promise<TStudyEvent[]> {
  const rows = await db
    .select({
      id: studyEvents.id,
      reportStatusId: studyEvents.reportStatusId,
      eventType: studyEvents.eventType,
      actorEmail: users.email,
      actorName: users.identifier,
      actorLabel: studyEvents.actorLabel,
      fromStatus: studyEvents.fromStatus,
      toStatus: studyEvents.toStatus,
      detail: studyEvents.detail,
      createdAt: studyEvents.createdAt,
    })
    .from(studyEvents)
    .leftJoin(users, eq(users.id, studyEvents.actorUserId))
    .where(eq(studyEvents.reportStatusId, reportStatusId))
    .orderBy(asc(studyEvents.createdAt), asc(studyEvents.id));
  return rows.map((r) => ({
    ...r,
    fromStatus: r.fromStatus as TReportStatus | null,
    toStatus: r.toStatus as TReportStatus | null,
    detail: isRecord(r.detail) ? r.detail : null,
    createdAt: r.createdAt.toISOString(),
  }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
