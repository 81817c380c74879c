import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { startPeriodicTask } from '../../periodic-task.js';

/**
 * Marks uploads complete (spec-core §3 firstUploadCompletedAt / lastUploadCompletedAt; issue 3 §2):
 * a study counts as fully uploaded once no instance has arrived for `quietSeconds`. One statement,
 * idempotent, so several server processes may run it at once. Returns how many report rows changed.
 *
 * `since` limits the statement to studies whose last instance arrived after it. Without it every
 * study of the archive is joined with its report row: about 2 s of database CPU on 1,000,000 studies,
 * which the periodic sweep must not pay every 15 s (worklist DECISIONS.md "Throughput").
 */
export async function markCompletedUploads(
  ctx: AppContext,
  quietSeconds: number,
  since?: Date,
): Promise<number> {
  return (await sweepOnce(ctx, quietSeconds, since)).changed;
}

async function sweepOnce(
  ctx: AppContext,
  quietSeconds: number,
  since: Date | undefined,
): Promise<{ changed: number; quietBefore: Date }> {
  const quietBefore = new Date(ctx.now().getTime() - quietSeconds * 1000);
  const window = since ? sql`and s.last_instance_at > ${since.toISOString()}::timestamptz` : sql``;
  const result = await ctx.db.execute(sql`
    update report_statuses r
       set last_upload_completed_at = s.last_instance_at,
           first_upload_completed_at = coalesce(r.first_upload_completed_at, s.last_instance_at),
           updated_at = now()
      from studies s
     where r.study_id = s.id
       and s.last_instance_at is not null
       and s.last_instance_at <= ${quietBefore.toISOString()}::timestamptz
       ${window}
       and (r.last_upload_completed_at is null or r.last_upload_completed_at < s.last_instance_at)`);
  const changed =
    (result as { affectedRows?: number; rowCount?: number | null }).rowCount ??
    (result as { affectedRows?: number }).affectedRows ??
    0;
  return { changed, quietBefore };
}

/**
 * An ingest transaction stamps `last_instance_at` when it starts and may commit a little later, so
 * each windowed sweep looks this far behind the previous sweep's bound.
 */
const WINDOW_OVERLAP_MS = 10 * 60_000;
/** A full sweep now and then catches whatever a window could miss (a stalled transaction, a clock step). */
const FULL_SWEEP_EVERY_MS = 60 * 60_000;

/**
 * Runs the sweep every few seconds (a quarter of the quiet time, 1 to 15 s) on an unref'd timer: the
 * first run and one an hour cover the whole archive (studies uploaded while the server was down),
 * the others only studies whose last instance arrived since the previous run's bound, less an
 * overlap. The returned function stops it and waits for a run in progress.
 */
export function startUploadSweep(
  ctx: AppContext,
  quietSeconds: number,
  log: { error(data: object, message: string): void },
): () => Promise<void> {
  const everyMs = Math.min(15_000, Math.max(1_000, (quietSeconds * 1000) / 4));
  let previousBound: Date | undefined;
  let lastFullSweepAt = 0;
  return startPeriodicTask(
    async () => {
      const now = ctx.now().getTime();
      const full = previousBound === undefined || now - lastFullSweepAt >= FULL_SWEEP_EVERY_MS;
      const since = full ? undefined : new Date(previousBound!.getTime() - WINDOW_OVERLAP_MS);
      const { quietBefore } = await sweepOnce(ctx, quietSeconds, since);
      previousBound = quietBefore;
      if (full) lastFullSweepAt = now;
    },
    everyMs,
    (error) => log.error({ err: error }, 'upload-complete sweep failed'),
  );
}
