/**
 * The dashboards' figures (issue 24 §5):
 *   1. GET /api/dashboard server time (app.inject in process, no network) on the PGlite bench
 *      database of the worklist benches (bench/lib/worklist-seed.ts, 200,000 studies over two years),
 *      as a dashboard viewer of the big group (30- and 180-day ranges), a lab supervisor (a center) and
 *      a doctor (own work), plus one drill-down page; p50/p95/max after warm-up.
 *   2. The dashboard pages' first paint on localhost: the built server (demo seed) and Debian's
 *      chromium, signed in as the demo dashboard viewer (the detailed dashboard) and the demo admin
 *      biller (the Billing Dashboard, issue 26 §6), from navigation to the totals and the first chart
 *      on screen (and the browser's first-contentful-paint), over several loads. Target ≤ 1.5 s.
 *   3. The login + study list bundle (bench/web-bundle.ts's figure) and the dashboards' lazy chunk.
 *
 * Build first (`npm run build`). Usage: npx tsx bench/dashboards.ts [--studies 200000] [--samples 60]
 * [--loads 8] [--out bench/results/<date>-dashboards.json]
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { SESSION_COOKIE_NAME, type TDashboard, calendarDayIn } from '@radflow/core';
import { buildApp } from '../apps/server/src/app.js';
import { centers, users } from '../apps/server/src/db/schema.js';
import { createSession } from '../apps/server/src/modules/credentials/sessions.js';
import { FsBlobStore } from '../apps/server/src/modules/storage/blob-store.js';
import { billingDashboardPainted, launchChromium, screenshotIn, timeFirstPaint } from './lib/first-paint.js';
import { BENCH_DEVICE_HEADERS, REPO_ROOT, signIn, startBuiltServer } from './lib/radflow-server.js';
import { summary } from './lib/stats.js';
import { openBenchDatabase } from './lib/worklist-bench-db.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] as string) : fallback;
};
const STUDIES = Number(option('--studies', '200000'));
const SAMPLES = Number(option('--samples', '60'));
const WARMUP = 5;
const LOADS = Number(option('--loads', '8'));
const OUT = option('--out', '');
const log = (line: string) => process.stderr.write(`${line}\n`);
const DAY_MS = 24 * 60 * 60 * 1000;
const FIRST_PAINT_TARGET_MS = 1500;

/** A deterministic spread over [0, 1) (Weyl sequence), so runs are comparable. */
const spread = (i: number) => (i * 0.6180339887498949) % 1;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function get(app: FastifyInstance, cookie: string, url: string): Promise<{ ms: number; body: string }> {
  const started = process.hrtime.bigint();
  const res = await app.inject({
    method: 'GET',
    url,
    headers: { cookie: `${SESSION_COOKIE_NAME}=${cookie}`, ...BENCH_DEVICE_HEADERS },
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return { ms, body: res.body };
}

/** 1. The dashboard call on the seeded PGlite database. */
async function measureCall() {
  const bench = await openBenchDatabase({ kind: 'pglite', studies: STUDIES, log });
  const blobRoot = await mkdtemp(join(tmpdir(), 'radflow-bench-blobs-'));
  const app = await buildApp({
    db: bench.handle.db,
    blobs: await new FsBlobStore(blobRoot).init(),
    logger: { level: 'error', stream: process.stderr },
  });
  try {
    await app.ready();
    const big = [...bench.seed.groups].sort((a, b) => b.studies - a.studies)[0]!;
    const [center] = await bench.handle.db
      .select({ id: centers.id })
      .from(centers)
      .where(eq(centers.groupId, big.id))
      .limit(1);
    // The dashboard roles the worklist seed has none of: one each, made here (idempotent by e-mail).
    const userOf = async (email: string, roles: string[], centerId: number | null) => {
      const [found] = await bench.handle.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, email));
      if (found) return found.id;
      const [made] = await bench.handle.db
        .insert(users)
        .values({ email, passwordHash: 'x', roles, groupId: big.id, centerId, identifier: email })
        .returning({ id: users.id });
      return made!.id;
    };
    const cookieOf = async (userId: number) =>
      (await createSession(bench.handle.db, { userId, deviceId: null, now: new Date() })).token;
    const viewer = await cookieOf(
      await userOf('bench-dashboard-viewer@bench.local', ['ROLE_DASHBOARD_VIEWER'], null),
    );
    const supervisor = await cookieOf(
      await userOf('bench-lab-supervisor@bench.local', ['ROLE_LABS_SUPERVISOR'], center?.id ?? null),
    );
    const doctor = await cookieOf(big.doctors[0]!.id);
    const newest = bench.seed.newest.getTime();
    const oldest = bench.seed.oldest.getTime();
    const rangeAt = (i: number, days: number) => {
      const start = oldest + spread(i) * (newest - oldest - days * DAY_MS);
      return `startTime=${day(start)}&endTime=${day(start + (days - 1) * DAY_MS)}`;
    };
    const scenarios: Array<{ key: string; label: string; cookie: string; url: (i: number) => string }> = [
      {
        key: 'viewer30',
        label: 'dashboard viewer, group, 30 days',
        cookie: viewer,
        url: (i) => `/api/dashboard?${rangeAt(i, 30)}`,
      },
      {
        key: 'viewer180',
        label: 'dashboard viewer, group, 180 days',
        cookie: viewer,
        url: (i) => `/api/dashboard?${rangeAt(i, 180)}`,
      },
      {
        key: 'center30',
        label: 'lab supervisor, a center, 30 days',
        cookie: supervisor,
        url: (i) => `/api/dashboard?${rangeAt(i, 30)}`,
      },
      {
        key: 'doctor30',
        label: 'doctor, own work, 30 days',
        cookie: doctor,
        url: (i) => `/api/dashboard?${rangeAt(i, 30)}`,
      },
      {
        key: 'drill30',
        label: 'drill-down: signed off over the limit, 30 days, page 1',
        cookie: viewer,
        url: (i) => `/api/dashboard/studies?${rangeAt(i, 30)}&metric=OVER_LIMIT&size=20`,
      },
    ];
    const results = [];
    for (const s of scenarios) {
      for (let i = 0; i < WARMUP; i++) await get(app, s.cookie, s.url(SAMPLES + i));
      const times: number[] = [];
      let counted = 0;
      for (let i = 0; i < SAMPLES; i++) {
        const { ms, body } = await get(app, s.cookie, s.url(i));
        times.push(ms);
        const parsed = JSON.parse(body) as Partial<TDashboard> & { totalElements?: number };
        counted += parsed.uploaded ?? parsed.totalElements ?? 0;
      }
      const row = {
        key: s.key,
        label: s.label,
        ...summary(times),
        meanRowsCounted: Math.round(counted / SAMPLES),
      };
      log(`${s.label}: p50 ${row.p50Ms} p95 ${row.p95Ms} max ${row.maxMs} ms (rows ${row.meanRowsCounted})`);
      results.push(row);
    }
    return { studies: bench.seed.studies, samples: SAMPLES, warmup: WARMUP, scenarios: results };
  } finally {
    await app.close();
    await bench.close();
    await rm(blobRoot, { recursive: true, force: true });
  }
}

interface TPaintedPage {
  /** What the figure is of. */
  name: string;
  issue: string;
  email: string;
  path: () => string;
  /** Resolves when the page's first figures are on screen. */
  painted: (page: Page) => Promise<void>;
}

/** The pages timed: the detailed dashboard (issue 24 §5) and the Billing Dashboard (issue 26 §6). */
const PAINTED_PAGES: TPaintedPage[] = [
  {
    name: 'detailed dashboard (dashboard viewer, 30 days)',
    issue: '24 §5',
    email: 'dashboard-viewer@demo.local',
    path: () => {
      const today = calendarDayIn(new Date());
      const start = calendarDayIn(new Date(Date.now() - 29 * DAY_MS));
      return `/admin-page/dashboard?startTime=${start}&endTime=${today}`;
    },
    painted: async (page) => {
      await page.getByRole('button', { name: /^Uploaded: \d+$/ }).waitFor({ timeout: 30_000 });
      // A drawn bar: days without uploads are bars of height 0.
      await page
        .locator('[data-series="uploaded"] .MuiBarChart-element:not([height="0"])')
        .first()
        .waitFor({ timeout: 30_000 });
    },
  },
  {
    name: 'Billing Dashboard (admin biller, 12 months; demo seed: bench/billing-dashboard.ts --paint times it on a seeded platform)',
    issue: '26 §6',
    email: 'admin-biller@demo.local',
    path: () => '/admin-page/billing-dashboard',
    painted: billingDashboardPainted,
  },
];

/** 2. Each dashboard page's first paint on the built server (demo seed), in Debian's chromium. */
async function measureFirstPaint() {
  const work = await mkdtemp(join(tmpdir(), 'radflow-bench-dashboard-'));
  const server = await startBuiltServer({ work });
  const browser = await launchChromium();
  try {
    const results = [];
    for (const target of PAINTED_PAGES) {
      const timed = await timeFirstPaint({
        browser,
        baseUrl: server.baseUrl,
        cookieHeader: await signIn(server.baseUrl, target.email),
        path: target.path(),
        painted: target.painted,
        loads: LOADS,
        screenshot: screenshotIn(work, target.email.split('@')[0]!),
        log,
      });
      results.push({
        page: target.name,
        issue: target.issue,
        what: 'navigation to the totals and the first chart on screen (signed in, returning user)',
        ...timed,
        targetMs: FIRST_PAINT_TARGET_MS,
      });
    }
    log(`screenshots: ${work}`);
    return results;
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** 3. bench/web-bundle.ts's figure, and the dashboards' own chunk. */
function measureBundle() {
  const report = JSON.parse(
    execFileSync('npx', ['tsx', join(REPO_ROOT, 'bench/web-bundle.ts'), '--json'], {
      cwd: REPO_ROOT,
    }).toString(),
  ) as { totalGzip: number; totalRaw: number };
  const assets = join(REPO_ROOT, 'apps/web/dist/assets');
  const chunk = readdirSync(assets).find((f) => /^dashboards-.*\.js$/.test(f));
  const gzipKB = chunk ? Math.round(gzipSync(readFileSync(join(assets, chunk))).length / 102.4) / 10 : null;
  return {
    loginAndStudyListGzipKB: Math.round(report.totalGzip / 102.4) / 10,
    targetGzipKB: 300,
    dashboardsLazyChunk: { file: chunk ?? null, gzipKB },
  };
}

const started = new Date();
// --only-paint: the browser figures alone (the call's figures take minutes).
const call = args.includes('--only-paint') ? null : await measureCall();
const firstPaint = await measureFirstPaint();
const bundle = measureBundle();
const result = {
  bench: 'bench/dashboards.ts',
  date: started.toISOString().slice(0, 10),
  machine: `${availableParallelism()} CPUs (shared), load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')} at the end; Node ${process.version}`,
  dashboardCall: call,
  firstPaint,
  bundle,
};
const text = `${JSON.stringify(result, null, 2)}\n`;
if (OUT) writeFileSync(OUT, text);
process.stdout.write(text);
