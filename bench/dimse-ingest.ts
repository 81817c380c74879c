/**
 * DIMSE ingest side by side (issue 3 §8, ARCHITECTURE §4): a generated CT series of N slices
 * (512×512, 16-bit, explicit VR little endian) sent by C-STORE, all peers on 127.0.0.1 with
 * TCP_NODELAY=1:
 *   storescu → DCMTK storescp, storescu → our SCP (in a child process, files renamed into a store
 *   dir), storescu → Orthanc, our cStore → Orthanc, our cStore → our SCP.
 * Prints instances/second for each and the peak RSS of the child running our SCP.
 * Usage: npx tsx bench/dimse-ingest.ts [--slices 500] [--json]
 *        npx tsx bench/dimse-ingest.ts --slices 500 --generate-only <dir>   (writes the series, no run)
 */
import { fork } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cStore, startStoreScp, type CStoreOutcome } from '../packages/dicom/src/dimse/index.js';
import { buildStorescuProfile, runStorescu, startOrthanc, startStorescp } from '@radflow/dicom/test-support';
import { CT_IMAGE_STORAGE, EXPLICIT_LE, writeCtSeries } from './lib/ct-series.js';

const OUR_AET = 'RADFLOW';

interface ChildMessage {
  type: 'listening' | 'stats';
  port?: number;
  count?: number;
  maxRssMb?: number;
  rssAtStartMb?: number;
}

// ---------------------------------------------------------------- child: our SCP in its own process
async function runChildScp(storeDir: string): Promise<void> {
  const rssAtStartMb = process.memoryUsage().rss / 2 ** 20;
  let count = 0;
  const scp = await startStoreScp({
    aeTitle: OUR_AET,
    port: 0,
    tempDir: join(storeDir, 'incoming'),
    onInstance: async (instance) => {
      const target = join(storeDir, `${instance.sopInstanceUid}.dcm`);
      // Without inMemoryWithoutFile the SCP always writes the temp file.
      if (instance.filePath !== undefined) await rename(instance.filePath, target);
      else await writeFile(target, instance.bytes);
      count++;
    },
  });
  const send = (message: ChildMessage) => process.send?.(message);
  process.on('message', (message: string) => {
    if (message === 'stats')
      send({ type: 'stats', count, maxRssMb: process.resourceUsage().maxRSS / 1024, rssAtStartMb });
    if (message === 'stop') void scp.close().then(() => process.exit(0));
  });
  send({ type: 'listening', port: scp.port });
}

// ---------------------------------------------------------------- the series
async function writeSeries(dir: string, slices: number): Promise<string[]> {
  return (await writeCtSeries(dir, slices)).files;
}

// ---------------------------------------------------------------- runs
interface Row {
  readonly path: string;
  readonly instances: number;
  readonly seconds: number;
  readonly note: string;
}

function assertAllSent(outcome: CStoreOutcome, label: string): void {
  if (outcome.failed > 0)
    throw new Error(
      `${label}: ${outcome.failed} failed: ${outcome.results.find((r) => r.status === 'FAILED')?.error}`,
    );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const slicesArg = args.indexOf('--slices');
  const slices = slicesArg >= 0 ? Number(args[slicesArg + 1]) : 500;
  const asJson = args.includes('--json');
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const generateOnly = args.indexOf('--generate-only');
  if (generateOnly >= 0) {
    const dir = args[generateOnly + 1]!;
    await mkdir(dir, { recursive: true });
    await writeSeries(dir, slices);
    out(`wrote ${slices} slices to ${dir}`);
    return;
  }

  const work = await mkdtemp(join(tmpdir(), 'radflow-dimse-bench-'));
  const rows: Row[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const seriesDir = join(work, 'series');
    await mkdir(seriesDir);
    let started = performance.now();
    const files = await writeSeries(seriesDir, slices);
    const megabytes = (slices * 512 * 512 * 2) / 2 ** 20;
    out(
      `generated ${slices} CT slices (${megabytes.toFixed(0)} MB pixel data) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const profile = join(work, 'storescu.cfg');
    await writeFile(
      profile,
      buildStorescuProfile([{ sopClassUid: CT_IMAGE_STORAGE, transferSyntaxUid: EXPLICIT_LE }]),
    );

    const storescu = async (path: string, port: number, calledAet: string, note: string) => {
      const run = await runStorescu({
        host: '127.0.0.1',
        port,
        callingAet: OUR_AET,
        calledAet,
        files,
        configFile: profile,
        timeoutMs: 600_000,
      });
      if (run.exitCode !== 0)
        throw new Error(`${path}: storescu exit ${run.exitCode}: ${run.stderr.slice(0, 500)}`);
      rows.push({ path, instances: slices, seconds: run.elapsedMs / 1000, note });
    };

    // 1. storescu → DCMTK storescp
    const storescp = await startStorescp({ aeTitle: 'STORESCP' });
    cleanups.push(() => storescp.stop());
    await storescu('storescu → storescp', storescp.port, 'STORESCP', 'DCMTK both ends, writes files');
    const storedByDcmtk = (await readdir(storescp.dir)).length;
    if (storedByDcmtk !== slices) throw new Error(`storescp stored ${storedByDcmtk}`);

    // 2. storescu → our SCP in a child process
    const scpDir = join(work, 'our-scp');
    await mkdir(join(scpDir, 'incoming'), { recursive: true });
    const child = fork(fileURLToPath(import.meta.url), ['--child-scp', scpDir], {
      execArgv: process.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const messages: ChildMessage[] = [];
    const waitFor = (type: ChildMessage['type']) =>
      new Promise<ChildMessage>((resolve, reject) => {
        const found = messages.find((m) => m.type === type);
        if (found) return resolve(found);
        child.once('exit', (code) => reject(new Error(`our SCP child exited ${code}`)));
        child.on('message', (m: ChildMessage) => {
          if (m.type === type) resolve(m);
        });
      });
    child.on('message', (m: ChildMessage) => messages.push(m));
    cleanups.push(async () => {
      if (child.exitCode === null) {
        child.send('stop');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    });
    const { port: scpPort } = await waitFor('listening');
    await storescu('storescu → our SCP', scpPort!, OUR_AET, 'child process, renamed into a store dir');
    messages.length = 0;
    child.send('stats');
    const afterStorescu = await waitFor('stats');
    if (afterStorescu.count !== slices) throw new Error(`our SCP stored ${afterStorescu.count}`);

    // 3. storescu → Orthanc, 4. cStore → Orthanc (a fresh Orthanc each, started outside the timing)
    const orthancA = await startOrthanc({ modalities: { radflow: [OUR_AET, '127.0.0.1', scpPort!] } });
    cleanups.push(() => orthancA.stop());
    await storescu('storescu → Orthanc', orthancA.port, 'ORTHANC', 'Orthanc 1.10 defaults (SQLite index)');
    const countA = (await orthancA.get<string[]>('/instances')).length;
    if (countA !== slices) throw new Error(`Orthanc stored ${countA}`);
    await orthancA.stop();

    const orthancB = await startOrthanc();
    cleanups.push(() => orthancB.stop());
    started = performance.now();
    const toOrthanc = await cStore({
      host: '127.0.0.1',
      port: orthancB.port,
      callingAet: OUR_AET,
      calledAet: 'ORTHANC',
      files,
    });
    assertAllSent(toOrthanc, 'cStore → Orthanc');
    rows.push({
      path: 'our cStore → Orthanc',
      instances: slices,
      seconds: (performance.now() - started) / 1000,
      note: 'stored bytes, no re-encoding',
    });
    const countB = (await orthancB.get<string[]>('/instances')).length;
    if (countB !== slices) throw new Error(`Orthanc stored ${countB}`);
    await orthancB.stop();

    // 5. cStore → our SCP (in-process here, files renamed like in 2.)
    const inProcessDir = join(work, 'in-process');
    await mkdir(join(inProcessDir, 'incoming'), { recursive: true });
    const inProcess = await startStoreScp({
      aeTitle: OUR_AET,
      port: 0,
      tempDir: join(inProcessDir, 'incoming'),
      onInstance: async (i) => {
        const target = join(inProcessDir, `${i.sopInstanceUid}.dcm`);
        if (i.filePath !== undefined) await rename(i.filePath, target);
        else await writeFile(target, i.bytes);
      },
    });
    cleanups.push(() => inProcess.close());
    started = performance.now();
    const toUs = await cStore({
      host: '127.0.0.1',
      port: inProcess.port,
      callingAet: OUR_AET,
      calledAet: OUR_AET,
      files,
    });
    assertAllSent(toUs, 'cStore → our SCP');
    rows.push({
      path: 'our cStore → our SCP',
      instances: slices,
      seconds: (performance.now() - started) / 1000,
      note: 'SCU and SCP in one process',
    });

    messages.length = 0;
    child.send('stats');
    const stats = await waitFor('stats');
    const summary = {
      slices,
      megabytes: Math.round(megabytes),
      rows: rows.map((r) => ({ ...r, instancesPerSecond: r.instances / r.seconds })),
      ourScpChild: { rssAtStartMb: stats.rssAtStartMb, peakRssMb: stats.maxRssMb },
    };
    if (asJson) {
      out(JSON.stringify(summary, null, 2));
    } else {
      out('');
      out(`| path | instances | seconds | instances/s | MB/s | note |`);
      out(`|---|---:|---:|---:|---:|---|`);
      for (const r of summary.rows)
        out(
          `| ${r.path} | ${r.instances} | ${r.seconds.toFixed(2)} | ${r.instancesPerSecond.toFixed(0)} | ${(megabytes / r.seconds).toFixed(0)} | ${r.note} |`,
        );
      out('');
      out(
        `our SCP child process: RSS at start ${stats.rssAtStartMb!.toFixed(0)} MB, peak RSS ${stats.maxRssMb!.toFixed(0)} MB (after storescu → our SCP, ${slices} instances)`,
      );
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child-scp') await runChildScp(process.argv[3]!);
else await main();
