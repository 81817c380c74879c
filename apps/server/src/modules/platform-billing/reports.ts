import { asc, eq, inArray, sql } from 'drizzle-orm';
import {
  AppError,
  PLATFORM_TIME_ZONE,
  type TPeriodRangeQuery,
  type TPlatformDashboard,
  type TPlatformOverview,
  type TPlatformUsage,
  calendarDayIn,
  nextPeriod,
  toRupees,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { groupSubscriptions, groups, platformPlans } from '../../db/schema.js';
import { listInvoices, periodBounds } from './invoices.js';
import { queryRows } from './sql-rows.js';
import { subscriptionOut } from './subscriptions.js';
import { usageByGroupAndMonth } from './usage-months.js';

/** The longest range of months a usage or dashboard call reads. */
export const MAX_PERIODS = 24;

export const REPORT_MESSAGES = {
  rangeTooLong: `A range is at most ${MAX_PERIODS} months`,
} as const;

/** The months from..to, in order. */
export function periodsOf(range: TPeriodRangeQuery): string[] {
  const out: string[] = [];
  for (let p = range.from; p <= range.to; p = nextPeriod(p)) {
    out.push(p);
    if (out.length > MAX_PERIODS) throw new AppError('BAD_REQUEST', REPORT_MESSAGES.rangeTooLong, 'to');
  }
  return out;
}

const monthOf = (column: string) =>
  sql.raw(`to_char(${column} AT TIME ZONE '${PLATFORM_TIME_ZONE}', 'YYYY-MM')`);

/** Every plan and every group with its subscription and what it owes: the Admin Billing list. */
export async function readOverview(db: DbOrTx, now: Date): Promise<TPlatformOverview> {
  const plans = await db.select().from(platformPlans).orderBy(asc(platformPlans.id));
  const rows = await db
    .select({
      group: groups,
      sub: groupSubscriptions,
      outstandingMinor: sql<string>`coalesce((SELECT sum(i.total_minor - i.paid_minor) FROM platform_invoices i
        WHERE i.group_id = ${groups.id} AND i.kind = 'INVOICE' AND i.status = 'ISSUED'), 0)`,
    })
    .from(groups)
    .leftJoin(groupSubscriptions, eq(groupSubscriptions.groupId, groups.id))
    .orderBy(asc(groups.name), asc(groups.id));
  const planById = new Map(plans.map((p) => [p.id, p]));
  return {
    plans: plans.map((p) => ({
      id: p.id,
      code: p.code,
      name: p.name,
      kind: p.kind,
      monthlyFee: toRupees(p.monthlyFeeMinor),
      includedStudies: p.includedStudies,
      perStudyPrice: toRupees(p.perStudyMinor),
      trialDays: p.trialDays,
      currency: p.currency,
      active: p.active,
    })),
    groups: rows.map((r) => ({
      groupId: r.group.id,
      groupName: r.group.name,
      createdAt: r.group.createdAt.toISOString(),
      subscription: r.sub ? subscriptionOut(r.sub, planById.get(r.sub.planId)!, now) : null,
      outstanding: toRupees(Number(r.outstandingMinor)),
    })),
  };
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Studies per group and month (usage-months.ts): the Admin Billing usage table, by month then group name. */
export async function readUsage(db: DbOrTx, range: TPeriodRangeQuery, now: Date): Promise<TPlatformUsage> {
  const usage = await usageByGroupAndMonth(db, periodsOf(range), now);
  const ids = [...new Set(usage.map((u) => u.groupId))];
  const names = new Map(
    ids.length === 0
      ? []
      : (
          await db.select({ id: groups.id, name: groups.name }).from(groups).where(inArray(groups.id, ids))
        ).map((g) => [g.id, g.name]),
  );
  const rows = usage
    .filter((u) => names.has(u.groupId))
    .map((u) => ({ ...u, groupName: names.get(u.groupId)! }))
    .sort(
      (a, b) =>
        compareText(a.period, b.period) || compareText(a.groupName, b.groupName) || a.groupId - b.groupId,
    );
  return {
    rows: rows.map((r) => ({
      groupId: r.groupId,
      groupName: r.groupName,
      period: r.period,
      received: r.received,
      signedOff: r.signedOff,
    })),
  };
}

/**
 * The Billing and Admin Sales dashboards (one answer, two screens): revenue invoiced (credit notes
 * subtract) and collected per month, groups by plan, platform-wide usage, sign-ups, overdue invoices.
 */
export async function readPlatformDashboard(
  db: DbOrTx,
  range: TPeriodRangeQuery,
  now: Date,
): Promise<TPlatformDashboard> {
  const periods = periodsOf(range);
  const lo = periodBounds(range.from).lo;
  const hi = periodBounds(range.to).hi;
  const today = calendarDayIn(now, PLATFORM_TIME_ZONE);
  const [invoiced, collected, usage, signUps, byPlan, overdueTotals, expired] = await Promise.all([
    queryRows<{ period: string; minor: string }>(
      db,
      sql`SELECT period, sum(total_minor)::bigint AS minor FROM platform_invoices
           WHERE period >= ${range.from} AND period <= ${range.to} GROUP BY period`,
    ),
    queryRows<{ period: string; minor: string }>(
      db,
      sql`SELECT ${monthOf('received_at')} AS period, sum(amount_minor)::bigint AS minor FROM platform_payments
           WHERE received_at >= ${lo} AND received_at < ${hi} GROUP BY 1`,
    ),
    usageByGroupAndMonth(db, periods, now),
    queryRows<{ period: string; n: number }>(
      db,
      sql`SELECT ${monthOf('created_at')} AS period, count(*)::int AS n FROM groups
           WHERE created_at >= ${lo} AND created_at < ${hi} GROUP BY 1`,
    ),
    queryRows<{ code: string; name: string; n: number }>(
      db,
      sql`SELECT coalesce(p.code, 'NONE') AS code, coalesce(p.name, 'No plan') AS name, count(*)::int AS n
            FROM groups g
            LEFT JOIN group_subscriptions s ON s.group_id = g.id
            LEFT JOIN platform_plans p ON p.id = s.plan_id
           GROUP BY 1, 2 ORDER BY 1`,
    ),
    queryRows<{ n: number; minor: string }>(
      db,
      sql`SELECT count(*)::int AS n, coalesce(sum(total_minor - paid_minor), 0)::bigint AS minor
            FROM platform_invoices WHERE status = 'ISSUED' AND kind = 'INVOICE' AND due_date < ${today}`,
    ),
    queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM group_subscriptions
           WHERE status = 'EXPIRED' OR (status IN ('TRIAL', 'ACTIVE') AND expires_at <= ${now.toISOString()}::timestamptz)`,
    ),
  ]);
  const byPeriod = <T extends { period: string }>(rows: T[]) => new Map(rows.map((r) => [r.period, r]));
  const inv = byPeriod(invoiced);
  const col = byPeriod(collected);
  const ups = byPeriod(signUps);
  const overdueInvoices = (await listInvoices(db, { overdue: 'true' }, now)).slice(-20).reverse();
  return {
    from: range.from,
    to: range.to,
    revenueByMonth: periods.map((period) => ({
      period,
      invoiced: toRupees(Number(inv.get(period)?.minor ?? 0)),
      collected: toRupees(Number(col.get(period)?.minor ?? 0)),
    })),
    groupsByPlan: byPlan.map((r) => ({ planCode: r.code, planName: r.name, groups: Number(r.n) })),
    usageByMonth: periods.map((period) => {
      const month = usage.filter((u) => u.period === period);
      return {
        period,
        received: month.reduce((n, u) => n + u.received, 0),
        signedOff: month.reduce((n, u) => n + u.signedOff, 0),
      };
    }),
    signUpsByMonth: periods.map((period) => ({ period, groups: Number(ups.get(period)?.n ?? 0) })),
    overdue: {
      count: Number(overdueTotals[0]?.n ?? 0),
      amount: toRupees(Number(overdueTotals[0]?.minor ?? 0)),
      invoices: overdueInvoices,
    },
    expiredGroups: Number(expired[0]?.n ?? 0),
  };
}
