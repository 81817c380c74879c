/**
 * The summaries at size (issue 24 §5 Figures), on the worklist bench's seeded database
 * (bench/lib/worklist-seed.ts: 200,000 studies on PGlite, 1,000,000 on PostgreSQL with DATABASE_URL):
 *   - POST /api/report-summary/ (a page of 20/50) and /api/total-summary/: the group admin over 7-30
 *     days by upload and by sign-off time, the busiest centers' users, the doctors — p95 ≤ 100 ms;
 *   - POST /api/query/report-summary over 180 days (the busiest centers and the doctors) — p95 ≤ 300 ms;
 *   - 'Download Excel' of 100,000 rows over HTTP (a group of its own, 100,000 studies in 23 days,
 *     added once to the bench database): time ≤ 10 s and the growth of this process's RSS (server,
 *     and PGlite, which runs inside it) ≤ 100 MB, the file read to the end and counted.
 * Timed in process (app.inject for the calls, a real socket for the file). Prints a table; --json
 * prints the figures. Run with TMPDIR set to a folder of your own when other benches may use the
 * shared PGlite database at the same time (this one adds rows).
 *
 * Usage: [DATABASE_URL=postgres://…] npx tsx bench/summaries.ts [--pg-studies 1000000]
 *        [--pglite-studies 200000] [--samples 120] [--warmup 10] [--only postgres|pglite] [--json]
 *        [--excel-only] [--explain]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE_NAME } from '@radflow/core';
import { buildApp } from '../apps/server/src/app.js';
import { createSession } from '../apps/server/src/modules/credentials/sessions.js';
import { savePreferenceSection } from '../apps/server/src/modules/preferences/preferences.js';
import { FsBlobStore } from '../apps/server/src/modules/storage/blob-store.js';
import { BENCH_DEVICE_HEADERS } from './lib/radflow-server.js';
import { summary } from './lib/stats.js';
import {
  type TBenchDatabase,
  type TCapturedQuery,
  captureQueries,
  openBenchDatabase,
} from './lib/worklist-bench-db.js';
import { type TBenchDbKind, sessionOf } from './lib/worklist-seed.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const only = (() => {
  const at = args.indexOf('--only');
  return at >= 0 ? (args[at + 1] as TBenchDbKind) : null;
})();
const samples = option('--samples', 120);
const warmup = option('--warmup', 10);
const asJson = args.includes('--json');
const out = (line: string) => process.stdout.write(`${line}\n`);
const log = (line: string) => process.stderr.write(`${line}\n`);

const DAY_MS = 24 * 60 * 60 * 1000;
const EXCEL_ROWS = 100_000;
const EXCEL_GROUP = 'Summary excel bench';
const TARGETS = { summaryP95Ms: 100, advancedP95Ms: 300, excelMs: 10_000, excelRssMb: 100 };

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A deterministic spread of values over [0, 1) (Weyl sequence), so runs are comparable. */
const spread = (i: number) => (i * 0.6180339887498949) % 1;

interface TCall {
  url: string;
  cookie: string;
  body: Record<string, unknown>;
}

async function send(app: FastifyInstance, call: TCall): Promise<number> {
  const started = process.hrtime.bigint();
  const response = await app.inject({
    method: 'POST',
    url: call.url,
    headers: {
      cookie: `${SESSION_COOKIE_NAME}=${call.cookie}`,
      'content-type': 'application/json',
      ...BENCH_DEVICE_HEADERS,
    },
    payload: JSON.stringify(call.body),
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.statusCode !== 200) {
    throw new Error(
      `${call.url} ${JSON.stringify(call.body)}: ${response.statusCode} ${response.body.slice(0, 300)}`,
    );
  }
  return ms;
}

/**
 * The callers besides the seed's admins and doctors: a ROLE_CENTER user at each of the big group's
 * three busiest centers, and the Excel group (its admin); made once, found again on a second run.
 */
async function extraAccounts(bench: TBenchDatabase) {
  const session = await sessionOf(bench.kind, bench.handle);
  try {
    const group = bench.seed.groups[0]!;
    const busiest = await session.rows<{ id: number }>(
      `SELECT center_id AS id FROM report_statuses WHERE group_id = ${group.id} GROUP BY center_id ORDER BY count(*) DESC LIMIT 3`,
    );
    for (const [i, center] of busiest.entries()) {
      await session.exec(`INSERT INTO users (email, password_hash, roles, group_id, center_id, identifier)
        SELECT 'sum-center-${i + 1}@summary.bench', password_hash, '{ROLE_CENTER}', group_id, ${center.id}, 'Summary center ${i + 1}'
        FROM users WHERE id = ${group.admin.id} ON CONFLICT DO NOTHING`);
    }
    const centerUsers = await session.rows<{ id: number }>(
      `SELECT id FROM users WHERE email LIKE 'sum-center-%@summary.bench' ORDER BY id`,
    );
    let [excelGroup] = await session.rows<{ id: number }>(
      `SELECT id FROM groups WHERE name = '${EXCEL_GROUP}'`,
    );
    if (!excelGroup) {
      log(`adding ${EXCEL_ROWS} studies in 23 days for the Excel figure`);
      [excelGroup] = await session.rows<{ id: number }>(
        `INSERT INTO groups (name) VALUES ('${EXCEL_GROUP}') RETURNING id`,
      );
      const g = excelGroup!.id;
      const [center] = await session.rows<{ id: number }>(
        `INSERT INTO centers (group_id, name, email, ae_titles) VALUES (${g}, 'Excel Imaging', 'excel-center@summary.bench', '{EXCEL01}') RETURNING id`,
      );
      await session.exec(`INSERT INTO users (email, password_hash, roles, group_id, identifier)
        SELECT 'sum-excel-admin@summary.bench', password_hash, '{ROLE_ADMIN}', ${g}, 'Excel admin' FROM users WHERE id = ${group.admin.id}`);
      await session.exec(`INSERT INTO studies (group_id, center_id, study_instance_uid, patient_name, patient_id,
          study_date, study_time, study_description, modalities, series_count, instance_count, created_at)
        SELECT ${g}, ${center!.id}, '2.25.2718281828' || i, 'PATIENT^NUMBER ' || i, 'EX' || (i % 40000),
          to_char(now() - i * interval '20 seconds', 'YYYYMMDD'), '101500', 'CT BRAIN PLAIN', '{CT}', 3, 120,
          now() - i * interval '20 seconds'
        FROM generate_series(1, ${EXCEL_ROWS}) i`);
      await session.exec(`INSERT INTO report_statuses (study_id, group_id, center_id, status, study_name, history,
          patient_name, patient_id, referring_physician_name, signed_off_at, first_signed_off_at,
          first_upload_completed_at, last_upload_completed_at, created_at, updated_at)
        SELECT s.id, s.group_id, s.center_id, CASE WHEN s.id % 5 = 0 THEN 'CREATED' ELSE 'SIGNED_OFF' END,
          'CT Brain Plain', 'Headache for three days, vomiting', s.patient_name, s.patient_id, 'DR^REFERRER',
          CASE WHEN s.id % 5 = 0 THEN NULL ELSE s.created_at + interval '3 hours' END,
          CASE WHEN s.id % 5 = 0 THEN NULL ELSE s.created_at + interval '3 hours' END,
          s.created_at + interval '5 minutes', s.created_at + interval '5 minutes', s.created_at, s.created_at
        FROM studies s WHERE s.group_id = ${g}`);
      for (const table of ['studies', 'report_statuses', 'users'])
        await session.exec(`VACUUM ANALYZE ${table}`);
    }
    const [excelAdmin] = await session.rows<{ id: number }>(
      `SELECT id FROM users WHERE email = 'sum-excel-admin@summary.bench'`,
    );
    return {
      centerUserIds: centerUsers.map((u) => u.id),
      excelAdminId: excelAdmin!.id,
      groupIds: [...bench.seed.groups.map((g) => g.id), excelGroup!.id],
    };
  } finally {
    session.release();
  }
}

interface TScenario {
  key: string;
  label: string;
  target: number;
  request(i: number): TCall;
}

interface TScenarioResult {
  key: string;
  label: string;
  target: number;
  n: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  explain?: string[];
}

async function explainCall(bench: TBenchDatabase, app: FastifyInstance, call: TCall): Promise<string[]> {
  const captured: TCapturedQuery[] = [];
  const stop = captureQueries(bench.handle, captured);
  try {
    await send(app, call);
  } finally {
    stop();
  }
  const plans: string[] = [];
  for (const query of captured.filter(
    (q) => /^\s*select\b/i.test(q.text) && q.text.includes('report_statuses'),
  )) {
    plans.push(`-- ${query.text.slice(0, 400)}\n${await bench.explain(query.text, query.params)}`);
  }
  return plans;
}

/** The file over a real socket, read to the end; this process's RSS sampled every 20 ms meanwhile. */
async function excelFigure(app: FastifyInstance, cookie: string) {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const body = {
    page: 0,
    size: 20,
    sortOrder: 'DESC',
    orderingCriteria: 'id',
    filters: {},
    startTime: day(Date.now() - 29 * DAY_MS),
    endTime: day(Date.now() + DAY_MS),
    summaryType: 'UPLOAD_TIME',
  };
  const runs: Array<{ ms: number; cpuMs: number; bytes: number; rssGrowthMb: number; rows: number }> = [];
  for (let run = 0; run < 3; run++) {
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const started = process.hrtime.bigint();
    // CPU time of this process (server, PGlite and the reading client): on a shared machine the
    // wall time is mostly waiting for a core.
    const cpuBefore = process.cpuUsage();
    const response = await fetch(`${address}/api/report-summary/xlsx`, {
      method: 'POST',
      headers: {
        cookie: `${SESSION_COOKIE_NAME}=${cookie}`,
        'content-type': 'application/json',
        ...BENCH_DEVICE_HEADERS,
      },
      body: JSON.stringify(body),
    });
    if (!response.ok || !response.body) throw new Error(`xlsx: ${response.status} ${await response.text()}`);
    let bytes = 0;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const totals = (await (
      await fetch(`${address}/api/total-summary/`, {
        method: 'POST',
        headers: {
          cookie: `${SESSION_COOKIE_NAME}=${cookie}`,
          'content-type': 'application/json',
          ...BENCH_DEVICE_HEADERS,
        },
        body: JSON.stringify(body),
      })
    ).json()) as { total: number };
    runs.push({ ms, cpuMs, bytes, rssGrowthMb: (peak - before) / 2 ** 20, rows: totals.total });
    const heapMb = () => (process.memoryUsage().heapUsed / 2 ** 20).toFixed(0);
    const usedBeforeGc = heapMb();
    global.gc?.();
    log(
      `  heap used ${usedBeforeGc} MB${global.gc ? `, ${heapMb()} MB after a full GC (what the file left alive)` : ''}`,
    );
    log(
      `excel run ${run + 1}: ${totals.total} rows, ${(bytes / 2 ** 20).toFixed(1)} MB in ${ms.toFixed(0)} ms (CPU ${cpuMs.toFixed(0)} ms), RSS +${((peak - before) / 2 ** 20).toFixed(1)} MB`,
    );
  }
  return runs;
}

async function measureDatabase(kind: TBenchDbKind, studies: number) {
  const bench = await openBenchDatabase({
    kind,
    studies,
    ...(process.env.DATABASE_URL ? { postgresUrl: process.env.DATABASE_URL } : {}),
    log,
  });
  const blobRoot = await mkdtemp(join(tmpdir(), 'radflow-bench-blobs-'));
  const extra = await extraAccounts(bench);
  // The advanced summary is a switch of the group (spec-core §2 menus).
  for (const groupId of extra.groupIds) {
    await savePreferenceSection(bench.handle.db, {
      ownerId: groupId,
      section: 'USER_ADMIN_VISIBLE_PREFERENCES',
      value: { enableElasticReportSummary: true },
      updatedBy: 'bench',
    });
  }
  const app = await buildApp({
    db: bench.handle.db,
    blobs: await new FsBlobStore(blobRoot).init(),
    logger: { level: 'error', stream: process.stderr },
    // Calls one after another with PGlite in this thread never let a timer run: the busy-loop
    // shedding would refuse them; this measures the calls, not the shedding.
    maxBusyMs: 0,
  });
  try {
    await app.ready();
    const cookies = new Map<number, string>();
    const seedUsers = bench.seed.groups.flatMap((g) => [g.admin, ...g.doctors]).map((u) => u.id);
    for (const userId of [...seedUsers, ...extra.centerUserIds, extra.excelAdminId]) {
      const { token } = await createSession(bench.handle.db, { userId, deviceId: null, now: new Date() });
      cookies.set(userId, token);
    }
    const cookieOf = (id: number) => cookies.get(id) as string;
    const big = bench.seed.groups[0]!;
    const doctors = bench.seed.groups.flatMap((g) => g.doctors);
    const newest = bench.seed.newest.getTime();
    const oldest = bench.seed.oldest.getTime();
    /** A range of `days` days at a spread place within the seed's two years. */
    const range = (i: number, days: number) => {
      const start = oldest + spread(i) * (newest - oldest - days * DAY_MS);
      return { startTime: day(start), endTime: day(start + (days - 1) * DAY_MS) };
    };
    const page = (i: number, extraBody: Record<string, unknown>) => ({
      page: 0,
      size: i % 4 === 3 ? 50 : 20,
      sortOrder: 'DESC',
      orderingCriteria: 'id',
      filters: {},
      ...extraBody,
    });
    const days = (i: number) => 7 + (i % 24);
    const scenarios: TScenario[] = [
      {
        key: 'adminUpload',
        label: 'summary page: group admin, upload time, 7-30 days',
        target: TARGETS.summaryP95Ms,
        request: (i) => ({
          url: '/api/report-summary/',
          cookie: cookieOf(big.admin.id),
          body: page(i, { ...range(i, days(i)), summaryType: 'UPLOAD_TIME' }),
        }),
      },
      {
        key: 'adminSignedOff',
        label: 'summary page: group admin, signed-off time, 7-30 days',
        target: TARGETS.summaryP95Ms,
        request: (i) => ({
          url: '/api/report-summary/',
          cookie: cookieOf(big.admin.id),
          body: page(i, { ...range(i, days(i)), summaryType: 'SIGNED_OFF_TIME' }),
        }),
      },
      {
        key: 'centerUpload',
        label: 'summary page: center, upload time, 7-30 days',
        target: TARGETS.summaryP95Ms,
        request: (i) => ({
          url: '/api/report-summary/',
          cookie: cookieOf(extra.centerUserIds[i % extra.centerUserIds.length]!),
          body: page(i, { ...range(i, days(i)), summaryType: 'UPLOAD_TIME' }),
        }),
      },
      {
        key: 'doctorSignedOff',
        label: 'summary page: doctor, signed-off time, 7-30 days',
        target: TARGETS.summaryP95Ms,
        request: (i) => ({
          url: '/api/report-summary/',
          cookie: cookieOf(doctors[i % doctors.length]!.id),
          body: page(i, { ...range(i, days(i)), summaryType: 'SIGNED_OFF_TIME' }),
        }),
      },
      {
        key: 'totalsAdmin',
        label: 'total-summary: group admin, upload time, 30 days',
        target: TARGETS.summaryP95Ms,
        request: (i) => ({
          url: '/api/total-summary/',
          cookie: cookieOf(big.admin.id),
          body: page(i, { ...range(i, 30) }),
        }),
      },
      {
        key: 'advancedCenter',
        label: '/query/report-summary: center, 180 days + 1/7/30',
        target: TARGETS.advancedP95Ms,
        request: (i) => ({
          url: '/api/query/report-summary',
          cookie: cookieOf(extra.centerUserIds[i % extra.centerUserIds.length]!),
          body: page(i, { ...range(i, 180) }),
        }),
      },
      {
        key: 'advancedDoctor',
        label: '/query/report-summary: doctor, 180 days + 1/7/30',
        target: TARGETS.advancedP95Ms,
        request: (i) => ({
          url: '/api/query/report-summary',
          cookie: cookieOf(doctors[i % doctors.length]!.id),
          body: page(i, { ...range(i, 180), summaryType: 'SIGNED_OFF_TIME' }),
        }),
      },
    ];
    const results: TScenarioResult[] = [];
    for (const scenario of args.includes('--excel-only') ? [] : scenarios) {
      for (let i = 0; i < warmup; i++) await send(app, scenario.request(samples + i));
      const times: number[] = [];
      for (let i = 0; i < samples; i++) times.push(await send(app, scenario.request(i)));
      const row: TScenarioResult = {
        key: scenario.key,
        label: scenario.label,
        target: scenario.target,
        ...summary(times),
      };
      if (row.p95Ms > scenario.target || args.includes('--explain'))
        row.explain = await explainCall(bench, app, scenario.request(0));
      log(`${kind}: ${row.label}: p50 ${row.p50Ms} p95 ${row.p95Ms} max ${row.maxMs} ms`);
      results.push(row);
    }
    const excel = await excelFigure(app, cookieOf(extra.excelAdminId));
    return { kind, studies: bench.seed.studies, scenarios: results, excel };
  } finally {
    await app.close();
    await bench.close();
    await rm(blobRoot, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const targets: Array<[TBenchDbKind, number]> = [];
  if (process.env.DATABASE_URL && only !== 'pglite')
    targets.push(['postgres', option('--pg-studies', 1_000_000)]);
  if (only !== 'postgres') targets.push(['pglite', option('--pglite-studies', 200_000)]);
  const results = [];
  for (const [kind, n] of targets) results.push(await measureDatabase(kind, n));
  if (asJson) {
    out(
      JSON.stringify(
        { samples, warmup, loadavg: loadavg(), cpus: availableParallelism(), targets: TARGETS, results },
        null,
        2,
      ),
    );
    return;
  }
  out(
    `${samples} samples per call after ${warmup} warm-ups; ${availableParallelism()} CPUs, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
  );
  for (const r of results) {
    out(`\n${r.kind} ${r.studies.toLocaleString('en')} studies`);
    out('| call | p50 ms | p95 ms | max ms | target p95 |');
    out('|---|---:|---:|---:|---:|');
    for (const s of r.scenarios)
      out(
        `| ${s.label} | ${s.p50Ms} | **${s.p95Ms}** | ${s.maxMs} | ${s.target} ${s.p95Ms <= s.target ? 'ok' : 'MISSED'} |`,
      );
    for (const e of r.excel)
      out(
        `| Excel ${e.rows.toLocaleString('en')} rows | ${e.ms.toFixed(0)} ms | ${(e.bytes / 2 ** 20).toFixed(1)} MB | RSS +${e.rssGrowthMb.toFixed(1)} MB | ≤ 10 s, ≤ 100 MB |`,
      );
    for (const s of r.scenarios.filter((x) => x.explain)) {
      out(`\n### ${r.kind}: ${s.label}\n\`\`\``);
      for (const plan of s.explain ?? []) out(plan);
      out('```');
    }
  }
}

await main();
