/**
 * Idle memory (issue 28 §3: idle RSS ≤ 150 MB), side by side with Orthanc 1.10: the built server
 * started as `npm start` starts it (PGlite on a fresh data directory, the demo seed), once per
 * variant of Node flags, and Orthanc with its DICOMweb plugin, all at once. Each process is left
 * alone for --settle seconds (V8 shrinks its heap some seconds after the start's work), then its
 * VmRSS is read once a second for --window seconds: the median and the least are printed.
 * bench/archive-ingest.ts's `idleRssMb` is the peak of the first second after the start, not this.
 * Build the server first: npm run build -w @radflow/server
 * Usage: npx tsx bench/idle-memory.ts [--settle 25] [--window 10] [--skip-orthanc]
 *          [--variant 'name=--flag …'] … [--server-bundle path/main.js] [--out file.json]
 * Without --variant: one Radflow with the flags of `npm start` (package.json).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOrthanc } from '@radflow/dicom/test-support';
import { argValue, argValues, hasFlag } from './lib/args.js';
import { REPO_ROOT, startBuiltServer } from './lib/radflow-server.js';

const settleSeconds = Number(argValue('--settle') ?? 25);
const windowSeconds = Number(argValue('--window') ?? 10);
const serverBundle = argValue('--server-bundle');
const outFile = argValue('--out');
const out = (line: string) => process.stdout.write(`${line}\n`);

/** The Node flags `npm start` gives the server (the root package.json's start script). */
async function startFlags(): Promise<string[]> {
  const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const command = /node ((?:--\S+ )*)apps\/server\/dist\/main\.js/.exec(pkg.scripts.start);
  if (!command) throw new Error('the start script does not run apps/server/dist/main.js');
  return command[1]!.trim().split(/\s+/).filter(Boolean);
}

const variants = argValues('--variant').map((spec) => {
  const at = spec.indexOf('=');
  if (at < 1) throw new Error(`--variant takes name=flags, not ${spec}`);
  return {
    name: spec.slice(0, at),
    flags: spec
      .slice(at + 1)
      .split(/\s+/)
      .filter(Boolean),
  };
});
if (variants.length === 0) variants.push({ name: 'npm start', flags: await startFlags() });

async function rssKb(pid: number): Promise<number | null> {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const work = await mkdtemp(join(tmpdir(), 'radflow-idle-'));
const stops: Array<() => Promise<void>> = [];
try {
  const processes: Array<{ name: string; pid: number }> = [];
  for (const [i, variant] of variants.entries()) {
    const server = await startBuiltServer({
      work: join(work, `radflow-${i}`),
      nodeArgs: variant.flags,
      ...(serverBundle ? { bundle: serverBundle } : {}),
    });
    stops.push(() => server.stop());
    processes.push({
      name: `Radflow (${variant.name}${variant.flags.length ? `: ${variant.flags.join(' ')}` : ''})`,
      pid: server.process.pid!,
    });
  }
  if (!hasFlag('--skip-orthanc')) {
    const orthanc = await startOrthanc();
    stops.push(() => orthanc.stop());
    processes.push({ name: 'Orthanc 1.10', pid: orthanc.process.pid! });
  }
  await sleep(settleSeconds * 1000);
  const samples = new Map(processes.map((p) => [p.name, [] as number[]]));
  for (let s = 0; s < windowSeconds; s++) {
    for (const p of processes) {
      const kb = await rssKb(p.pid);
      if (kb !== null) samples.get(p.name)!.push(kb / 1024);
    }
    await sleep(1000);
  }
  const rows = processes.map((p) => {
    const mb = samples.get(p.name)!;
    return { process: p.name, medianMb: Math.round(median(mb)), leastMb: Math.round(Math.min(...mb)) };
  });
  out(`\nidle RSS, ${settleSeconds} s after the start, sampled once a second for ${windowSeconds} s\n`);
  out('| process | median MB | least MB |');
  out('|---|---:|---:|');
  for (const r of rows) out(`| ${r.process} | ${r.medianMb} | ${r.leastMb} |`);
  if (outFile)
    await writeFile(
      outFile,
      `${JSON.stringify({ date: new Date().toISOString(), settleSeconds, windowSeconds, node: process.version, rows }, null, 1)}\n`,
    );
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await rm(work, { recursive: true, force: true });
}
