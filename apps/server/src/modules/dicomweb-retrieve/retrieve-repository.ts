import { type SQL, and, asc, eq, sql } from 'drizzle-orm';
import { AppError, type TStudyScope } from '@radflow/core';
import type { Db } from '../../db/client.js';
import { type TSeriesRow, type TStudyRow, instances, series, studies } from '../../db/schema.js';
import { visibleStudies } from '../studies/study-access.js';

/**
 * Look-ups of WADO-RS by UIDs, each one indexed query with the caller's scope in its WHERE clause.
 * Something the caller may not see is indistinguishable from something that does not exist (404).
 */

/** Which study, series or instance a WADO-RS path names. */
export interface TTarget {
  studyUid: string;
  seriesUid?: string;
  sopUid?: string;
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);

function targetWhere(scope: TStudyScope, target: TTarget): SQL {
  const parts: SQL[] = [visibleStudies(scope), eq(studies.studyInstanceUid, target.studyUid)];
  if (target.seriesUid !== undefined) parts.push(eq(series.seriesInstanceUid, target.seriesUid));
  if (target.sopUid !== undefined) parts.push(eq(instances.sopInstanceUid, target.sopUid));
  return and(...parts) as SQL;
}

const describe = (target: TTarget) =>
  target.sopUid !== undefined ? 'Instance' : target.seriesUid !== undefined ? 'Series' : 'Study';

export async function findStudy(db: Db, scope: TStudyScope, studyUid: string): Promise<TStudyRow> {
  const [study] = await db
    .select()
    .from(studies)
    .where(and(visibleStudies(scope), eq(studies.studyInstanceUid, studyUid)));
  if (!study) throw notFound('Study');
  return study;
}

export async function findSeries(
  db: Db,
  scope: TStudyScope,
  studyUid: string,
  seriesUid: string,
): Promise<{ study: TStudyRow; series: TSeriesRow }> {
  const [row] = await db
    .select({ study: studies, series })
    .from(series)
    .innerJoin(studies, eq(studies.id, series.studyId))
    .where(targetWhere(scope, { studyUid, seriesUid }));
  if (!row) throw notFound('Series');
  return row;
}

/** What retrieval needs of an instance (everything but its metadata). */
export interface TStoredInstance {
  id: number;
  sopInstanceUid: string;
  seriesInstanceUid: string;
  studyInstanceUid: string;
  transferSyntaxUid: string;
  blobKey: string;
  sizeBytes: number;
  sha256: string;
  numberOfFrames: number;
  frames: Array<[number, number]> | null;
}

const storedColumns = {
  id: instances.id,
  sopInstanceUid: instances.sopInstanceUid,
  seriesInstanceUid: series.seriesInstanceUid,
  studyInstanceUid: studies.studyInstanceUid,
  transferSyntaxUid: instances.transferSyntaxUid,
  blobKey: instances.blobKey,
  sizeBytes: instances.sizeBytes,
  sha256: instances.sha256,
  numberOfFrames: instances.numberOfFrames,
  frames: instances.frames,
};

/** The stored files of a study, series or instance in series/instance order; 404 when none is visible. */
export async function listStoredInstances(
  db: Db,
  scope: TStudyScope,
  target: TTarget,
): Promise<TStoredInstance[]> {
  const rows = await db
    .select(storedColumns)
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .innerJoin(studies, eq(studies.id, instances.studyId))
    .where(targetWhere(scope, target))
    .orderBy(
      sql`${series.seriesNumber} asc nulls last`,
      asc(series.id),
      sql`${instances.instanceNumber} asc nulls last`,
      asc(instances.id),
    );
  if (rows.length === 0) throw notFound(describe(target));
  return rows;
}

export async function findStoredInstance(
  db: Db,
  scope: TStudyScope,
  target: Required<TTarget>,
): Promise<TStoredInstance & { metadata: Record<string, unknown> }> {
  const [row] = await db
    .select({ ...storedColumns, metadata: sql<Record<string, unknown>>`${instances.metadata}` })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .innerJoin(studies, eq(studies.id, instances.studyId))
    .where(targetWhere(scope, target));
  if (!row) throw notFound('Instance');
  return row;
}

/**
 * The PS3.18 JSON array of every instance's stored metadata, concatenated as text by the database:
 * no object tree is parsed or serialised here (ARCHITECTURE §4: series metadata is one indexed read).
 */
export async function metadataJson(db: Db, scope: TStudyScope, target: TTarget): Promise<string> {
  const [row] = await db
    .select({
      body: sql<
        string | null
      >`'[' || string_agg(${instances.metadata}::text, ',' order by ${series.seriesNumber} asc nulls last, ${series.id}, ${instances.instanceNumber} asc nulls last, ${instances.id}) || ']'`,
    })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .innerJoin(studies, eq(studies.id, instances.studyId))
    .where(targetWhere(scope, target));
  if (!row?.body) throw notFound(describe(target));
  return row.body;
}
