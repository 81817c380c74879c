import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { CRITICAL_RESULT_CATEGORY_LABELS, formatDicomText, formatPersonName } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { criticalResults, reportStatuses, users } from '../../db/schema.js';
import { startPeriodicTask } from '../../periodic-task.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { CRITICAL_RESULTS_ACTOR, type TAddressee, deliverCriticalResult } from './critical-delivery.js';

/**
 * Escalates every critical result nobody acknowledged by its due time (the group's time when it was
 * raised), as of the app's clock (`ctx.now()`, which tests move). Safe with several server
 * processes: one UPDATE claims the due rows (`escalated_at is null and acknowledged_at is null and
 * escalation_due_at <= now … returning`); a second sweep at the same moment waits on the row locks
 * and then finds them escalated, so each result escalates once. The claim and its
 * CRITICAL_RESULT_ESCALATED events commit together; the group admins' SMS and e-mails go after.
 * Answers how many results escalated.
 */
export async function escalateDueCriticalResults(ctx: AppContext): Promise<number> {
  const now = ctx.now();
  const claimed = await ctx.db.transaction(async (tx) => {
    const due = await tx
      .update(criticalResults)
      .set({ escalatedAt: now })
      .where(
        and(
          isNull(criticalResults.escalatedAt),
          isNull(criticalResults.acknowledgedAt),
          lte(criticalResults.escalationDueAt, now),
        ),
      )
      .returning();
    if (due.length === 0) return [];
    const rows = await tx
      .select({
        id: reportStatuses.id,
        status: reportStatuses.status,
        patientName: reportStatuses.patientName,
        studyName: reportStatuses.studyName,
      })
      .from(reportStatuses)
      .where(inArray(reportStatuses.id, [...new Set(due.map((d) => d.reportStatusId))]));
    const admins = await tx
      .select({ groupId: users.groupId, email: users.email, mobile: users.mobileNumber })
      .from(users)
      .where(
        and(
          inArray(users.groupId, [...new Set(due.map((d) => d.groupId))]),
          eq(users.active, true),
          sql`(${users.roles} && array['ROLE_GROUP', 'ROLE_ADMIN']::text[])`,
        ),
      )
      .orderBy(users.id);
    const out = [];
    for (const result of due) {
      const row = rows.find((r) => r.id === result.reportStatusId);
      if (!row) continue;
      const groupAdmins = admins.filter((a) => a.groupId === result.groupId);
      await recordStudyEvent(tx, {
        type: 'CRITICAL_RESULT_ESCALATED',
        reportStatusId: row.id,
        actor: CRITICAL_RESULTS_ACTOR,
        fromStatus: row.status,
        toStatus: row.status,
        payload: {
          criticalResultId: result.id,
          to: groupAdmins.map((a) => a.email).join(', '),
          afterMinutes: result.escalateAfterMinutes,
        },
        at: now,
      });
      const addressees: TAddressee[] = groupAdmins.flatMap((a) => [
        { channel: 'EMAIL' as const, to: a.email },
        ...(a.mobile ? [{ channel: 'SMS' as const, to: a.mobile }] : []),
      ]);
      out.push({ result, row, addressees });
    }
    return out;
  });
  for (const { result, row, addressees } of claimed) {
    const study = [formatPersonName(row.patientName), formatDicomText(row.studyName)]
      .filter(Boolean)
      .join(', ');
    const about = study || `study ${row.id}`;
    await deliverCriticalResult(ctx, {
      result,
      row,
      addressees,
      subject: `Escalated critical result: ${about}`,
      body:
        `ESCALATED CRITICAL RESULT (${CRITICAL_RESULT_CATEGORY_LABELS[result.category]}) for ${about}: ` +
        `${result.finding}. Not acknowledged within ${result.escalateAfterMinutes} minutes; please act on it in Radflow.`,
    });
  }
  return claimed.length;
}

/** How often a server process looks for due results: well under the shortest escalation time (5 min). */
export const ESCALATION_SWEEP_EVERY_MS = 30_000;

/**
 * Runs the sweep on an unref'd timer in each server process (main.ts); the claim makes them safe
 * together. The returned function stops it and waits for a run in progress.
 */
export function startCriticalResultSweep(
  ctx: AppContext,
  log: { error(data: object, message: string): void },
  everyMs: number = ESCALATION_SWEEP_EVERY_MS,
): () => Promise<void> {
  return startPeriodicTask(
    () => escalateDueCriticalResults(ctx),
    everyMs,
    (error) => log.error({ err: error }, 'critical result escalation sweep failed'),
  );
}
