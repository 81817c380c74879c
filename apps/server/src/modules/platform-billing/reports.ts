import { asc, eq, sql } from 'drizzle-orm';
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

/**
 * Studies per group and month, counted in the database: received = rows made in the month, signed
 * off = rows first signed off in it (what an invoice counts).
 */
export async function readUsage(db: DbOrTx, range: TPeriodRangeQuery): Promise<TPlatformUsage> {
  periodsOf(range);
  const lo = periodBounds(range.from).lo;
  const hi = periodBounds(range.to).hi;
  const rows = await queryRows<{
    group_id: number;
    name: string;
    period: string;
    received: number;
    signed_off: number;
  }>(
    db,
    sql`
      WITH received AS (
        SELECT group_id, ${monthOf('created_at')} AS period, count(*)::int AS n
          FROM report_statuses WHERE created_at >= ${lo} AND created_at < ${hi} GROUP BY 1, 2
      ), signed AS (
        SELECT group_id, ${monthOf('first_signed_off_at')} AS period, count(*)::int AS n
          FROM report_statuses
         WHERE first_signed_off_at >= ${lo} AND first_signed_off_at < ${hi} GROUP BY 1, 2
      )
      SELECT g.id AS group_id, g.name, k.period, coalesce(r.n, 0) AS received, coalesce(s.n, 0) AS signed_off
        FROM (SELECT group_id, period FROM received UNION SELECT group_id, period FROM signed) k
        JOIN groups g ON g.id = k.group_id
        LEFT JOIN received r ON r.group_id = k.group_id AND r.period = k.period
        LEFT JOIN signed s ON s.group_id = k.group_id AND s.period = k.period
       ORDER BY k.period, g.name, g.id`,
  );
  return {
    rows: rows.map((r) => ({
      groupId: r.group_id,
      groupName: r.name,
      period: r.period,
      received: Number(r.received),
      signedOff: Number(r.signed_off),
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
    queryRows<{ period: string; received: number; signed_off: number }>(
      db,
      sql`SELECT k.period, coalesce(r.n, 0)::int AS received, coalesce(s.n, 0)::int AS signed_off FROM
            (SELECT unnest(ARRAY[${sql.join(
              periods.map((p) => sql`${p}`),
              sql`, `,
            )}]::text[]) AS period) k
            LEFT JOIN (SELECT ${monthOf('created_at')} AS period, count(*) AS n FROM report_statuses
                        WHERE created_at >= ${lo} AND created_at < ${hi} GROUP BY 1) r ON r.period = k.period
            LEFT JOIN (SELECT ${monthOf('first_signed_off_at')} AS period, count(*) AS n FROM report_statuses
                        WHERE first_signed_off_at >= ${lo} AND first_signed_off_at < ${hi} GROUP BY 1) s
                   ON s.period = k.period
           ORDER BY k.period`,
    ),
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
    usageByMonth: usage.map((u) => ({
      period: u.period,
      received: Number(u.received),
      signedOff: Number(u.signed_off),
    })),
    signUpsByMonth: periods.map((period) => ({ period, groups: Number(ups.get(period)?.n ?? 0) })),
    overdue: {
      count: Number(overdueTotals[0]?.n ?? 0),
      amount: toRupees(Number(overdueTotals[0]?.minor ?? 0)),
      invoices: overdueInvoices,
    },
    expiredGroups: Number(expired[0]?.n ?? 0),
  };
}
