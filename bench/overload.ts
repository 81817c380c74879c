/**
 * Overload (security issue §4): the built server on the PGlite bench database of
 * bench/lib/worklist-seed.ts (seeded on first use and reused), 200 connections for 20 s on the
 * study list call (autocannon, 10 s client time-out), while one client asks GET /api/health in turn
 * (each answer timed, the next asked when it came), and, when the build has it, a second client
 * asks the health responder on HEALTH_PORT (its own thread; modules/health/health-responder.ts) and
 * notes the longest event-loop stall it reported. Once per bound (API_MAX_IN_FLIGHT; 0 = no
 * bound), on this build or on another (--server-bundle, e.g. a build of main for the "before").
 * The load average is noted before and after each run (the machine is shared).
 * Prints a Markdown table; figures for the notes, never assertions.
 *
 * Usage: npm run build -w @radflow/server && npx tsx bench/overload.ts [--bounds 0,64]
 *        [--studies 50000] [--duration 20] [--connections 200] [--server-bundle path/main.js] [--json]
 * --server-bundle must sit one level below apps/server (like dist/) so its migrations resolve.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import { SESSION_COOKIE_NAME } from '@radflow/core';
import { freePort } from '@radflow/dicom/test-support';
import { BENCH_DEVICE_HEADERS } from './lib/radflow-server.js';
import { openBenchDatabase } from './lib/worklist-bench-db.js';
import { BENCH_PASSWORD } from './lib/worklist-seed.js';

const args = process.argv.slice(2);
const value = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const bounds = (value('--bounds') ?? '0,64').split(',').map(Number);
const studies = Number(value('--studies') ?? 50_000);
const duration = Number(value('--duration') ?? 20);
const connections = Number(value('--connections') ?? 200);
const asJson = args.includes('--json');
const repoRoot = resolve(import.meta.dirname, '..');
const bundle = resolve(value('--server-bundle') ?? join(repoRoot, 'apps/server/dist/main.js'));
const log = (line: string) => process.stderr.write(`${line}\n`);
const CLIENT_TIMEOUT_S = 10;
const LIST_PATH = '/api/dicom-web/studies/';

async function waitForAnswer(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer ${url}`);
}

/**
 * Asks `url` (a health check) one after another until stopped, 100 ms apart; each answer's time in
 * ms (a failure counts as its time; a 503 is an answer, counted apart). In a worker thread of its
 * own: on this process's event loop it would also time autocannon's 200 busy connections, not only
 * the server.
 */
function healthProbe(url: string) {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    const times = [];
    const askedAt = [];
    const firstAsked = performance.now();
    let failures = 0;
    let stalled = 0;
    let eventLoopMax = null;
    let running = true;
    parentPort.on('message', () => (running = false));
    (async () => {
      while (running) {
        const started = performance.now();
        const status = await fetch(workerData.url, { signal: AbortSignal.timeout(60000) }).then(
          async (r) => {
            // The HEALTH_PORT answer says how long the server's event loop last went without a turn.
            const body = await r.json().catch(() => ({}));
            if (typeof body.eventLoopMs === 'number') eventLoopMax = Math.max(eventLoopMax, body.eventLoopMs);
            return r.status;
          },
          () => 0,
        );
        times.push(performance.now() - started);
        askedAt.push((started - firstAsked) / 1000);
        if (status === 503) stalled += 1;
        else if (status !== 200) failures += 1;
        await new Promise((r) => setTimeout(r, 100));
      }
      parentPort.postMessage({ times, askedAt, failures, stalled, eventLoopMax });
    })();`,
    { eval: true, workerData: { url } },
  );
  const result = new Promise<{
    times: number[];
    askedAt: number[];
    failures: number;
    stalled: number;
    eventLoopMax: number | null;
  }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return async () => {
    worker.postMessage('stop');
    const { times, askedAt, failures, stalled, eventLoopMax } = await result;
    await worker.terminate();
    const sorted = [...times].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    return {
      checks: times.length,
      failures,
      stalled,
      eventLoopMax,
      p50: at(0.5),
      p99: at(0.99),
      max: sorted.at(-1) ?? 0,
      // When the slowest check was asked, in seconds after the first: a stall at the load's start
      // (every connection at once, a cold database) reads apart from one in its steady state.
      worstAskedAtS: askedAt[times.indexOf(sorted.at(-1) ?? 0)] ?? null,
      // The slowest check after the load's first 3 s.
      steadyMax: Math.max(0, ...times.filter((_, i) => (askedAt[i] ?? 0) >= 3)),
    };
  };
}

async function runBound(location: string, adminEmail: string, bound: number) {
  const port = await freePort();
  const healthPort = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [bundle], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DICOM_ENABLED: 'false',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'error',
      DATA_DIR: location,
      DATABASE_URL: '',
      API_MAX_IN_FLIGHT: String(bound),
      // The health responder on its own thread (modules/health/health-responder.ts); a build
      // without it ignores the variable.
      HEALTH_PORT: String(healthPort),
      // 0 = no bound at all (the count and the event-loop check); else the default check.
      ...(bound === 0 ? { API_MAX_BUSY_MS: '0' } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitForAnswer(`${baseUrl}/api/health`, child);
    const signIn = () =>
      fetch(`${baseUrl}/api/do-login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...BENCH_DEVICE_HEADERS },
        body: JSON.stringify({ email: adminEmail, password: BENCH_PASSWORD }),
      });
    let login = await signIn();
    // On a loaded machine the server's start-up work can make it shed the sign-in: as told, again.
    for (let attempt = 0; login.status === 503 && attempt < 20; attempt += 1) {
      await new Promise((r) => setTimeout(r, Number(login.headers.get('retry-after') ?? 1) * 1000));
      login = await signIn();
    }
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0] as string)
      .find((c) => c.startsWith(`${SESSION_COOKIE_NAME}=`));
    if (!cookie) throw new Error(`sign-in: ${login.status} ${await login.text()}`);
    const responderUrl = `http://127.0.0.1:${healthPort}/health`;
    const hasResponder = existsSync(join(dirname(bundle), 'health-responder-worker.js'));
    // It starts listening after the main port does.
    if (hasResponder) await waitForAnswer(responderUrl, child);
    const loadBefore = loadavg().map((l) => Number(l.toFixed(2)));
    const stopProbe = healthProbe(`${baseUrl}/api/health`);
    const stopResponderProbe = hasResponder ? healthProbe(responderUrl) : null;
    const result = await autocannon({
      url: `${baseUrl}${LIST_PATH}`,
      connections,
      duration,
      timeout: CLIENT_TIMEOUT_S,
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, ...BENCH_DEVICE_HEADERS },
      body: JSON.stringify({ page: 0, size: 20, sortOrder: 'DESC', orderingCriteria: 'id', filters: {} }),
    });
    const health = await stopProbe();
    const responder = (await stopResponderProbe?.()) ?? null;
    const codes = (result as unknown as { statusCodeStats?: Record<string, { count: number }> })
      .statusCodeStats;
    const count = (code: string) => codes?.[code]?.count ?? 0;
    // Let the server finish what autocannon hung up on before it is stopped.
    await new Promise((r) => setTimeout(r, Math.min(10_000, result.latency.max)));
    return {
      bound,
      answered: result.requests.total,
      ok: count('200'),
      busy: count('503'),
      other: result.non2xx - count('503'),
      timeouts: result.timeouts,
      errors: result.errors,
      okPerSecond: count('200') / duration,
      latencyP50: result.latency.p50,
      latencyP99: result.latency.p99,
      latencyMax: result.latency.max,
      health,
      responder,
      loadBefore,
      loadAfter: loadavg().map((l) => Number(l.toFixed(2))),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      const timer = setTimeout(() => (child.kill('SIGKILL'), done()), 20_000);
      child.once('exit', () => (clearTimeout(timer), done()));
    });
  }
}

async function main() {
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: npm run build -w @radflow/server`);
  const bench = await openBenchDatabase({ kind: 'pglite', studies, log });
  const admin = bench.seed.groups[0]?.admin.email;
  const location = bench.location;
  // The server opens the database itself (PGlite allows one process per data directory).
  await bench.close();
  if (!admin) throw new Error('seed has no admin');
  const rows = [];
  for (const bound of bounds) {
    log(`bound ${bound}: ${connections} connections × ${duration} s …`);
    rows.push(await runBound(location, admin, bound));
  }
  if (asJson) {
    process.stdout.write(`${JSON.stringify({ bundle, studies, connections, duration, rows }, null, 2)}\n`);
    return;
  }
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(
    `${connections} connections × ${duration} s on POST ${LIST_PATH} (client time-out ${CLIENT_TIMEOUT_S} s), PGlite ${studies.toLocaleString('en')} studies, ${bundle}; ${availableParallelism()} CPUs, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
  );
  out(
    '| API_MAX_IN_FLIGHT | answers | 200 | 503 | other | time-outs | 200/s | latency p50 / p99 / max ms | health checks | health p50 / p99 / max ms | HEALTH_PORT checks | its p50 / p99 / max ms | load before / after |',
  );
  out('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of rows) {
    out(
      `| ${r.bound || 'none'} | ${r.answered} | ${r.ok} | ${r.busy} | ${r.other} | ${r.timeouts} | ${r.okPerSecond.toFixed(0)} | ${r.latencyP50} / ${r.latencyP99} / ${r.latencyMax} | ${r.health.checks} (${r.health.failures} failed) | ${r.health.p50.toFixed(0)} / ${r.health.p99.toFixed(0)} / ${r.health.max.toFixed(0)} | ${r.responder ? `${r.responder.checks} (${r.responder.stalled} stalled, ${r.responder.failures} failed)` : '-'} | ${r.responder ? `${r.responder.p50.toFixed(1)} / ${r.responder.p99.toFixed(1)} / ${r.responder.max.toFixed(1)}` : '-'} | ${r.loadBefore[0]} / ${r.loadAfter[0]} |`,
    );
  }
}

await main();
