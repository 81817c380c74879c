import { and, desc, eq, inArray } from 'drizzle-orm';
import type { TJobName, TZipVariant } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { type TJobRow, jobs } from '../../db/schema.js';

/** What a run was asked to do (the `params` column). */
export interface TJobParams {
  zipAnonymizationTypeEnum: string | null;
  recreateZip: boolean;
  /** The zip the run makes, decided from the request and the group's policy. */
  variant: TZipVariant;
}

export const paramsOf = (row: TJobRow) => row.params as TJobParams;

/** The QUEUED or RUNNING run of a job for a report, if any (at most one: jobs_active_key). */
export function findActiveRun(db: DbOrTx, jobName: TJobName, reportStatusId: number) {
  return findLatestRun(db, jobName, reportStatusId, ['QUEUED', 'RUNNING']);
}

/** The newest run of a job for a report, or the newest in one of `statuses`. */
export async function findLatestRun(
  db: DbOrTx,
  jobName: TJobName,
  reportStatusId: number,
  statuses?: Array<TJobRow['status']>,
) {
  const [row] = await db
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.jobName, jobName),
        eq(jobs.reportStatusId, reportStatusId),
        statuses ? inArray(jobs.status, statuses) : undefined,
      ),
    )
    .orderBy(desc(jobs.id))
    .limit(1);
  return row ?? null;
}

/** The newest COMPLETED zip run of a report for a variant. */
export async function findCompletedZipRun(db: DbOrTx, reportStatusId: number, variant: TZipVariant) {
  const rows = await db
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.jobName, 'ZIP_STUDY'),
        eq(jobs.reportStatusId, reportStatusId),
        eq(jobs.status, 'COMPLETED'),
      ),
    )
    .orderBy(desc(jobs.id))
    .limit(20);
  return rows.find((row) => paramsOf(row).variant === variant && row.resultBlobKey) ?? null;
}

export async function updateRun(db: DbOrTx, id: number, values: Partial<typeof jobs.$inferInsert>) {
  await db.update(jobs).set(values).where(eq(jobs.id, id));
}
