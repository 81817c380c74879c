import { sql } from 'drizzle-orm';
import { INVOICE_OVERDUE_LABEL, calendarDayIn } from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { startPeriodicTask } from '../../periodic-task.js';
import { loadGroupBillingFlags, rowsOf } from './ledger-context.js';

/*
 * Dunning (issue 26 §1; spec-core §3 `dunningLabels`): while a center has a tele invoice unpaid past
 * its due date, every study row of the center carries INVOICE_OVERDUE; when none is overdue any more
 * (paid, or credited), the label goes. Two set-based UPDATEs touching only rows whose label changes.
 */

/** The centers of a group with an overdue tele invoice on `today` (YYYY-MM-DD in the group's zone). */
export function overdueCentersSql(groupId: number, today: string) {
  return sql`select distinct center_id from billing_documents
    where group_id = ${groupId} and kind = 'TELE_INVOICE' and status in ('ISSUED', 'PARTIALLY_PAID')
      and due_date < ${today}::date and total_minor > paid_minor + credited_minor`;
}

export async function refreshDunning(
  tx: DbOrTx,
  groupId: number,
  today: string,
): Promise<{ added: number; removed: number }> {
  const added = await tx.execute(sql`
    update report_statuses set dunning_labels = array_append(dunning_labels, ${INVOICE_OVERDUE_LABEL})
    where group_id = ${groupId} and center_id in (${overdueCentersSql(groupId, today)})
      and not (${INVOICE_OVERDUE_LABEL} = any(dunning_labels))`);
  const removed = await tx.execute(sql`
    update report_statuses set dunning_labels = array_remove(dunning_labels, ${INVOICE_OVERDUE_LABEL})
    where group_id = ${groupId} and ${INVOICE_OVERDUE_LABEL} = any(dunning_labels)
      and center_id not in (${overdueCentersSql(groupId, today)})`);
  return { added: affected(added), removed: affected(removed) };
}

function affected(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return Number(r.rowCount ?? r.affectedRows ?? 0);
}

/** Every group with tele invoices, each on its own today (its display time zone): the hourly sweep. */
export async function refreshAllDunning(ctx: AppContext): Promise<void> {
  const groupIds = await rowsOf<{ group_id: number }>(
    ctx.db,
    sql`select distinct group_id from billing_documents where kind = 'TELE_INVOICE'`,
  );
  for (const { group_id: groupId } of groupIds) {
    const flags = await loadGroupBillingFlags(ctx.db, Number(groupId));
    const today = calendarDayIn(ctx.now(), flags.displayTimeZone);
    await ctx.db.transaction((tx) => refreshDunning(tx, Number(groupId), today));
  }
}

/** An invoice becomes overdue by the clock alone: each process re-checks hourly (main.ts). */
export function startDunningSweep(
  ctx: AppContext,
  log: { error(data: object, message: string): void },
  everyMs = 3_600_000,
): () => Promise<void> {
  return startPeriodicTask(
    () => refreshAllDunning(ctx),
    everyMs,
    (error) => log.error({ err: error }, 'tele invoice dunning sweep failed'),
  );
}

/** The refresh of one group, now (the screen's 'Refresh dunning' and the tests). */
export async function refreshGroupDunning(ctx: AppContext, groupId: number) {
  const flags = await loadGroupBillingFlags(ctx.db, groupId);
  const today = calendarDayIn(ctx.now(), flags.displayTimeZone);
  return ctx.db.transaction((tx) => refreshDunning(tx, groupId, today));
}
