/**
 * The worklist list call at size (issue 4 §5 Figures): N studies seeded by bench/lib/worklist-seed.ts
 * (1,000,000 on PostgreSQL with DATABASE_URL, 200,000 on PGlite), then the list calls real users make,
 * each timed as SERVER time: `app.inject` into the app `buildApp` makes, in process, no network —
 * routing, session cookie lookup, zod validation, the page and count queries, serialisation.
 *   - doctor Pending tab (core tabsForList('doctor') filter), every doctor in turn;
 *   - admin All tab filtered by part of a patient name (a piece of one surname, ~0.7 % of rows);
 *   - admin All tab over a 30-day startTime/endTime window at a random place in the 2 years;
 *   - admin All tab sorted by patient name (ASC and DESC, pages 1–5);
 *   - admin All tab, first page (the default screen), as a baseline.
 * Each after warm-up, with varied values; prints p50/p95/p99 per database side by side, against the
 * targets (p95 ≤ 50 ms PostgreSQL, ≤ 150 ms PGlite). Seeded databases are kept and reused (see
 * bench/README.md); --explain prints EXPLAIN (ANALYZE, BUFFERS) of each call's queries (always for a
 * call that misses its target).
 *
 * Usage: [DATABASE_URL=postgres://…] npx tsx bench/worklist-list.ts [--pg-studies 1000000]
 *        [--pglite-studies 200000] [--samples 220] [--warmup 20] [--only postgres|pglite] [--fresh]
 *        [--explain] [--json]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_DEVICE_HEADERS } from './lib/radflow-server.js';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE_NAME, tabsForList } from '@radflow/core';
import { buildApp } from '../apps/server/src/app.js';
import { createSession } from '../apps/server/src/modules/credentials/sessions.js';
import { FsBlobStore } from '../apps/server/src/modules/storage/blob-store.js';
import {
  type TBenchDatabase,
  type TCapturedQuery,
  captureQueries,
  openBenchDatabase,
} from './lib/worklist-bench-db.js';
import type { TBenchDbKind, TWorklistSeed } from './lib/worklist-seed.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const only = (() => {
  const at = args.indexOf('--only');
  return at >= 0 ? (args[at + 1] as TBenchDbKind) : null;
})();
const samples = option('--samples', 220);
const warmup = option('--warmup', 20);
const asJson = args.includes('--json');
const explainAll = args.includes('--explain');
const fresh = args.includes('--fresh');
const out = (line: string) => process.stdout.write(`${line}\n`);
const log = (line: string) => process.stderr.write(`${line}\n`);

const TARGET_P95_MS: Record<TBenchDbKind, number> = { postgres: 50, pglite: 150 };
const DAY_MS = 24 * 60 * 60 * 1000;

interface TListCall {
  url: '/api/dicom-web/studies/' | '/api/report-status/';
  cookie: string;
  body: Record<string, unknown>;
}

interface TScenario {
  key: string;
  label: string;
  /** The i-th request; values vary with i. */
  request(i: number): TListCall;
}

/** Tab filters as the browser sends them (the same core rule). */
function tabFilter(kind: 'admin' | 'doctor', key: string): Record<string, unknown> {
  const tab = tabsForList(kind).find((t) => t.key === key);
  if (!tab) throw new Error(`no ${key} tab in the ${kind} list`);
  return { ...tab.filter, ...(tab.filter.statuses ? { statuses: [...tab.filter.statuses] } : {}) };
}

const listPage = (extra: Record<string, unknown>) => ({
  page: 0,
  size: 20,
  sortOrder: 'DESC',
  orderingCriteria: 'id',
  filters: {},
  ...extra,
});

/** A deterministic spread of values over [0, 1) (Weyl sequence), so runs are comparable. */
const spread = (i: number) => (i * 0.6180339887498949) % 1;

function scenariosFor(seed: TWorklistSeed, cookies: Map<number, string>): TScenario[] {
  const doctors = seed.groups.flatMap((g) => g.doctors);
  // Admins in proportion to their group's size: the big group's admin is the usual caller.
  const admins = seed.groups.flatMap((g) =>
    Array.from({ length: Math.max(1, Math.round((10 * g.studies) / seed.studies)) }, () => g.admin),
  );
  const cookieOf = (userId: number) => cookies.get(userId) as string;
  const adminCall = (i: number, body: Record<string, unknown>): TListCall => ({
    url: '/api/dicom-web/studies/',
    cookie: cookieOf((admins[i % admins.length] as { id: number }).id),
    body: listPage({ ...tabFilter('admin', 'all'), ...body }),
  });
  const spanMs = seed.newest.getTime() - seed.oldest.getTime() - 30 * DAY_MS;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return [
    {
      key: 'doctorPending',
      label: 'doctor: Pending tab',
      request: (i) => ({
        url: '/api/dicom-web/studies/',
        cookie: cookieOf((doctors[i % doctors.length] as { id: number }).id),
        body: listPage({
          ...tabFilter('doctor', 'pending'),
          size: i % 4 === 3 ? 50 : 20,
          page: i % 10 === 9 ? 1 : 0,
        }),
      }),
    },
    {
      key: 'adminPatientName',
      label: 'admin: All, patient name contains',
      request: (i) =>
        adminCall(i, { filters: { patientName: seed.nameFragments[i % seed.nameFragments.length] } }),
    },
    {
      key: 'adminDateRange',
      label: 'admin: All, 30-day date range',
      request: (i) => {
        const start = seed.oldest.getTime() + spread(i) * spanMs;
        return adminCall(i, { startTime: day(start), endTime: day(start + 29 * DAY_MS) });
      },
    },
    {
      key: 'adminSortName',
      label: 'admin: All, sorted by patient name',
      request: (i) =>
        adminCall(i, {
          orderingCriteria: 'patientName',
          sortOrder: i % 2 === 0 ? 'ASC' : 'DESC',
          page: Math.floor(i / 2) % 5,
        }),
    },
    {
      key: 'adminAll',
      label: 'admin: All, first page (baseline)',
      request: (i) => adminCall(i, { size: i % 2 === 0 ? 20 : 50 }),
    },
  ];
}

async function send(
  app: FastifyInstance,
  call: TListCall,
): Promise<{ ms: number; cpuMs: number; total: number }> {
  const cpuBefore = process.cpuUsage();
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
  const cpu = process.cpuUsage(cpuBefore);
  if (response.statusCode !== 200) {
    throw new Error(
      `${call.url} ${JSON.stringify(call.body)}: ${response.statusCode} ${response.body.slice(0, 300)}`,
    );
  }
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    total: (response.json() as { totalElements: number }).totalElements,
  };
}

const percentile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;

interface TScenarioResult {
  key: string;
  label: string;
  p50: number;
  p95: number;
  p99: number;
  /**
   * Median CPU time of this process per call: on a busy machine wall time is mostly waiting for a
   * core, CPU time is not. For PGlite it is the whole cost (the database runs in this thread); for
   * PostgreSQL it is the Node side only, the part one server process must do per request.
   */
  cpuP50: number;
  /** Median of totalElements over the samples: how many rows the call matched. */
  matchedMedian: number;
  explain?: string[];
}

interface TDatabaseResult {
  kind: TBenchDbKind;
  studies: number;
  targetP95: number;
  scenarios: TScenarioResult[];
}

async function explainCall(bench: TBenchDatabase, app: FastifyInstance, call: TListCall): Promise<string[]> {
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
    plans.push(
      `-- ${query.text}\n-- params: ${JSON.stringify(query.params)}\n${await bench.explain(query.text, query.params)}`,
    );
  }
  return plans;
}

async function measureDatabase(kind: TBenchDbKind, studies: number): Promise<TDatabaseResult> {
  const bench = await openBenchDatabase({
    kind,
    studies,
    ...(process.env.DATABASE_URL ? { postgresUrl: process.env.DATABASE_URL } : {}),
    fresh,
    log,
  });
  const blobRoot = await mkdtemp(join(tmpdir(), 'radflow-bench-blobs-'));
  const app = await buildApp({
    db: bench.handle.db,
    blobs: await new FsBlobStore(blobRoot).init(),
    // Errors only, to stderr: a failing call names its cause.
    logger: { level: 'error', stream: process.stderr },
  });
  try {
    await app.ready();
    const cookies = new Map<number, string>();
    for (const user of bench.seed.groups.flatMap((g) => [g.admin, ...g.doctors])) {
      const { token } = await createSession(bench.handle.db, {
        userId: user.id,
        deviceId: null,
        now: new Date(),
      });
      cookies.set(user.id, token);
    }
    const result: TDatabaseResult = {
      kind,
      studies: bench.seed.studies,
      targetP95: TARGET_P95_MS[kind],
      scenarios: [],
    };
    for (const scenario of scenariosFor(bench.seed, cookies)) {
      for (let i = 0; i < warmup; i++) await send(app, scenario.request(samples + i));
      const times: number[] = [];
      const totals: number[] = [];
      const cpus: number[] = [];
      for (let i = 0; i < samples; i++) {
        const { ms, cpuMs, total } = await send(app, scenario.request(i));
        times.push(ms);
        cpus.push(cpuMs);
        totals.push(total);
      }
      times.sort((a, b) => a - b);
      totals.sort((a, b) => a - b);
      cpus.sort((a, b) => a - b);
      const row: TScenarioResult = {
        key: scenario.key,
        label: scenario.label,
        p50: percentile(times, 0.5),
        p95: percentile(times, 0.95),
        p99: percentile(times, 0.99),
        cpuP50: percentile(cpus, 0.5),
        matchedMedian: percentile(totals, 0.5),
      };
      if (explainAll || row.p95 > TARGET_P95_MS[kind]) {
        row.explain = await explainCall(bench, app, scenario.request(0));
      }
      log(
        `${kind}: ${scenario.label}: p50 ${row.p50.toFixed(1)} p95 ${row.p95.toFixed(1)} p99 ${row.p99.toFixed(1)} ms, CPU p50 ${row.cpuP50.toFixed(1)} ms, matched ${row.matchedMedian}`,
      );
      result.scenarios.push(row);
    }
    return result;
  } finally {
    await app.close();
    await bench.close();
    await rm(blobRoot, { recursive: true, force: true });
  }
}

function printTable(results: readonly TDatabaseResult[]): void {
  const ms = (n: number) => n.toFixed(1);
  out(
    `server time = app.inject in process (no network); ${samples} samples per call after ${warmup} warm-ups`,
  );
  // Figures from a busy machine are not figures of the code: say how busy it was.
  out(
    `machine: ${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} (1 / 5 / 15 min) at the end`,
  );
  out(
    `| list call | ${results.map((r) => `${r.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} ${r.studies.toLocaleString('en')}: p50 / p95 / p99 ms (target p95 ≤ ${r.targetP95}) | CPU ms p50 | rows matched`).join(' | ')} |`,
  );
  out(`|---|${results.map(() => '---|---:|---:|').join('')}`);
  const first = results[0];
  for (const [index, scenario] of (first?.scenarios ?? []).entries()) {
    const cells = results.map((r) => {
      const s = r.scenarios[index] as TScenarioResult;
      const verdict = s.p95 <= r.targetP95 ? 'ok' : 'MISSED';
      return `${ms(s.p50)} / **${ms(s.p95)}** / ${ms(s.p99)} ${verdict} | ${ms(s.cpuP50)} | ${s.matchedMedian.toLocaleString('en')}`;
    });
    out(`| ${scenario.label} | ${cells.join(' | ')} |`);
  }
  for (const r of results) {
    for (const s of r.scenarios.filter((x) => x.explain)) {
      out(`\n### ${r.kind}: ${s.label} — EXPLAIN (ANALYZE, BUFFERS)\n`);
      out('```');
      for (const plan of s.explain ?? []) out(`${plan}\n`);
      out('```');
    }
  }
}

async function main(): Promise<void> {
  const targets: Array<[TBenchDbKind, number]> = [];
  if (process.env.DATABASE_URL && only !== 'pglite')
    targets.push(['postgres', option('--pg-studies', 1_000_000)]);
  if (only !== 'postgres') targets.push(['pglite', option('--pglite-studies', 200_000)]);
  if (targets.length === 0) throw new Error('--only postgres needs DATABASE_URL');
  const results: TDatabaseResult[] = [];
  for (const [kind, studies] of targets) results.push(await measureDatabase(kind, studies));
  if (asJson) out(JSON.stringify({ samples, warmup, loadavg: loadavg(), results }, null, 2));
  else printTable(results);
}

await main();
