/**
 * Archive ingest side by side (issue 3 §8, ARCHITECTURE §4): the built Radflow server
 * (apps/server/dist/main.js, a child process on a fresh temp DATA_DIR; PGlite, or PostgreSQL with
 * --database-url) next to Orthanc 1.10 with its DICOMweb plugin, both on 127.0.0.1 with TCP_NODELAY=1,
 * fed the same generated CT series (N slices 512×512, 16-bit; bench/lib/ct-series.ts):
 *   1. C-STORE: one storescu association with all N files → each; instances/s until storescu exits,
 *      and (Radflow) until QIDO shows all N instances indexed;
 *   2. STOW-RS: the N files streamed from disk as multipart/related; type="application/dicom", in
 *      batches of --batch files per request (one request after another), and as one single request;
 *   3. concurrency: 4 storescu processes at once, each with its own N-instance study; total instances/s
 *      and the server's peak RSS (VmRSS of its process sampled every 100 ms).
 * Every phase sends a series with fresh UIDs, so nothing is a duplicate on either server.
 * Build the server first: npm run build -w @radflow/server
 * Usage: npx tsx bench/archive-ingest.ts [--slices 500] [--batch 50] [--database-url postgres://…/db]
 *          [--out file.json] [--cpu-prof] [--skip-orthanc] [--server-bundle path/main.js]
 *          [--only cstore,stow,concurrent] [--rounds N]
 * --server-bundle: another build of the server (before/after comparisons); it must sit one level
 *   below apps/server, like dist/, so that its migrations resolve.
 * --database-url: a fresh, empty database (the server migrates and seeds it).
 * --cpu-prof: run the server child with --cpu-prof; the profile is kept in a temp dir that is printed.
 * --series-dir DIR: keep the generated series in DIR and reuse them in later runs (same UIDs; each
 *   run's server is fresh, so nothing is a duplicate there); saves the minute of generating them.
 * KEEP_WORK=1 (env): keep the temp dir (series, server log) for a look afterwards.
 * RADFLOW_INGEST_PHASES=1 (env, passed to the server): the server's mean milliseconds per instance
 *   of each ingest phase (receive, parse, sha256, blob write and sync, statements, commit, WAL sync…)
 *   are printed after the table, one line per 500 instances.
 * Each timed phase, either server's, starts after a `sync` (settleDisk): Orthanc does not sync the
 * files it writes, so the kernel writes them back some 30 s later, which used to land in whichever
 * phase ran then (usually Radflow's next, whose every instance waits for its syncs).
 * Beside wall time, each phase reports the server's CPU time per instance (utime + stime of its
 * process from /proc, all threads): on a shared, busy machine that is the figure to compare.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  buildStorescuProfile,
  runStorescu,
  startOrthanc,
  type OrthancPeer,
} from '@radflow/dicom/test-support';
import { CT_IMAGE_STORAGE, EXPLICIT_LE, writeCtSeries, type WrittenSeries } from './lib/ct-series.js';
import { bearerToken, startBuiltServer, stowFiles } from './lib/radflow-server.js';

const RADFLOW_AET = 'RADFLOW';
const CENTER_AET = 'DEMOCENTER';
const CENTER_USER = { email: 'center@demo.local', password: 'demo12345' };
const CONCURRENT = 4;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const out = (line: string) => process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------- options
const args = process.argv.slice(2);
const valueOf = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const slices = Number(valueOf('--slices') ?? 500);
const batchSize = Number(valueOf('--batch') ?? 50);
const databaseUrl = valueOf('--database-url');
const outFile = valueOf('--out');
const cpuProf = args.includes('--cpu-prof');
const skipOrthanc = args.includes('--skip-orthanc');
const serverBundle = valueOf('--server-bundle');
const seriesDir = valueOf('--series-dir');
/** --only cstore,stow,concurrent: run just these phases (default all three). */
const only = new Set((valueOf('--only') ?? 'cstore,stow,concurrent').split(',').map((p) => p.trim()));
for (const phase of only)
  if (!['cstore', 'stow', 'concurrent'].includes(phase))
    throw new Error(`--only takes cstore, stow and concurrent, not ${phase}`);
/**
 * --rounds N (1–5): the one-association C-STORE phase N times, Radflow and Orthanc alternating,
 * each round on a series of its own (the concurrent phase's series after the first): A/B figures
 * from one minute.
 */
const rounds = Number(valueOf('--rounds') ?? 1);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 5) throw new Error('--rounds must be 1–5');
if (rounds > 1 && only.has('concurrent'))
  throw new Error('--rounds uses the concurrent phase series: add --only cstore (or cstore,stow)');
if (!Number.isInteger(slices) || slices < 1 || !Number.isInteger(batchSize) || batchSize < 1)
  throw new Error('--slices and --batch must be positive integers');

// ---------------------------------------------------------------- RSS sampling
/** Samples VmRSS of some processes every 100 ms; keeps the peak per process per phase. */
class RssSampler {
  private readonly pids = new Map<string, number>();
  private readonly peaks = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => void this.sample(), 100);
  }

  track(name: string, pid: number): void {
    this.pids.set(name, pid);
  }

  /** Starts a new phase: peaks from now on. */
  reset(): void {
    this.peaks.clear();
  }

  peakMb(name: string): number | null {
    const kb = this.peaks.get(name);
    return kb === undefined ? null : kb / 1024;
  }

  async sample(): Promise<void> {
    for (const [name, pid] of this.pids) {
      const kb = await readStatusKb(pid, 'VmRSS');
      if (kb !== null) this.peaks.set(name, Math.max(this.peaks.get(name) ?? 0, kb));
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** CPU time of a process so far (user + system, all threads), in ms; null when it is gone. */
async function cpuMs(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** USER_HZ: 100 on every Linux that runs Node. */
const CLOCK_TICKS = 100;

async function readStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- the Radflow server child
const startRadflow = (work: string, profileDir: string | null) =>
  startBuiltServer({
    work,
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(serverBundle ? { bundle: serverBundle } : {}),
    nodeArgs: profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
    env: { DICOM_AET: RADFLOW_AET },
  });

type DicomJson = Record<string, { vr: string; Value?: unknown[] }>;

/** Instances of a study indexed on Radflow, from QIDO `/studies/{uid}/series` (0 while unknown). */
async function radflowCount(baseUrl: string, token: string, studyUid: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/dicomweb/studies/${studyUid}/series`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/dicom+json' },
  });
  if (response.status === 404 || response.status === 204) return 0;
  if (!response.ok)
    throw new Error(`QIDO series of ${studyUid}: ${response.status} ${await response.text()}`);
  const series = (await response.json()) as DicomJson[];
  return series.reduce((sum, s) => sum + Number(s['00201209']?.Value?.[0] ?? 0), 0);
}

/** Instances of a study stored in Orthanc (0 while unknown). */
async function orthancCount(orthanc: OrthancPeer, studyUid: string): Promise<number> {
  const lookup = await fetch(`${orthanc.baseUrl}/tools/lookup`, { method: 'POST', body: studyUid });
  const found = (await lookup.json()) as Array<{ ID: string; Type: string }>;
  const study = found.find((f) => f.Type === 'Study');
  if (!study) return 0;
  return (await orthanc.get<{ CountInstances: number }>(`/studies/${study.ID}/statistics`)).CountInstances;
}

// ---------------------------------------------------------------- STOW-RS
async function stowAll(
  url: string,
  files: readonly string[],
  perRequest: number,
  headers: Record<string, string>,
): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < files.length; i += perRequest)
    await stowFiles(url, files.slice(i, i + perRequest), headers);
  return (performance.now() - started) / 1000;
}

/**
 * Writes back every dirty page before a timed phase: what the previous phase left to the kernel
 * (Orthanc's files, unsynced) is flushed here, not during the next server's measurement.
 */
async function settleDisk(): Promise<void> {
  await new Promise<void>((done, failed) => execFile('sync', (error) => (error ? failed(error) : done())));
}

// ---------------------------------------------------------------- C-STORE
async function storescu(port: number, calledAet: string, files: readonly string[], profile: string) {
  const run = await runStorescu({
    host: '127.0.0.1',
    port,
    callingAet: CENTER_AET,
    calledAet,
    files,
    configFile: profile,
    timeoutMs: 900_000,
  });
  if (run.exitCode !== 0)
    throw new Error(`storescu → ${calledAet}:${port} exit ${run.exitCode}: ${run.stderr.slice(0, 800)}`);
  return run.elapsedMs / 1000;
}

/** Polls `count` every 100 ms until it reaches `expected` (bounded); resolves to when it did. */
async function waitForCount(count: () => Promise<number>, expected: number, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const n = await count();
    if (n === expected) return performance.now();
    if (n > expected) throw new Error(`${n} instances indexed, expected ${expected}`);
    if (Date.now() > deadline) throw new Error(`only ${n} of ${expected} instances after ${timeoutMs} ms`);
    await sleep(100);
  }
}

// ---------------------------------------------------------------- run
interface Figure {
  readonly measurement: string;
  readonly instances: number;
  readonly radflow: {
    seconds: number;
    instancesPerSecond: number;
    peakRssMb?: number | null;
    cpuMsPerInstance?: number | null;
  };
  readonly orthanc: { seconds: number; instancesPerSecond: number; peakRssMb?: number | null } | null;
  readonly note: string;
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'radflow-archive-bench-'));
  const profileDir = cpuProf ? await mkdtemp(join(tmpdir(), 'radflow-archive-prof-')) : null;
  const cleanups: (() => Promise<void>)[] = [];
  const rss = new RssSampler();
  const figures: Figure[] = [];
  const memory: Record<string, unknown> = {};
  try {
    // The series: one per phase, fresh UIDs each, shared by both servers.
    let started = performance.now();
    const phases = [
      'cstore',
      'stowBatched',
      'stowSingle',
      ...Array.from({ length: CONCURRENT }, (_, i) => `c${i}`),
    ];
    const series: Record<string, WrittenSeries> = {};
    for (const [i, phase] of phases.entries()) {
      const dir = join(seriesDir ? resolve(seriesDir, String(slices)) : join(work, 'series'), phase);
      const saved = join(dir, 'series.json');
      const reused = seriesDir
        ? await readFile(saved, 'utf8').then(
            (text) => JSON.parse(text) as WrittenSeries,
            () => null,
          )
        : null;
      if (reused) {
        series[phase] = reused;
        continue;
      }
      await mkdir(dir, { recursive: true });
      series[phase] = await writeCtSeries(dir, slices, {
        patientId: `BENCH-${String(i + 1).padStart(4, '0')}`,
        accessionNumber: `BENCH${i + 1}`,
        studyDescription: `archive ingest bench ${phase}`,
      });
      if (seriesDir) await writeFile(saved, JSON.stringify(series[phase]));
    }
    const seriesMb = series.cstore!.bytes / 2 ** 20;
    out(
      `generated ${phases.length} × ${slices} CT slices (${seriesMb.toFixed(0)} MB a series) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const profile = join(work, 'storescu.cfg');
    await writeFile(
      profile,
      buildStorescuProfile([{ sopClassUid: CT_IMAGE_STORAGE, transferSyntaxUid: EXPLICIT_LE }]),
    );

    const radflow = await startRadflow(work, profileDir);
    cleanups.push(() => radflow.stop());
    rss.track('radflow', radflow.process.pid!);
    const token = await bearerToken(radflow.baseUrl, CENTER_USER.email, CENTER_USER.password);
    const auth = { authorization: `Bearer ${token}` };
    const orthanc = skipOrthanc ? null : await startOrthanc();
    if (orthanc) {
      cleanups.push(() => orthanc.stop());
      rss.track('orthanc', orthanc.process.pid!);
    }
    await sleep(1000);
    await rss.sample();
    memory.idleRssMb = { radflow: rss.peakMb('radflow'), orthanc: rss.peakMb('orthanc') };
    out(`Radflow ${radflow.baseUrl} (DICOM ${radflow.dicomPort}, ${databaseUrl ? 'PostgreSQL' : 'PGlite'})`);

    const rate = (seconds: number, instances = slices) => ({
      seconds,
      instancesPerSecond: instances / seconds,
    });
    const radflowPid = radflow.process.pid!;
    /** Server CPU ms per instance since `from` (a cpuMs reading). */
    const cpuPer = async (from: number | null, instances = slices) => {
      const now = await cpuMs(radflowPid);
      return from === null || now === null ? null : (now - from) / instances;
    };

    // 1. C-STORE, one association each
    const cstoreSeries = ['cstore', ...Array.from({ length: CONCURRENT }, (_, i) => `c${i}`)];
    for (let round = 0; only.has('cstore') && round < rounds; round++) {
      const s = series[cstoreSeries[round]!]!;
      await settleDisk();
      rss.reset();
      const cpuFrom = await cpuMs(radflowPid);
      started = performance.now();
      const seconds = await storescu(radflow.dicomPort, RADFLOW_AET, s.files, profile);
      const indexedAt = await waitForCount(
        () => radflowCount(radflow.baseUrl, token, s.studyInstanceUid),
        slices,
      );
      // Through the index (INGEST_ACK=journal indexes after the last answer).
      const cpuMsPerInstance = await cpuPer(cpuFrom);
      const indexedSeconds = (indexedAt - started) / 1000;
      const radflowPeak = rss.peakMb('radflow');
      let orthancRate = null;
      if (orthanc) {
        await settleDisk();
        rss.reset();
        const orthancSeconds = await storescu(orthanc.port, orthanc.aeTitle, s.files, profile);
        await waitForCount(() => orthancCount(orthanc, s.studyInstanceUid), slices, 10_000);
        orthancRate = { ...rate(orthancSeconds), peakRssMb: rss.peakMb('orthanc') };
      }
      figures.push({
        measurement: `C-STORE storescu, 1 association${rounds > 1 ? ` (round ${round + 1})` : ''}`,
        instances: slices,
        radflow: { ...rate(seconds), peakRssMb: radflowPeak, cpuMsPerInstance },
        orthanc: orthancRate,
        note: `Radflow: all ${slices} in QIDO after ${indexedSeconds.toFixed(2)} s`,
      });
      figures.push({
        measurement: 'C-STORE until indexed (QIDO)',
        instances: slices,
        radflow: rate(indexedSeconds),
        orthanc: null,
        note: 'storescu start → QIDO count = N, polled every 100 ms',
      });
    }

    // 2. STOW-RS, batches and one request
    for (const [phase, perRequest, label] of [
      ['stowBatched', batchSize, `STOW-RS, ${batchSize} files a request`],
      ['stowSingle', slices, `STOW-RS, 1 request of ${slices} files`],
    ] as const) {
      if (!only.has('stow')) break;
      const s = series[phase]!;
      await settleDisk();
      rss.reset();
      const cpuFrom = await cpuMs(radflowPid);
      const seconds = await stowAll(`${radflow.baseUrl}/api/dicomweb/studies`, s.files, perRequest, auth);
      const answeredAt = performance.now();
      // Acknowledged from the journal (INGEST_ACK=journal): in QIDO within a second.
      const indexedAt = await waitForCount(
        () => radflowCount(radflow.baseUrl, token, s.studyInstanceUid),
        slices,
        10_000,
      );
      const cpuMsPerInstance = await cpuPer(cpuFrom);
      const radflowPeak = rss.peakMb('radflow');
      let orthancRate = null;
      if (orthanc) {
        await settleDisk();
        rss.reset();
        const orthancSeconds = await stowAll(`${orthanc.baseUrl}/dicom-web/studies`, s.files, perRequest, {});
        const orthancPeak = rss.peakMb('orthanc');
        const stored = await orthancCount(orthanc, s.studyInstanceUid);
        if (stored !== slices) throw new Error(`${label}: Orthanc has ${stored} instances`);
        orthancRate = { ...rate(orthancSeconds), peakRssMb: orthancPeak };
      }
      figures.push({
        measurement: label,
        instances: slices,
        radflow: { ...rate(seconds), peakRssMb: radflowPeak, cpuMsPerInstance },
        orthanc: orthancRate,
        note: `requests one after another, bodies streamed from disk with Content-Length; all in QIDO ${((indexedAt - answeredAt) / 1000).toFixed(2)} s after the last answer`,
      });
    }

    // 3. four storescu at once, each its own study
    if (only.has('concurrent')) {
      const studies = Array.from({ length: CONCURRENT }, (_, i) => series[`c${i}`]!);
      const concurrent = async (port: number, calledAet: string) => {
        const begun = performance.now();
        await Promise.all(studies.map((s) => storescu(port, calledAet, s.files, profile)));
        return (performance.now() - begun) / 1000;
      };
      await settleDisk();
      rss.reset();
      const cpuFrom = await cpuMs(radflowPid);
      const seconds = await concurrent(radflow.dicomPort, RADFLOW_AET);
      await rss.sample();
      const radflowPeak = rss.peakMb('radflow');
      for (const s of studies)
        await waitForCount(() => radflowCount(radflow.baseUrl, token, s.studyInstanceUid), slices, 10_000);
      const cpuMsPerInstance = await cpuPer(cpuFrom, CONCURRENT * slices);
      let orthancRate = null;
      if (orthanc) {
        await settleDisk();
        rss.reset();
        const orthancSeconds = await concurrent(orthanc.port, orthanc.aeTitle);
        await rss.sample();
        const orthancPeak = rss.peakMb('orthanc');
        for (const s of studies) {
          const n = await orthancCount(orthanc, s.studyInstanceUid);
          if (n !== slices) throw new Error(`concurrent C-STORE: Orthanc has ${n} instances`);
        }
        orthancRate = { ...rate(orthancSeconds, CONCURRENT * slices), peakRssMb: orthancPeak };
      }
      figures.push({
        measurement: `C-STORE ${CONCURRENT} storescu at once × ${slices}`,
        instances: CONCURRENT * slices,
        radflow: { ...rate(seconds, CONCURRENT * slices), peakRssMb: radflowPeak, cpuMsPerInstance },
        orthanc: orthancRate,
        note: 'total instances/s until the last storescu exits; peak VmRSS sampled every 100 ms',
      });
    }

    memory.vmHwmMb = {
      radflow: ((await readStatusKb(radflow.process.pid!, 'VmHWM')) ?? 0) / 1024,
      orthanc: orthanc ? ((await readStatusKb(orthanc.process.pid!, 'VmHWM')) ?? 0) / 1024 : null,
    };

    // ------------------------------------------------------------ report
    const date = new Date().toISOString();
    const cstoreFigures = figures.filter((f) => f.measurement.startsWith('C-STORE storescu, 1 association'));
    const summary = {
      date,
      slices,
      seriesMegabytes: Math.round(seriesMb),
      batchSize,
      database: databaseUrl ? 'postgresql' : 'pglite',
      node: process.version,
      figures,
      memory,
      aims: {
        cstoreAtLeastOrthanc: cstoreFigures.some((f) => f.orthanc)
          ? cstoreFigures.every(
              (f) => !f.orthanc || f.radflow.instancesPerSecond >= f.orthanc.instancesPerSecond,
            )
          : null,
        stowAtLeastOrthanc: only.has('stow')
          ? figures
              .filter((f) => f.measurement.startsWith('STOW'))
              .every((f) => !f.orthanc || f.radflow.instancesPerSecond >= f.orthanc.instancesPerSecond)
          : null,
        peakRssUnder400Mb: only.has('concurrent')
          ? (figures.at(-1)!.radflow.peakRssMb ?? Infinity) < 400
          : null,
      },
    };
    out('');
    out(
      `| measurement | instances | Radflow s | Radflow inst/s | Radflow CPU ms/inst | Orthanc s | Orthanc inst/s | Radflow/Orthanc | peak RSS MB Radflow / Orthanc | note |`,
    );
    out(`|---|---:|---:|---:|---:|---:|---:|---:|---:|---|`);
    const fixed = (n: number | null | undefined, digits = 0) => (n == null ? '–' : n.toFixed(digits));
    for (const f of figures) {
      const ratio = f.orthanc ? f.radflow.instancesPerSecond / f.orthanc.instancesPerSecond : null;
      out(
        `| ${f.measurement} | ${f.instances} | ${fixed(f.radflow.seconds, 2)} | ${fixed(f.radflow.instancesPerSecond)} | ${fixed(f.radflow.cpuMsPerInstance, 1)} | ${fixed(f.orthanc?.seconds, 2)} | ${fixed(f.orthanc?.instancesPerSecond)} | ${fixed(ratio, 2)} | ${fixed(f.radflow.peakRssMb)} / ${fixed(f.orthanc?.peakRssMb)} | ${f.note} |`,
      );
    }
    out('');
    out(`memory (MB): ${JSON.stringify(memory)}`);
    out(`aims: ${JSON.stringify(summary.aims)}`);
    const problems = (await readFile(radflow.logFile, 'utf8'))
      .split('\n')
      .filter((line) => /"level":(4|5|6)0/.test(line));
    out(`Radflow log: ${problems.length} warning/error lines`);
    for (const line of problems.slice(0, 5)) out(`  ${line.slice(0, 400)}`);
    // RADFLOW_INGEST_PHASES=1: the server's per-phase means, one line per 500 instances (one per
    // measurement above, four for the concurrent one).
    const phaseLines = (await readFile(radflow.logFile, 'utf8'))
      .split('\n')
      .filter((line) => line.startsWith('{"ingestPhases"'));
    if (phaseLines.length > 0) {
      out('');
      out('server ingest phases, mean ms per instance (apps/server/src/modules/archive/ingest-phases.ts):');
      for (const line of phaseLines) out(`  ${line}`);
      (summary as Record<string, unknown>).ingestPhases = phaseLines.map(
        (line) => JSON.parse(line) as unknown,
      );
    }
    const target = outFile ?? join(tmpdir(), `archive-ingest-${date.replace(/[:.]/g, '-')}.json`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, `${JSON.stringify(summary, null, 2)}\n`);
    out(`written ${target}`);
  } catch (error) {
    const log = await readFile(join(work, 'radflow.log'), 'utf8').catch(() => '');
    if (log) process.stderr.write(`--- Radflow server log (tail)\n${log.slice(-4000)}\n`);
    throw error;
  } finally {
    rss.stop();
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    if (process.env.KEEP_WORK) out(`kept ${work}`);
    else await rm(work, { recursive: true, force: true });
    if (profileDir) out(`server CPU profile(s) in ${profileDir}`);
  }
}

await main();
