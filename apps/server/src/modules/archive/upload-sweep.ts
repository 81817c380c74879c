import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';

/**
 * Marks uploads complete (spec-core §3 firstUploadCompletedAt / lastUploadCompletedAt; issue 3 §2):
 * a study counts as fully uploaded once no instance has arrived for `quietSeconds`. One statement,
 * idempotent, so several server processes may run it at once. Returns how many report rows changed.
 */
export async function markCompletedUploads(ctx: AppContext, quietSeconds: number): Promise<number> {
  const quietBefore = new Date(ctx.now().getTime() - quietSeconds * 1000).toISOString();
  const result = await ctx.db.execute(sql`
    update report_statuses r
       set last_upload_completed_at = s.last_instance_at,
           first_upload_completed_at = coalesce(r.first_upload_completed_at, s.last_instance_at),
           updated_at = now()
      from studies s
     where r.study_id = s.id
       and s.last_instance_at is not null
       and s.last_instance_at <= ${quietBefore}::timestamptz
       and (r.last_upload_completed_at is null or r.last_upload_completed_at < s.last_instance_at)`);
  return (
    (result as { affectedRows?: number; rowCount?: number | null }).rowCount ??
    (result as { affectedRows?: number }).affectedRows ??
    0
  );
}

/**
 * Runs {@link markCompletedUploads} every few seconds (a quarter of the quiet time, 1 to 15 s) on
 * an unref'd timer; the returned function stops it and waits for a run in progress.
 */
export function startUploadSweep(
  ctx: AppContext,
  quietSeconds: number,
  log: { error(data: object, message: string): void },
): () => Promise<void> {
  const everyMs = Math.min(15_000, Math.max(1_000, (quietSeconds * 1000) / 4));
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = markCompletedUploads(ctx, quietSeconds)
      .catch((error: unknown) => log.error({ err: error }, 'upload-complete sweep failed'))
      .finally(() => (running = null));
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
