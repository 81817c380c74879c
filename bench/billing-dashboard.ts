/**
 * The platform billing's figures (issue 26 §6, the "billing dashboard's first paint ≤ 1.5 s" as the
 * API's share of it, and a month's invoicing):
 *   on a fresh PGlite database (its own temp dir; the server's migrations) seeded set-based with
 *   GROUPS groups (each with a center and a subscription on a paid plan) and STUDIES report rows
 *   received and signed off over the last 13 months, then every past month invoiced and a payment for
 *   half the invoices:
 *   1. one month's invoicing over all groups (POST /api/platform-billing/invoices/issue) and its
 *      re-run (idempotent: 0 issued);
 *   2. GET /api/platform-billing/dashboard (12 months) and /overview, as the admin biller (app.inject,
 *      no network), p50/p95/max after warm-up.
 *
 *   3. with --paint: the Billing Dashboard's first paint in Debian's chromium on the built server
 *      over the same database (build first: npm run build), the figure itself.
 *
 * Usage: npx tsx bench/billing-dashboard.ts [--groups 300] [--studies 200000] [--samples 30]
 * [--paint [--loads 8]] [--out bench/results/<date>-billing-dashboard.json]
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PLATFORM_TIME_ZONE, SESSION_COOKIE_NAME, calendarDayIn, nextPeriod } from '@radflow/core';
import { buildApp } from '../apps/server/src/app.js';
import { openPglite } from '../apps/server/src/db/client.js';
import { groups, users } from '../apps/server/src/db/schema.js';
import { createSession } from '../apps/server/src/modules/credentials/sessions.js';
import { FsBlobStore } from '../apps/server/src/modules/storage/blob-store.js';
import { billingDashboardPainted, launchChromium, screenshotIn, timeFirstPaint } from './lib/first-paint.js';
import { BENCH_DEVICE_HEADERS, startBuiltServer } from './lib/radflow-server.js';
import { summary } from './lib/stats.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] as string) : fallback;
};
const GROUPS = Number(option('--groups', '300'));
const STUDIES = Number(option('--studies', '200000'));
const SAMPLES = Number(option('--samples', '30'));
const WARMUP = 3;
const OUT = option('--out', '');
// --paint: then the Billing Dashboard's first paint in Debian's chromium, on the built server
// (npm run build) over this seeded database, LOADS loads as a returning user.
const PAINT = args.includes('--paint');
const LOADS = Number(option('--loads', '8'));
const log = (line: string) => process.stderr.write(`${line}\n`);
const TARGET_MS = 1500;

function periodBack(day: string, months: number): string {
  const [y, m] = day.split('-').map(Number) as [number, number];
  const total = y * 12 + (m - 1) - months;
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}`;
}

async function call(
  app: FastifyInstance,
  cookie: string,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
) {
  const started = process.hrtime.bigint();
  const res = await app.inject({
    method,
    url,
    headers: { cookie: `${SESSION_COOKIE_NAME}=${cookie}`, ...BENCH_DEVICE_HEADERS },
    ...(payload ? { payload } : {}),
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return { ms, body: res.body };
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'radflow-bench-billing-'));
  // Where the built server (startBuiltServer, --paint) keeps its PGlite: DATA_DIR/db.
  const handle = await openPglite({ dataDir: join(dir, 'radflow-data', 'db') });
  let closed = false;
  const app = await buildApp({
    db: handle.db,
    blobs: await new FsBlobStore(join(dir, 'blobs')).init(),
    logger: { level: 'error', stream: process.stderr },
    // No load shedding: the seed leaves the event loop busy, and the figure is the call's own time.
    maxBusyMs: 0,
  });
  try {
    await handle.migrate();
    await app.ready();
    const db = handle.db;
    const now = new Date();
    const today = calendarDayIn(now, PLATFORM_TIME_ZONE);
    const first = periodBack(today, 12);
    const seedStarted = Date.now();
    // Set-based seed: groups (created over the year), a center each, a paid plan each (alternating).
    await db.execute(sql`INSERT INTO groups (name, created_at)
      SELECT 'Bench group ' || g, now() - ((g % 365) || ' days')::interval FROM generate_series(1, ${GROUPS}) g`);
    await db.execute(sql`INSERT INTO centers (group_id, name, email)
      SELECT id, 'Center of ' || id, 'c' || id || '@bench.local' FROM groups`);
    await db.execute(sql`INSERT INTO group_subscriptions (group_id, plan_id, status, started_at, expires_at, updated_by)
      SELECT g.id, p.id, 'ACTIVE', now() - interval '500 days',
             now() + CASE WHEN g.id % 10 = 0 THEN interval '-3 days' ELSE interval '20 days' END, 'bench'
        FROM groups g JOIN platform_plans p ON p.code = CASE WHEN g.id % 2 = 0 THEN 'PER_STUDY' ELSE 'SUBSCRIPTION' END`);
    await db.execute(sql`INSERT INTO studies (group_id, center_id, study_instance_uid)
      SELECT c.group_id, c.id, '2.25.' || s FROM generate_series(1, ${STUDIES}) s
        JOIN centers c ON c.id = 1 + (s % ${GROUPS})`);
    // Received over the last 395 days, signed off 0-3 days later (9 in 10). Inserted in the order they
    // would have been made (ORDER BY created_at), as a live table's rows lie: in a random order every
    // month's rows touch every heap page, which no real database looks like.
    await db.execute(sql`INSERT INTO report_statuses (study_id, group_id, center_id, status, created_at, first_signed_off_at, signed_off_at)
      SELECT id, group_id, center_id, CASE WHEN id % 10 = 0 THEN 'CREATED' ELSE 'SIGNED_OFF' END,
             now() - ((id * 0.6180339887 * 395)::bigint % 395 || ' days')::interval,
             CASE WHEN id % 10 = 0 THEN NULL
                  ELSE now() - ((id * 0.6180339887 * 395)::bigint % 395 || ' days')::interval + ((id % 4) || ' days')::interval END,
             NULL
        FROM studies ORDER BY 5`);
    await db.execute(sql`UPDATE report_statuses SET signed_off_at = first_signed_off_at`);
    await db.execute(sql`ANALYZE`);
    const [group] = await db
      .insert(groups)
      .values({ name: 'Radflow Platform', platformOperator: true })
      .returning();
    const [biller] = await db
      .insert(users)
      .values({
        email: 'bench-biller@bench.local',
        passwordHash: 'x',
        roles: ['ROLE_ADMIN_BILLER'],
        groupId: group!.id,
        identifier: 'Bench biller',
      })
      .returning();
    const cookie = (await createSession(db, { userId: biller!.id, deviceId: null, now })).token;
    log(`seeded ${GROUPS} groups, ${STUDIES} studies in ${Date.now() - seedStarted} ms`);

    // 1. Invoicing: every past month of the range; the newest is timed, then its re-run.
    const invoicing: Array<{ period: string; issued: number; ms: number }> = [];
    for (let p = first; p < today.slice(0, 7); p = nextPeriod(p)) {
      const { ms, body } = await call(app, cookie, 'POST', '/api/platform-billing/invoices/issue', {
        period: p,
      });
      invoicing.push({
        period: p,
        issued: (JSON.parse(body) as { issued: number }).issued,
        ms: Math.round(ms),
      });
    }
    const last = invoicing.at(-1)!;
    const rerun = await call(app, cookie, 'POST', '/api/platform-billing/invoices/issue', {
      period: last.period,
    });
    const rerunIssued = (JSON.parse(rerun.body) as { issued: number }).issued;
    log(
      `invoicing ${last.period}: ${last.issued} invoices in ${last.ms} ms; re-run ${Math.round(rerun.ms)} ms, issued ${rerunIssued}`,
    );
    // Half the invoices paid (set-based, as the ledger would hold them), so revenue has collections.
    await db.execute(sql`INSERT INTO platform_payments (group_id, invoice_id, amount_minor, mode, reference, provider, received_at, recorded_by)
      SELECT group_id, id, total_minor, 'BANK_TRANSFER', 'B' || id, 'MANUAL', issued_at + interval '5 days', 'bench'
        FROM platform_invoices WHERE id % 2 = 0 AND total_minor > 0`);
    await db.execute(
      sql`UPDATE platform_invoices SET paid_minor = total_minor, status = 'PAID' WHERE id % 2 = 0 AND total_minor > 0`,
    );

    // 2. The dashboard and the overview.
    const from = periodBack(today, 11);
    const to = today.slice(0, 7);
    const scenarios = [
      { key: 'dashboard12', url: `/api/platform-billing/dashboard?from=${from}&to=${to}` },
      { key: 'overview', url: '/api/platform-billing/overview' },
      { key: 'invoices', url: '/api/platform-billing/invoices' },
    ];
    const results: Record<string, ReturnType<typeof summary>> = {};
    for (const s of scenarios) {
      for (let i = 0; i < WARMUP; i++) await call(app, cookie, 'GET', s.url);
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) times.push((await call(app, cookie, 'GET', s.url)).ms);
      results[s.key] = summary(times);
      log(`${s.key}: ${JSON.stringify(results[s.key])}`);
    }
    let firstPaint = null;
    if (PAINT) {
      await app.close();
      await handle.close();
      closed = true;
      firstPaint = await timeBillingDashboardPaint(dir, cookie);
    }
    const out = {
      kind: 'pglite',
      groups: GROUPS,
      studies: STUDIES,
      invoicing: { month: last, rerun: { ms: Math.round(rerun.ms), issued: rerunIssued } },
      api: results,
      // The machine is shared: the 1-minute load average at the end says how busy it was.
      loadAverage1m: Math.round((loadavg()[0] ?? 0) * 10) / 10,
      targetFirstPaintMs: TARGET_MS,
      dashboardApiWithinTarget: (results.dashboard12?.p95Ms ?? Infinity) < TARGET_MS,
      firstPaint,
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    if (OUT) writeFileSync(OUT, `${JSON.stringify(out, null, 2)}\n`);
  } finally {
    if (!closed) {
      await app.close();
      await handle.close();
    }
    await rm(dir, { recursive: true, force: true });
  }
}

/** The Billing Dashboard in a browser, on the built server over the seeded data directory. */
async function timeBillingDashboardPaint(work: string, sessionToken: string) {
  const server = await startBuiltServer({ work, env: { SEED_DEMO: 'false' } });
  const browser = await launchChromium();
  try {
    const timed = await timeFirstPaint({
      browser,
      baseUrl: server.baseUrl,
      cookieHeader: `${SESSION_COOKIE_NAME}=${sessionToken}`,
      path: '/admin-page/billing-dashboard',
      painted: billingDashboardPainted,
      loads: LOADS,
      screenshot: screenshotIn(tmpdir(), 'radflow-bench-billing-dashboard'),
      log,
    });
    log(`screenshot: ${screenshotIn(tmpdir(), 'radflow-bench-billing-dashboard')}`);
    return {
      what: 'navigation to the totals and the revenue chart on screen, admin biller, returning user',
      ...timed,
      targetMs: TARGET_MS,
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
