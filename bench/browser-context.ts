/**
 * What a browser story's fresh context costs (issue 22, CI time): Debian's desktop chromium and its
 * headless shell (package chromium-headless-shell), launched once each with the stories' flags,
 * then alternating rounds of a new context with a page on about:blank. CPU is the browser's whole
 * process tree (browser, GPU, renderers, utilities, from /proc), read before the context closes, as
 * a closed context's renderer leaves /proc with its CPU; wall time is the open to the blank page.
 * Usage: npx tsx bench/browser-context.ts [--rounds 12] [--out file.json]
 *          [--browser name=/path/to/binary] …  (default: both Debian browsers that are installed)
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { type Browser, chromium } from 'playwright-core';
import { STORY_CHROMIUM_ARGS } from '../e2e/support/chromium-flags.js';
import { argValue, argValues } from './lib/args.js';
import { summary } from './lib/stats.js';

const rounds = Number(argValue('--rounds') ?? 12);
const outFile = argValue('--out');
const given = argValues('--browser');
const browsers = (
  given.length > 0
    ? given.map((spec) => ({
        name: spec.slice(0, spec.indexOf('=')),
        path: spec.slice(spec.indexOf('=') + 1),
      }))
    : [
        { name: 'chromium', path: '/usr/bin/chromium' },
        { name: 'chromium-headless-shell', path: '/usr/bin/chromium-headless-shell' },
      ]
).filter((b) => existsSync(b.path));
if (browsers.length === 0)
  throw new Error('no browser installed: apt-get install chromium chromium-headless-shell');

/** CPU milliseconds (user + system) of `root` and every process below it. */
function treeCpuMs(root: number): number {
  const parentOf = new Map<number, number>();
  const ticksOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parentOf.set(Number(entry), Number(fields[1]));
      ticksOf.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let at: number | undefined = pid; at !== undefined && at > 1; at = parentOf.get(at))
      if (at === root) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, t] of ticksOf) if (inTree(pid)) ticks += t;
  return ticks * 10; // USER_HZ = 100 on Linux
}

const launched: Array<{ name: string; browser: Browser; pid: number; cpuMs: number[]; wallMs: number[] }> =
  [];
for (const { name, path } of browsers) {
  const browser = await chromium.launch({
    executablePath: path,
    headless: true,
    args: [...STORY_CHROMIUM_ARGS],
  });
  // playwright-core starts the browser as a child of this process: the newest such child is it.
  const pid = Math.max(
    ...readdirSync('/proc')
      .filter((e) => /^\d+$/.test(e))
      .map(Number)
      .filter((p) => {
        try {
          const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
        } catch {
          return false;
        }
      }),
  );
  launched.push({ name, browser, pid, cpuMs: [], wallMs: [] });
}

for (let round = 0; round < rounds + 2; round++) {
  for (const b of launched) {
    const cpu0 = treeCpuMs(b.pid);
    const t0 = performance.now();
    const context = await b.browser.newContext({
      viewport: { width: 1400, height: 900 },
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    await page.goto('about:blank');
    const wall = performance.now() - t0;
    const cpu = treeCpuMs(b.pid) - cpu0;
    await context.close();
    if (round >= 2) {
      // The first two rounds warm each browser up (its first renderer, caches): in neither figure.
      b.cpuMs.push(cpu);
      b.wallMs.push(wall);
    }
  }
}
const rows = launched.map((b) => ({
  browser: b.name,
  version: b.browser.version(),
  cpuMs: summary(b.cpuMs).p50Ms,
  wallMs: summary(b.wallMs).p50Ms,
  cpuSamplesMs: b.cpuMs,
}));
for (const b of launched) await b.browser.close();
for (const row of rows)
  process.stdout.write(
    `${row.browser.padEnd(24)} CPU p50 ${String(row.cpuMs).padStart(5)} ms  wall p50 ${row.wallMs.toFixed(0).padStart(4)} ms\n`,
  );
if (outFile) await writeFile(outFile, `${JSON.stringify({ rounds, rows }, null, 2)}\n`);
