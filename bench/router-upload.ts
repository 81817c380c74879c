/**
 * The router's upload figures (issue 27 §6), through the fault-injecting proxy
 * (apps/router/test/fault-proxy.ts) between the router and the built cloud server:
 *   1. throughput through a link capped at --mbit (20) Mbit/s: a study of --tput-slices (100)
 *      512 KB slices; bytes over the time from the first send to the last confirmation (≥ 90 %);
 *   2. a --slices (500) slice CT of --matrix (256: ~128 KB) synthesised slices with the link cut
 *      twice for --cut-seconds (30) at a third and two thirds of its bytes: every instance in the
 *      cloud exactly once, total time against link time (bytes / rate) + outages (+10 % target);
 *   3. the router's RSS (a child process: /proc/<pid>/status VmRSS, every 200 ms) while uploading.
 * The router runs as its own process from its bundle, as a center runs it (apps/router/dist: npm run
 * build -w @radflow/router); the server is apps/server/dist (npm run build -w @radflow/server). Slices are synthesised (random 16-bit pixels, so
 * nothing compresses them): the router moves bytes and never reads pixels.
 * Usage: npx tsx bench/router-upload.ts [--mbit 20] [--latency-ms 20] [--slices 500] [--matrix 256]
 *          [--cut-seconds 30] [--tput-slices 100] [--batch-mb 2] [--concurrency 2] [--probe-ms 1000] [--json]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { sendRetryingWhenShed } from '@radflow/core';
import { runStorescu, stopProcess } from '@radflow/dicom/test-support';
import { ROUTER_NODE_ARGS } from '../apps/router/src/release/node-runtime.js';
import { startFaultProxy, type FaultProxy } from '../apps/router/test/fault-proxy.js';
import { buildStudy, writeStudy, type SyntheticStudy } from '../apps/router/test/study-builder.js';
import { bearerToken, REPO_ROOT, startBuiltServer } from './lib/radflow-server.js';

const args = process.argv.slice(2);
const valueOf = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const mbit = valueOf('--mbit', 20);
const latencyMs = valueOf('--latency-ms', 20);
const slices = valueOf('--slices', 500);
const matrix = valueOf('--matrix', 256);
const cutSeconds = valueOf('--cut-seconds', 30);
const tputSlices = valueOf('--tput-slices', 100);
const asJson = args.includes('--json');
/** Router settings to try (ROUTER_UPLOAD_BATCH_MB, ROUTER_UPLOAD_CONCURRENCY, ROUTER_LINK_PROBE_MS); defaults otherwise. */
const routerTuning: Record<string, string> = {};
for (const [flag, variable] of [
  ['--batch-mb', 'ROUTER_UPLOAD_BATCH_MB'],
  ['--concurrency', 'ROUTER_UPLOAD_CONCURRENCY'],
  ['--probe-ms', 'ROUTER_LINK_PROBE_MS'],
] as const) {
  const at = args.indexOf(flag);
  if (at >= 0) routerTuning[variable] = args[at + 1]!;
}
const bytesPerSecond = (mbit * 1_000_000) / 8;
const out = (line: string) => process.stdout.write(`${line}\n`);

const ROUTER_AET = 'BENCH_ROUTER';
const MODALITY_AET = 'BENCH_CT';

/** The router's RSS, its maximum over the run and per phase (kB; anon = RssAnon, the heap and buffers). */
interface RssTrace {
  maxKb: number;
  samples: number;
  phase: string;
  readonly byPhase: Map<string, { maxKb: number; maxAnonKb: number }>;
}

interface RunningRouter {
  readonly process: ChildProcess;
  readonly port: number;
  readonly rss: RssTrace;
  stop(): Promise<void>;
}

async function startRouterProcess(env: Record<string, string>): Promise<RunningRouter> {
  const bundle = join(REPO_ROOT, 'apps/router/dist/main.js');
  await stat(bundle).catch(() => {
    throw new Error(`${bundle} is missing: run npm run build -w @radflow/router first`);
  });
  const child = spawn(process.execPath, [...ROUTER_NODE_ARGS, bundle], {
    env: { ...process.env, ...env, ROUTER_ANNOUNCE_PORT: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log = (log + chunk).slice(-4000)));
  const port = await new Promise<number>((done, fail) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^ROUTER_DICOM_PORT=(\d+)$/.exec(line);
      if (match) done(Number(match[1]));
    });
    child.once('exit', (code) => fail(new Error(`router exited (${code}): ${log}`)));
  });
  const rss: RssTrace = { maxKb: 0, samples: 0, phase: 'idle', byPhase: new Map() };
  const timer = setInterval(() => {
    void readFile(`/proc/${child.pid}/status`, 'utf8')
      .then((status) => {
        const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
        const anonKb = Number(/RssAnon:\s+(\d+)/.exec(status)?.[1] ?? 0);
        rss.maxKb = Math.max(rss.maxKb, kb);
        rss.samples++;
        const phase = rss.byPhase.get(rss.phase) ?? { maxKb: 0, maxAnonKb: 0 };
        rss.byPhase.set(rss.phase, {
          maxKb: Math.max(phase.maxKb, kb),
          maxAnonKb: Math.max(phase.maxAnonKb, anonKb),
        });
      })
      .catch(() => undefined);
  }, 200);
  return {
    process: child,
    port,
    rss,
    async stop() {
      clearInterval(timer);
      await stopProcess(child, 10_000);
    },
  };
}

async function cloudInstances(baseUrl: string, token: string, study: SyntheticStudy): Promise<string[]> {
  // A server busy with the upload may shed the poll (503): asked again as the web client asks.
  const response = await sendRetryingWhenShed(
    () =>
      fetch(`${baseUrl}/api/dicomweb/studies/${study.studyInstanceUid}/instances?limit=10000`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/dicom+json' },
      }),
    (shed) => shed.body?.cancel(),
  );
  if (response.status === 204 || response.status === 404) return [];
  if (!response.ok) throw new Error(`QIDO ${response.status} ${await response.text()}`);
  const items = (await response.json()) as Array<Record<string, { Value?: string[] }>>;
  return items.map((item) => item['00080018']?.Value?.[0] ?? '');
}

async function waitForAll(
  baseUrl: string,
  token: string,
  study: SyntheticStudy,
  timeoutMs: number,
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await cloudInstances(baseUrl, token, study);
    if (found.length >= study.instances.length || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const work = await mkdtemp(join(tmpdir(), 'radflow-router-bench-'));
const server = await startBuiltServer({ work });
const results: Record<string, unknown> = {
  mbit,
  latencyMs,
  slices,
  matrix,
  cutSeconds,
  tputSlices,
  routerTuning,
};
let router: RunningRouter | undefined;
let proxy: FaultProxy | undefined;
try {
  const token = await bearerToken(server.baseUrl, 'center@demo.local');
  proxy = await startFaultProxy({
    targetHost: '127.0.0.1',
    targetPort: Number(new URL(server.baseUrl).port),
    bytesPerSecond,
    latencyMs,
  });
  router = await startRouterProcess({
    ROUTER_DATA_DIR: join(work, 'router-data'),
    ROUTER_SERVER_URL: `http://127.0.0.1:${proxy.port}`,
    ROUTER_API_TOKEN: token,
    ROUTER_DICOM_PORT: '0',
    ROUTER_DICOM_HOST: '127.0.0.1',
    ROUTER_AE_TITLE: ROUTER_AET,
    ROUTER_MODALITY_AE_TITLES: MODALITY_AET,
    ...routerTuning,
  });
  const send = async (study: SyntheticStudy, name: string) => {
    const files = await writeStudy(study, join(work, name));
    const run = await runStorescu({
      host: '127.0.0.1',
      port: router!.port,
      callingAet: MODALITY_AET,
      calledAet: ROUTER_AET,
      files,
      timeoutMs: 600_000,
    });
    if (run.exitCode !== 0) throw new Error(`storescu: ${run.stderr}`);
  };

  // 1. Throughput through the capped link.
  const tput = buildStudy({ count: tputSlices, matrix: 512 });
  const tputBytes = tput.instances.reduce((n, i) => n + i.bytes.length, 0);
  const upBefore = proxy.stats.bytesUp;
  let started = performance.now();
  router.rss.phase = 'throughput: receiving';
  await send(tput, 'tput');
  router.rss.phase = 'throughput: uploading';
  let found = await waitForAll(server.baseUrl, token, tput, 600_000);
  let seconds = (performance.now() - started) / 1000;
  results.throughput = {
    instances: found.length,
    megabytes: +(tputBytes / 1e6).toFixed(1),
    seconds: +seconds.toFixed(1),
    mbitPerSecond: +((tputBytes * 8) / seconds / 1e6).toFixed(2),
    ofCapPercent: +((tputBytes / seconds / bytesPerSecond) * 100).toFixed(1),
    linkMbitPerSecond: +(((proxy.stats.bytesUp - upBefore) * 8) / seconds / 1e6).toFixed(2),
  };

  // 2. The CT with two cuts.
  const ct = buildStudy({ count: slices, matrix });
  const ctBytes = ct.instances.reduce((n, i) => n + i.bytes.length, 0);
  const base = proxy.stats.bytesUp;
  const cuts: Promise<void>[] = [];
  const watcher = setInterval(() => {
    const done = (proxy!.stats.bytesUp - base) / ctBytes;
    if (cuts.length === 0 && done >= 1 / 3) cuts.push(proxy!.cut(cutSeconds * 1000));
    else if (cuts.length === 1 && done >= 2 / 3 && !proxy!.isCut()) cuts.push(proxy!.cut(cutSeconds * 1000));
  }, 20);
  started = performance.now();
  router.rss.phase = 'CT: receiving';
  await send(ct, 'ct');
  router.rss.phase = 'CT: uploading';
  found = await waitForAll(server.baseUrl, token, ct, 1_800_000);
  seconds = (performance.now() - started) / 1000;
  clearInterval(watcher);
  await Promise.all(cuts);
  const linkSeconds = ctBytes / bytesPerSecond;
  const outageSeconds = cuts.length * cutSeconds;
  const expected = new Set(ct.instances.map((i) => i.sopInstanceUid));
  results.ctWithCuts = {
    instances: found.length,
    distinct: new Set(found).size,
    exactlyOnce: found.length === expected.size && found.every((uid) => expected.has(uid)),
    megabytes: +(ctBytes / 1e6).toFixed(1),
    cuts: cuts.length,
    seconds: +seconds.toFixed(1),
    linkSeconds: +linkSeconds.toFixed(1),
    outageSeconds,
    overPercent: +(((seconds - (linkSeconds + outageSeconds)) / (linkSeconds + outageSeconds)) * 100).toFixed(
      1,
    ),
    linkBytesOverStudy: +((proxy.stats.bytesUp - base) / ctBytes).toFixed(3),
    refusedConnections: proxy.stats.refused,
  };
  results.routerRssMaxMb = +(router.rss.maxKb / 1024).toFixed(1);
  results.rssSamples = router.rss.samples;
  results.routerRssByPhaseMb = Object.fromEntries(
    [...router.rss.byPhase].map(([phase, { maxKb, maxAnonKb }]) => [
      phase,
      { rss: +(maxKb / 1024).toFixed(1), anon: +(maxAnonKb / 1024).toFixed(1) },
    ]),
  );
} finally {
  await router?.stop();
  await proxy?.close();
  await server.stop();
  await rm(work, { recursive: true, force: true });
}

if (asJson) out(JSON.stringify(results, null, 2));
else {
  const t = results.throughput as Record<string, number>;
  const c = results.ctWithCuts as Record<string, number | boolean>;
  out(`| figure | value | target |\n|---|---|---|`);
  out(
    `| throughput, ${t.megabytes} MB through ${mbit} Mbit/s (${latencyMs} ms latency) | ${t.mbitPerSecond} Mbit/s = ${t.ofCapPercent} % of the cap (${t.seconds} s) | ≥ 90 % |`,
  );
  out(
    `| ${slices}-slice CT (${c.megabytes} MB), ${c.cuts} cuts of ${cutSeconds} s: in the cloud | ${c.instances} instances, ${c.distinct} distinct, exactly once: ${c.exactlyOnce} | exactly once |`,
  );
  out(
    `| total time vs link time + outages | ${c.seconds} s vs ${c.linkSeconds} + ${c.outageSeconds} s (${Number(c.overPercent) >= 0 ? '+' : ''}${c.overPercent} %) | ≤ +10 % |`,
  );
  out(`| bytes over the link / study bytes | ${c.linkBytesOverStudy} | — |`);
  out(
    `| router RSS, max while uploading | ${results.routerRssMaxMb} MB (${results.rssSamples} samples) | ≤ 150 MB |`,
  );
  const byPhase = results.routerRssByPhaseMb as Record<string, { rss: number; anon: number }>;
  for (const [phase, { rss, anon }] of Object.entries(byPhase)) {
    out(`| router RSS, ${phase} | ${rss} MB (anonymous ${anon} MB) | ≤ 150 MB |`);
  }
}
