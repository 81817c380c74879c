import { and, eq, lt, sql } from 'drizzle-orm';
import { NOTIFICATION_WINDOW_DAYS } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { notificationSeen, studyEvents } from '../../db/schema.js';
import { startPeriodicTask } from '../../periodic-task.js';

/*
 * A seen mark (notification_seen) is read only while its event is inside the bell's window
 * (NOTIFICATION_WINDOW_DAYS): the bell never lists an older event, so its marks are dead rows that
 * would otherwise grow with every reader for ever. The sweep deletes them; what any user sees does
 * not change. The join touches only the seen rows (primary key of study_events), never the timeline.
 */

const DAY_MS = 24 * 3600 * 1000;

/** Deletes the seen marks of events past the window; answers how many went. */
export async function pruneSeenNotifications(ctx: AppContext): Promise<number> {
  const cutoff = new Date(ctx.now().getTime() - NOTIFICATION_WINDOW_DAYS * DAY_MS);
  const gone = await ctx.db
    .delete(notificationSeen)
    .where(
      sql`exists (select 1 from ${studyEvents} where ${and(
        eq(studyEvents.id, notificationSeen.studyEventId),
        lt(studyEvents.createdAt, cutoff),
      )})`,
    )
    .returning({ id: notificationSeen.studyEventId });
  return gone.length;
}

/** Once an hour is plenty: a mark past the window is never read, only kept. */
export const SEEN_PRUNE_EVERY_MS = 3_600_000;

/** Runs the prune in each server process (main.ts); two at once delete the same rows once. */
export function startSeenNotificationPrune(
  ctx: AppContext,
  log: { error(data: object, message: string): void },
  everyMs: number = SEEN_PRUNE_EVERY_MS,
): () => Promise<void> {
  return startPeriodicTask(
    () => pruneSeenNotifications(ctx),
    everyMs,
    (error) => log.error({ err: error }, 'seen notification prune failed'),
  );
}
