import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import { jobs } from '../../db/schema.js';
import { paramsOf, updateRun } from '../job-runs/jobs-repository.js';
import { type TZipProgress, buildStudyZip } from './build-study-zip.js';

/** Progress is written at most this often (and at the end): the web polls every 4 s. */
const PROGRESS_WRITE_MS = 500;

const percent = (done: number, total: number) =>
  total > 0 ? Math.min(100, Math.floor((done * 100) / total)) : 100;

/** The reason shown to the user ('Job failed {name} {error}'): no server paths. */
function describeFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return 'A file of the study is missing from storage';
  if (code && /^E[A-Z]+$/.test(code)) return `A file of the study could not be read or written (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The ZIP_STUDY job (spec-core §3 Job): builds the report's zip, writing the progress record as it
 * goes (numberOfJob = files, completedJob = files zipped, progress = % of files,
 * fileDownloadProgress = % of bytes), then COMPLETED with the zip, or FAILED with the reason.
 */
export async function runZipJob(ctx: AppContext, runId: number, log: FastifyBaseLogger): Promise<void> {
  const [run] = await ctx.db
    .update(jobs)
    .set({ status: 'RUNNING', startedAt: ctx.now() })
    .where(and(eq(jobs.id, runId), eq(jobs.status, 'QUEUED')))
    .returning();
  if (!run) return; // already taken or settled

  let lastWrite = 0;
  let pending: Promise<void> = Promise.resolve();
  const onProgress = (p: TZipProgress) => {
    const now = Date.now();
    if (now - lastWrite < PROGRESS_WRITE_MS && p.completedFiles < p.numberOfFiles) return;
    lastWrite = now;
    pending = pending.then(() =>
      updateRun(ctx.db, runId, {
        numberOfJob: p.numberOfFiles,
        completedJob: p.completedFiles,
        progress: percent(p.completedFiles, p.numberOfFiles),
        fileDownloadProgress: percent(p.completedBytes, p.totalBytes),
      }).catch((error: unknown) => log.warn({ err: error, runId }, 'zip progress not written')),
    );
  };

  try {
    const zip = await buildStudyZip(ctx, {
      reportStatusId: run.reportStatusId,
      studyId: run.studyId,
      variant: paramsOf(run).variant,
      onProgress,
    });
    await pending;
    await updateRun(ctx.db, runId, {
      status: 'COMPLETED',
      progress: 100,
      fileDownloadProgress: 100,
      resultBlobKey: zip.blobKey,
      resultSizeBytes: zip.sizeBytes,
      finishedAt: ctx.now(),
    });
    log.info({ runId, reportStatusId: run.reportStatusId, sizeBytes: zip.sizeBytes }, 'zip ready');
  } catch (error) {
    await pending;
    const message = describeFailure(error);
    log.error({ err: error, runId, reportStatusId: run.reportStatusId }, 'zip job failed');
    await updateRun(ctx.db, runId, { status: 'FAILED', error: message.slice(0, 500), finishedAt: ctx.now() });
  }
}
