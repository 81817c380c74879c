import { type SQL, and, asc, desc, eq } from 'drizzle-orm';
import {
  FILM_LIST_LIMIT,
  type TStudyAttachment,
  type TStudyAttachmentKind,
  type TStudyAttachmentLists,
  type TReportStatus,
  type TRole,
  type TStudyScope,
  readableAttachmentKinds,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { reportStatuses, studies, studyAttachments, users } from '../../db/schema.js';
import { visibleReportRows } from '../studies/study-access.js';

const attachmentColumns = {
  id: studyAttachments.id,
  reportStatusId: studyAttachments.reportStatusId,
  kind: studyAttachments.kind,
  path: studyAttachments.path,
  fileName: studyAttachments.fileName,
  contentType: studyAttachments.contentType,
  sizeBytes: studyAttachments.sizeBytes,
  blobKey: studyAttachments.blobKey,
  createdBy: users.email,
  createdAt: studyAttachments.createdAt,
};

type TAttachmentRecord = Omit<TStudyAttachment, 'createdAt'> & { createdAt: Date; blobKey: string };

/** The API shape: no blob key, the time as ISO text. */
export function toStudyAttachment(row: TAttachmentRecord): TStudyAttachment {
  const { blobKey: _blobKey, createdAt, ...rest } = row;
  return { ...rest, createdAt: createdAt.toISOString() };
}

/**
 * The three attachment lists of one report row (spec-core §3 historyAttachment, filmAttachment,
 * reportAttachment), each oldest first. The caller has checked that the row is visible: this is
 * the function GET /history/{id} calls.
 */
export async function listAttachments(db: DbOrTx, reportStatusId: number): Promise<TStudyAttachmentLists> {
  const rows = await db
    .select(attachmentColumns)
    .from(studyAttachments)
    .leftJoin(users, eq(users.id, studyAttachments.createdByUserId))
    .where(eq(studyAttachments.reportStatusId, reportStatusId))
    .orderBy(asc(studyAttachments.createdAt), asc(studyAttachments.id));
  const of = (kind: TStudyAttachmentKind) => rows.filter((r) => r.kind === kind).map(toStudyAttachment);
  return { historyAttachment: of('HISTORY'), filmAttachment: of('FILM'), reportAttachment: of('REPORT') };
}

/** One attachment of a report row by its opaque path, or undefined. */
export async function findAttachment(
  db: DbOrTx,
  where: { reportStatusId: number; kind: TStudyAttachmentKind; path: string },
): Promise<TAttachmentRecord | undefined> {
  const [row] = await db
    .select(attachmentColumns)
    .from(studyAttachments)
    .leftJoin(users, eq(users.id, studyAttachments.createdByUserId))
    .where(
      and(
        eq(studyAttachments.reportStatusId, where.reportStatusId),
        eq(studyAttachments.kind, where.kind),
        eq(studyAttachments.path, where.path),
      ),
    );
  return row;
}

/** Film attachments of the studies in `scope`, with their study's patient fields. */
function filmQuery(db: DbOrTx, scope: TStudyScope, extra?: SQL) {
  return db
    .select({
      ...attachmentColumns,
      patientName: reportStatuses.patientName,
      patientId: reportStatuses.patientId,
      studyName: reportStatuses.studyName,
    })
    .from(studyAttachments)
    .innerJoin(reportStatuses, eq(reportStatuses.id, studyAttachments.reportStatusId))
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .leftJoin(users, eq(users.id, studyAttachments.createdByUserId))
    .where(and(eq(studyAttachments.kind, 'FILM'), visibleReportRows(scope), extra));
}

/** GET /films/get: the newest film attachments the caller may see, at most FILM_LIST_LIMIT (spec-core §9). */
export async function listVisibleFilms(db: DbOrTx, scope: TStudyScope) {
  const rows = await filmQuery(db, scope)
    .orderBy(desc(studyAttachments.createdAt), desc(studyAttachments.id))
    .limit(FILM_LIST_LIMIT);
  return rows.map((r) => ({
    ...toStudyAttachment(r),
    patientName: r.patientName,
    patientId: r.patientId,
    studyName: r.studyName,
    name: r.path,
  }));
}

/** One film by its path, only when the caller may see its study. */
export async function findVisibleFilm(db: DbOrTx, scope: TStudyScope, path: string) {
  const [row] = await filmQuery(db, scope, eq(studyAttachments.path, path)).limit(1);
  return row;
}

/** The attachment lists the caller reads (core readableAttachmentKinds); the other kinds empty. */
export function attachmentsForReader(
  roles: readonly TRole[],
  status: TReportStatus,
  lists: TStudyAttachmentLists,
): TStudyAttachmentLists {
  const kinds = readableAttachmentKinds(roles, status);
  return {
    historyAttachment: kinds.includes('HISTORY') ? lists.historyAttachment : [],
    filmAttachment: kinds.includes('FILM') ? lists.filmAttachment : [],
    reportAttachment: kinds.includes('REPORT') ? lists.reportAttachment : [],
  };
}
