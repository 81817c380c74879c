/**
 * Throughput of the list call (issue 4 §5 Figures): the real built server (`node
 * apps/server/dist/main.js`, build it first with `npm run build -w @radflow/server`) on the bench
 * database of bench/lib/worklist-seed.ts (1,000,000 studies on PostgreSQL with DATABASE_URL, 200,000
 * on PGlite; seeded on first use and reused), signed in through POST /api/do-login, loaded by
 * autocannon: 20 connections for 30 s, each request the next of a mix users make
 * (admin All first page, admin Pending, admin patient-name filter, admin 30-day range, doctor Pending).
 * Target: ≥ 200 requests/s on average with no error and no non-2xx answer.
 *
 * Usage: [DATABASE_URL=postgres://…] npx tsx bench/worklist-throughput.ts [--pg-studies 1000000]
 *        [--pglite-studies 200000] [--duration 30] [--connections 20] [--only postgres|pglite]
 *        [--fresh] [--json] [--cpu-prof-dir DIR] [--server-bundle path/main.js] [--pool-size N]
 * --server-bundle: another build of the server (A/B runs); it must sit one level below apps/server,
 * like dist/, so its migrations resolve. --pool-size: the server's DATABASE_POOL_SIZE (default 10, the
 * server's, see poolSize).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { SESSION_COOKIE_NAME, tabsForList } from '@radflow/core';
import { freePort } from '@radflow/dicom/test-support';
import { BENCH_DEVICE_HEADERS } from './lib/radflow-server.js';
import { openBenchDatabase } from './lib/worklist-bench-db.js';
import { BENCH_PASSWORD, type TBenchDbKind, type TWorklistSeed } from './lib/worklist-seed.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const only = (() => {
  const at = args.indexOf('--only');
  return at >= 0 ? (args[at + 1] as TBenchDbKind) : null;
})();
const duration = option('--duration', 30);
const connections = option('--connections', 20);
const asJson = args.includes('--json');
const fresh = args.includes('--fresh');
/** --cpu-prof-dir DIR: the server writes a V8 CPU profile there when it stops (node --cpu-prof). */
const cpuProfDir = (() => {
  const at = args.indexOf('--cpu-prof-dir');
  return at >= 0 ? (args[at + 1] ?? null) : null;
})();
const out = (line: string) => process.stdout.write(`${line}\n`);
const log = (line: string) => process.stderr.write(`${line}\n`);

const TARGET_RPS = 200;
const LIST_PATH = '/api/dicom-web/studies/';
const repoRoot = resolve(import.meta.dirname, '..');
const bundle = (() => {
  const at = args.indexOf('--server-bundle');
  const given = at >= 0 ? args[at + 1] : undefined;
  return given ? resolve(given) : join(repoRoot, 'apps/server/dist/main.js');
})();
/**
 * --pool-size N: DATABASE_POOL_SIZE of the server (its PostgreSQL connections). Default: the server's
 * own default (10), so the figure is what a deployment gets unconfigured. On a quiet 2-core machine
 * (02:10 UTC 2026-11-22, bench/README.md) 10 and 6 gave 219 / 218 req/s and 4 gave 158: with 4, a
 * request waits for a connection while others sit in round trips. Runs under load favoured 4.
 */
const poolSize = option('--pool-size', 10);

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer /api/health within ${timeoutMs} ms`);
}

/** Signs in like the browser does and returns the session cookie's value. */
async function signIn(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/do-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...BENCH_DEVICE_HEADERS },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  if (!response.ok) throw new Error(`sign-in of ${email}: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] as string)
    .find((c) => c.startsWith(`${SESSION_COOKIE_NAME}=`));
  if (!cookie) throw new Error(`sign-in of ${email}: no session cookie`);
  return cookie;
}

/** The request mix: what the admin and the doctors of the big group click through in a day. */
function requestMix(seed: TWorklistSeed, adminCookie: string, doctorCookie: string) {
  const page = (extra: Record<string, unknown>) => ({
    page: 0,
    size: 20,
    sortOrder: 'DESC',
    orderingCriteria: 'id',
    filters: {},
    ...extra,
  });
  const filterOf = (kind: 'admin' | 'doctor', key: string) => {
    const filter = tabsForList(kind).find((t) => t.key === key)?.filter ?? {};
    return { ...filter, ...(filter.statuses ? { statuses: [...filter.statuses] } : {}) };
  };
  const newest = seed.newest.getTime();
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return [
    (_i: number) => ({ cookie: adminCookie, body: page({}) }),
    (_i: number) => ({ cookie: adminCookie, body: page(filterOf('admin', 'pending')) }),
    (i: number) => ({
      cookie: adminCookie,
      body: page({ filters: { patientName: seed.nameFragments[i % seed.nameFragments.length] } }),
    }),
    (i: number) => {
      const start = newest - ((i % 300) + 30) * 86_400_000;
      return {
        cookie: adminCookie,
        body: page({ startTime: day(start), endTime: day(start + 29 * 86_400_000) }),
      };
    },
    (_i: number) => ({ cookie: doctorCookie, body: page(filterOf('doctor', 'pending')) }),
  ];
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on Linux everywhere we run). */
const USER_HZ = 100;

/** CPU ms (user + system) a process has used, from /proc; null when it is gone or there is no /proc. */
async function processCpuMs(pid: number): Promise<{ comm: string; ms: number } | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // Fields 14 and 15 of stat(5) (utime, stime); `fields` starts at field 3.
    return { comm, ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ };
  } catch {
    return null;
  }
}

/**
 * CPU ms used so far by the PostgreSQL backends serving `database` (their process title names it;
 * the server's pool keeps them through a run). Other databases of the same server are not counted:
 * other people's tests may use it meanwhile.
 */
async function postgresCpuMs(database: string | null): Promise<Map<number, number>> {
  const byPid = new Map<number, number>();
  if (!database) return byPid;
  const pids = await readdir('/proc').catch(() => [] as string[]);
  for (const name of pids) {
    if (!/^\d+$/.test(name)) continue;
    const title = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (!title.startsWith('postgres:') || !title.split(' ').includes(database)) continue;
    const cpu = await processCpuMs(Number(name));
    if (cpu) byPid.set(Number(name), cpu.ms);
  }
  return byPid;
}

/**
 * What one request cost in CPU, per side: the server process, the PostgreSQL processes (backends
 * started during the run count whole) and this process (autocannon). On a 2-core machine ≥ 200
 * req/s leaves ≈ 10 ms in all; wall time under load is mostly waiting for a core, CPU time is not.
 */
async function cpuMeter(serverPid: number | undefined, database: string | null) {
  const server0 = serverPid ? ((await processCpuMs(serverPid))?.ms ?? 0) : 0;
  const pg0 = await postgresCpuMs(database);
  const self0 = process.cpuUsage();
  return async (requests: number) => {
    const self = process.cpuUsage(self0);
    const server = serverPid ? ((await processCpuMs(serverPid))?.ms ?? 0) - server0 : 0;
    let backends = 0;
    for (const [pid, ms] of await postgresCpuMs(database)) backends += ms - (pg0.get(pid) ?? 0);
    const per = (ms: number) => (requests > 0 ? ms / requests : 0);
    return {
      server: per(server),
      database: per(backends),
      client: per((self.user + self.system) / 1000),
    };
  };
}

interface TThroughputResult {
  kind: TBenchDbKind;
  studies: number;
  requestsPerSecond: number;
  total: number;
  latencyP50: number;
  latencyP99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** CPU ms per request: server process, PostgreSQL processes (0 on PGlite: it is in the server), client. */
  cpuPerRequest: { server: number; database: number; client: number };
  passed: boolean;
}

async function runOne(kind: TBenchDbKind, studies: number): Promise<TThroughputResult> {
  const bench = await openBenchDatabase({
    kind,
    studies,
    ...(process.env.DATABASE_URL ? { postgresUrl: process.env.DATABASE_URL } : {}),
    fresh,
    log,
  });
  const seed = bench.seed;
  const location = bench.location;
  // The server opens the database itself (PGlite allows one process per data directory).
  await bench.close();
  const scratch = await mkdtemp(join(tmpdir(), 'radflow-bench-throughput-'));
  const [port, dicomPort] = [await freePort(), await freePort()];
  const baseUrl = `http://127.0.0.1:${port}`;
  const nodeArgs = cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : [];
  const child = spawn(process.execPath, [...nodeArgs, bundle], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DICOM_PORT: String(dicomPort),
      DICOM_ENABLED: 'false',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      DATA_DIR: kind === 'pglite' ? location : scratch,
      DATABASE_URL: kind === 'postgres' ? location : '',
      DATABASE_POOL_SIZE: String(poolSize),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitForHealth(baseUrl, child, 120_000);
    const group = seed.groups[0];
    if (!group?.doctors[0]) throw new Error('seed has no doctor');
    const mix = requestMix(
      seed,
      await signIn(baseUrl, group.admin.email),
      await signIn(baseUrl, group.doctors[0].email),
    );
    let next = 0;
    const meter = await cpuMeter(child.pid, kind === 'postgres' ? new URL(location).pathname.slice(1) : null);
    const result = await autocannon({
      url: baseUrl,
      connections,
      duration,
      requests: [
        {
          method: 'POST',
          path: LIST_PATH,
          setupRequest: (request) => {
            const i = next++;
            const { cookie, body } = (mix[i % mix.length] as (n: number) => { cookie: string; body: object })(
              i,
            );
            return {
              ...request,
              headers: { 'content-type': 'application/json', ...BENCH_DEVICE_HEADERS, cookie },
              body: JSON.stringify(body),
            };
          },
        },
      ],
    });
    // autocannon hangs up on requests still running at the end; let the server finish them before
    // it is stopped, so its shutdown does not close the database under them.
    await new Promise((r) => setTimeout(r, Math.min(10_000, result.latency.max)));
    const cpuPerRequest = await meter(result.requests.total);
    const requestsPerSecond = result.requests.average;
    return {
      kind,
      studies: seed.studies,
      requestsPerSecond,
      total: result.requests.total,
      latencyP50: result.latency.p50,
      latencyP99: result.latency.p99,
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      cpuPerRequest,
      passed: requestsPerSecond >= TARGET_RPS && result.errors === 0 && result.non2xx === 0,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise<void>((res) => {
      if (child.exitCode !== null) return res();
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        res();
      }, 20_000);
      child.once('exit', () => {
        clearTimeout(timer);
        res();
      });
    });
    await rm(scratch, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!existsSync(bundle)) throw new Error('Build the server first: npm run build -w @radflow/server');
  const targets: Array<[TBenchDbKind, number]> = [];
  if (process.env.DATABASE_URL && only !== 'pglite')
    targets.push(['postgres', option('--pg-studies', 1_000_000)]);
  if (only !== 'postgres') targets.push(['pglite', option('--pglite-studies', 200_000)]);
  const results: TThroughputResult[] = [];
  for (const [kind, studies] of targets) {
    const result = await runOne(kind, studies);
    log(`${kind}: ${result.requestsPerSecond.toFixed(0)} req/s`);
    results.push(result);
  }
  if (asJson) {
    out(JSON.stringify({ duration, connections, poolSize, loadavg: loadavg(), results }, null, 2));
    return;
  }
  out(
    `autocannon: ${connections} connections, ${duration} s, POST ${LIST_PATH} (request mix); server pool ${poolSize} PostgreSQL connections; target ≥ ${TARGET_RPS} req/s, no error`,
  );
  out(
    `machine: ${availableParallelism()} CPUs shared by client, server and database; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} at the end`,
  );
  out(
    '| database | studies | req/s (mean) | requests | latency p50 / p99 ms | errors | timeouts | non-2xx | CPU ms/request server / database / client | verdict |',
  );
  out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of results) {
    out(
      `| ${r.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} | ${r.studies.toLocaleString('en')} | ${r.requestsPerSecond.toFixed(0)} | ${r.total} | ${r.latencyP50} / ${r.latencyP99} | ${r.errors} | ${r.timeouts} | ${r.non2xx} | ${r.cpuPerRequest.server.toFixed(1)} / ${r.cpuPerRequest.database.toFixed(1)} / ${r.cpuPerRequest.client.toFixed(1)} | ${r.passed ? 'ok' : 'MISSED'} |`,
    );
  }
}

await main();
