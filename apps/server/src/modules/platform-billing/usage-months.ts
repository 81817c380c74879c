import { and, gte, inArray, lte, sql } from 'drizzle-orm';
import { PLATFORM_TIME_ZONE, calendarDayIn } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { platformUsageMonths, platformUsagePeriods } from '../../db/schema.js';
import { periodBounds } from './invoices.js';
import { queryRows } from './sql-rows.js';

/**
 * The platform's usage per group and month (received = report rows made in the month, signed off =
 * rows first signed off in it, what an invoice counts), for Admin Billing's usage and the two
 * dashboards. Counting a year of a busy platform row by row grows with every study (1.1 s at 200,000
 * on PGlite), so a closed month is counted once, into platform_usage_months, the first time a call
 * asks for it; only the open month is counted live.
 *
 * A month is closed an hour after it ended in PLATFORM_TIME_ZONE: a row made at its last instant has
 * committed by then, and neither count of a closed month can change afterwards (rows are made and
 * first signed off at the time they happen; first_signed_off_at is never rewritten). Two callers
 * that count the same month at once write the same numbers; the second insert does nothing.
 */

const CLOSE_MARGIN_MS = 60 * 60 * 1000;

export interface TGroupMonthUsage {
  groupId: number;
  period: string;
  received: number;
  signedOff: number;
}

/**
 * Counted from the report rows: every group and month of `periods` with any study. Each (group,
 * month) is two counts on the group-leading indexes (report_statuses_group_created_idx,
 * report_statuses_group_first_signed_off_idx) between the month's bounds: no per-row time-zone
 * arithmetic (to_char of every row cost 7 µs a row on PGlite), no scan of the whole table.
 */
async function countFromRows(db: DbOrTx, periods: readonly string[]): Promise<TGroupMonthUsage[]> {
  if (periods.length === 0) return [];
  const months = sql.join(
    periods.map((p) => {
      const { lo, hi } = periodBounds(p);
      return sql`(${p}::text, ${lo}, ${hi})`;
    }),
    sql`, `,
  );
  const rows = await queryRows<{ group_id: number; period: string; received: number; signed_off: number }>(
    db,
    sql`
      SELECT * FROM (
        SELECT g.id AS group_id, m.period,
          (SELECT count(*) FROM report_statuses r
            WHERE r.group_id = g.id AND r.created_at >= m.lo AND r.created_at < m.hi)::int AS received,
          (SELECT count(*) FROM report_statuses r
            WHERE r.group_id = g.id AND r.first_signed_off_at >= m.lo AND r.first_signed_off_at < m.hi)::int AS signed_off
          FROM groups g CROSS JOIN (VALUES ${months}) AS m(period, lo, hi)
      ) c
      WHERE c.received > 0 OR c.signed_off > 0`,
  );
  return rows.map((r) => ({
    groupId: Number(r.group_id),
    period: r.period,
    received: Number(r.received),
    signedOff: Number(r.signed_off),
  }));
}

/** Counts the closed months of `periods` not counted yet, and keeps them. */
async function countClosedMonths(db: DbOrTx, periods: string[]): Promise<void> {
  if (periods.length === 0) return;
  const counted = await db
    .select({ period: platformUsagePeriods.period })
    .from(platformUsagePeriods)
    .where(inArray(platformUsagePeriods.period, periods));
  const done = new Set(counted.map((c) => c.period));
  const missing = periods.filter((p) => !done.has(p));
  if (missing.length === 0) return;
  const rows = await countFromRows(db, missing);
  // The months' rows before their marks: a reader that sees a mark sees its rows.
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insert(platformUsageMonths)
      .values(rows.slice(i, i + 1000))
      .onConflictDoNothing();
  }
  await db
    .insert(platformUsagePeriods)
    .values(missing.map((period) => ({ period })))
    .onConflictDoNothing();
}

/**
 * Usage per group and month for `periods` (consecutive months, oldest first): the closed ones from
 * platform_usage_months (counted now if never before), the rest counted live. Only groups and
 * months with any study; in no particular order.
 */
export async function usageByGroupAndMonth(
  db: DbOrTx,
  periods: readonly string[],
  now: Date,
): Promise<TGroupMonthUsage[]> {
  if (periods.length === 0) return [];
  const openFrom = calendarDayIn(new Date(now.getTime() - CLOSE_MARGIN_MS), PLATFORM_TIME_ZONE).slice(0, 7);
  const closed = periods.filter((p) => p < openFrom);
  const open = periods.filter((p) => p >= openFrom);
  await countClosedMonths(db, closed);
  const stored =
    closed.length === 0
      ? []
      : await db
          .select({
            groupId: platformUsageMonths.groupId,
            period: platformUsageMonths.period,
            received: platformUsageMonths.received,
            signedOff: platformUsageMonths.signedOff,
          })
          .from(platformUsageMonths)
          .where(
            and(gte(platformUsageMonths.period, closed[0]!), lte(platformUsageMonths.period, closed.at(-1)!)),
          );
  const live = await countFromRows(db, open);
  return [...stored, ...live];
}
