import { and, asc, eq } from 'drizzle-orm';
import { type TReportAudio, reportAudioFileUrl } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { reportAudios, users } from '../../db/schema.js';

const audioColumns = {
  id: reportAudios.id,
  reportStatusId: reportAudios.reportStatusId,
  blobKey: reportAudios.blobKey,
  contentType: reportAudios.contentType,
  byteSize: reportAudios.byteSize,
  durationMs: reportAudios.durationMs,
  createdByUserId: reportAudios.createdByUserId,
  createdBy: users.email,
  createdByName: users.identifier,
  createdAt: reportAudios.createdAt,
};

export type TAudioRecord = {
  id: number;
  reportStatusId: number;
  blobKey: string;
  contentType: string;
  byteSize: number;
  durationMs: number | null;
  createdByUserId: number | null;
  createdBy: string | null;
  createdByName: string | null;
  createdAt: Date;
};

/** The API shape (spec-core §3 Audio: audioId, audioUrl), without the blob key. */
export function toReportAudio(row: TAudioRecord): TReportAudio {
  return {
    audioId: row.id,
    audioUrl: reportAudioFileUrl(row.reportStatusId, row.id),
    contentType: row.contentType,
    byteSize: row.byteSize,
    durationMs: row.durationMs,
    createdBy: row.createdBy,
    createdByName: row.createdByName,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The notes of one report row, oldest first (the caller has checked the row is visible). */
export async function listReportAudios(db: DbOrTx, reportStatusId: number): Promise<TAudioRecord[]> {
  return db
    .select(audioColumns)
    .from(reportAudios)
    .leftJoin(users, eq(users.id, reportAudios.createdByUserId))
    .where(eq(reportAudios.reportStatusId, reportStatusId))
    .orderBy(asc(reportAudios.createdAt), asc(reportAudios.id));
}

/** One note of a report row, or undefined (a note of another row is not found). */
export async function findReportAudio(
  db: DbOrTx,
  where: { reportStatusId: number; audioId: number },
): Promise<TAudioRecord | undefined> {
  const [row] = await db
    .select(audioColumns)
    .from(reportAudios)
    .leftJoin(users, eq(users.id, reportAudios.createdByUserId))
    .where(and(eq(reportAudios.reportStatusId, where.reportStatusId), eq(reportAudios.id, where.audioId)));
  return row;
}
