import {
  JOB_FAILED_PREVIOUSLY_WINDOW_MIN,
  type TJobProgress,
  type TJobRunResponse,
  type TJobName,
  type ZJobRequest,
  AppError,
} from '@radflow/core';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { jobs } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { zipBlobKey } from '../zip/build-study-zip.js';
import { assertZipAllowed, findVisibleReport } from '../zip/zip-access.js';
import type { JobRunner } from './job-runner.js';
import {
  type TJobParams,
  findActiveRun,
  findCompletedZipRun,
  findLatestRun,
  updateRun,
} from '../job-runs/jobs-repository.js';

type TJobRequestParsed = z.output<typeof ZJobRequest>;

/** Queue states after which a QUEUED or RUNNING row can no longer move: its worker is gone. */
const QUEUE_ENDED = new Set(['completed', 'failed', 'cancelled']);

/**
 * POST /batch/run (spec-core §4 Job run):
 * 1. the study must be visible (else 404) and, for the zip, downloadable by the caller (§5 rules);
 * 2. a QUEUED or RUNNING run of the same job and study → its status (the web says 'Job still
 *    running {name}' or polls);
 * 3. the newest run FAILED less than 30 minutes ago → FAILED_PREVIOUSLY with its error, unless
 *    forceTrigger;
 * 4. a finished zip of the same variant, newer than the study's last instance, and no recreateZip
 *    → COMPLETED;
 * 5. else a new run is queued → QUEUED.
 * Two requests racing in step 5 get one run (the partial unique index jobs_active_key).
 */
export async function runJob(
  ctx: AppContext,
  runner: JobRunner,
  auth: TAuth,
  request: TJobRequestParsed,
): Promise<TJobRunResponse> {
  const subject = await findVisibleReport(ctx, auth, request.reportStatusId);
  const variant = await assertZipAllowed(ctx, auth, subject, request.zipAnonymizationTypeEnum);
  const { jobName } = request;

  const active = await settleIfOrphaned(
    ctx,
    runner,
    await findActiveRun(ctx.db, jobName, subject.reportStatusId),
  );
  if (active) return { jobStatus: active.status, error: null };

  const latest = await findLatestRun(ctx.db, jobName, subject.reportStatusId, ['COMPLETED', 'FAILED']);
  const windowStart = ctx.now().getTime() - JOB_FAILED_PREVIOUSLY_WINDOW_MIN * 60_000;
  if (
    latest?.status === 'FAILED' &&
    !request.forceTrigger &&
    (latest.finishedAt ?? latest.createdAt).getTime() > windowStart
  ) {
    return { jobStatus: 'FAILED_PREVIOUSLY', error: latest.error };
  }

  if (!request.recreateZip) {
    const done = await findCompletedZipRun(ctx.db, subject.reportStatusId, variant);
    const isCurrent =
      done?.startedAt && (!subject.lastInstanceAt || subject.lastInstanceAt <= done.startedAt);
    if (done && isCurrent && (await ctx.blobs.size(zipBlobKey(subject.reportStatusId, variant))) !== null) {
      return { jobStatus: 'COMPLETED', error: null };
    }
  }

  const params: TJobParams = {
    zipAnonymizationTypeEnum: request.zipAnonymizationTypeEnum ?? null,
    recreateZip: request.recreateZip,
    variant,
  };
  const [run] = await ctx.db
    .insert(jobs)
    .values({
      jobName,
      reportStatusId: subject.reportStatusId,
      studyId: subject.studyId,
      seriesId: request.seriesId == null ? null : String(request.seriesId),
      params,
      patientName: variant === 'ANONYMIZED' ? '' : subject.patientName,
      createdByUserId: auth.user.id,
      createdAt: ctx.now(),
    })
    .onConflictDoNothing()
    .returning();
  if (!run) {
    // Another request queued it first.
    const other = await findActiveRun(ctx.db, jobName, subject.reportStatusId);
    return { jobStatus: other?.status ?? 'QUEUED', error: null };
  }
  try {
    const queueJobId = await runner.enqueue(jobName, run.id);
    await updateRun(ctx.db, run.id, { queueJobId });
  } catch (error) {
    await updateRun(ctx.db, run.id, {
      status: 'FAILED',
      error: 'The job could not be queued',
      finishedAt: ctx.now(),
    });
    throw error;
  }
  return { jobStatus: 'QUEUED', error: null };
}

/**
 * A QUEUED or RUNNING row whose queue job has ended (its worker died, or it expired) is marked
 * FAILED so that it neither blocks the study forever nor hides the failure.
 */
async function settleIfOrphaned(
  ctx: AppContext,
  runner: JobRunner,
  run: Awaited<ReturnType<typeof findActiveRun>>,
) {
  if (!run?.queueJobId) return run;
  const state = await runner.queueState(run.jobName as TJobName, run.queueJobId);
  if (state !== null && !QUEUE_ENDED.has(state)) return run;
  // Read again: the worker may have settled the row between the two reads.
  const again = await findActiveRun(ctx.db, run.jobName as TJobName, run.reportStatusId);
  if (again?.id !== run.id) return again;
  await updateRun(ctx.db, run.id, {
    status: 'FAILED',
    error: 'The job was interrupted; please run it again',
    finishedAt: ctx.now(),
  });
  return null;
}

/** The progress record of the newest run of a job for a study (404 when it never ran). */
export async function jobProgress(
  ctx: AppContext,
  auth: TAuth,
  jobName: TJobName,
  reportStatusId: number,
): Promise<TJobProgress> {
  const subject = await findVisibleReport(ctx, auth, reportStatusId);
  const run = await findLatestRun(ctx.db, jobName, subject.reportStatusId);
  if (!run) throw new AppError('NOT_FOUND', `No ${jobName} job has run for this study`);
  return {
    jobName,
    jobStatus: run.status,
    error: run.error,
    numberOfJob: run.numberOfJob,
    completedJob: run.completedJob,
    progress: Math.min(100, run.progress),
    fileDownloadProgress: Math.min(100, run.fileDownloadProgress),
    patientName: run.patientName,
  };
}
