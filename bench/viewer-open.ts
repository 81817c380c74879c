/**
 * Viewer figures (issue 5 §5): headless Chromium (Debian's, through playwright-core) opens a
 * generated 500-slice 512×512 CT in our viewer and measures
 *   - navigation → the first image on screen: the first animation frame in which a canvas inside a
 *     viewport (`[data-testid^="viewport-"]`) shows an image (more than one grey level in its
 *     middle), whoever drew it — the viewer's first-image preview or Cornerstone;
 *   - navigation → the viewer ready: Cornerstone's first STACK_NEW_IMAGE followed by an
 *     IMAGE_RENDERED (the tools work from then on), and its canvas no longer blank;
 *   - navigation → every frame of the series fetched (WADO-RS /frames responses);
 *   - scrolling the loaded series: ↓ pressed N times, each waiting for the next image to render;
 *     frames per second;
 *   - the page's JS heap with the series loaded (CDP Performance.getMetrics JSHeapUsedSize).
 * Then the same viewer pointed at Orthanc's DICOMweb holding the same study: a same-origin proxy
 * sends /api/dicomweb/* to Orthanc's /dicom-web/* and the rest to our server; our own run goes
 * through the same proxy, so both pay the same hop.
 * Build first: npm run build. Usage: npx tsx bench/viewer-open.ts [--slices 500] [--scroll 100]
 *   [--runs 3] [--skip-orthanc] [--json] [--web-dist <dir>] [--server-bundle <file>]
 *   [--phases] [--trace <file.json>]
 *   --web-dist: serve another build of the web app (the server's WEB_DIST_DIR), for A/B runs beside
 *     apps/web/dist; --server-bundle: another server build (one level below apps/server);
 *   --phases: per run, when each request of the opening started and ended (Resource Timing) and
 *     when the first image rendered, to see where the time to the first image goes;
 *   --trace: a Chrome trace (CDP Tracing, with the V8 sampling profiler) of the first run's opening,
 *     up to the first image: open it in chrome://tracing or DevTools' Performance panel;
 *   --trace-scroll: the same of the first run's scrolling;
 *   --server-cpu-prof <dir>: our server runs with node --cpu-prof, its profile written there on exit.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type CDPSession, chromium, type Page } from 'playwright-core';
import { type OrthancPeer, startOrthanc } from '@radflow/dicom/test-support';
import { STORY_CHROMIUM_ARGS } from '../e2e/support/chromium-flags.js';
import { writeCtSeries } from './lib/ct-series.js';
import {
  BENCH_DEVICE_HEADERS,
  REPO_ROOT,
  type TBuiltServer,
  bearerToken,
  signIn,
  startBuiltServer,
  stowFiles,
} from './lib/radflow-server.js';

const { values: args } = parseArgs({
  options: {
    slices: { type: 'string', default: '500' },
    scroll: { type: 'string', default: '100' },
    runs: { type: 'string', default: '3' },
    'skip-orthanc': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    'web-dist': { type: 'string' },
    'server-bundle': { type: 'string' },
    phases: { type: 'boolean', default: false },
    trace: { type: 'string' },
    'trace-scroll': { type: 'string' },
    'server-cpu-prof': { type: 'string' },
  },
});
const out = (line: string) => process.stdout.write(`${line}\n`);
const SLICES = Number(args.slices);
const SCROLL_STEPS = Number(args.scroll);
const RUNS = Number(args.runs);
const ADMIN = 'admin@demo.local';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// ---------------------------------------------------------------- the same-origin proxy
const FIRST_IMAGE_PATH = /^\/api\/viewer\/studies\/[^/]+\/first-image(\?|$)/;

/**
 * One origin for the browser: /api/dicomweb/* goes to `dicomweb` (ours or Orthanc's, whose root is
 * /dicom-web), everything else to our server (the app, sign-in, the viewer context).
 */
async function startProxy(radflow: string, dicomweb: { base: string; orthanc: boolean }) {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    // Orthanc has no first-image answer (our server's, beside DICOMweb): the viewer then reads the
    // first image through DICOMweb, as it would in front of any other archive.
    if (dicomweb.orthanc && FIRST_IMAGE_PATH.test(url)) {
      res.writeHead(404).end();
      return;
    }
    const toDicomweb = url.startsWith('/api/dicomweb/');
    const target = toDicomweb
      ? new URL(dicomweb.orthanc ? url.replace('/api/dicomweb/', '/dicom-web/') : url, dicomweb.base)
      : new URL(url, radflow);
    const headers = { ...req.headers, host: target.host };
    // Orthanc has no session: it must not see ours (nor need it).
    if (toDicomweb && dicomweb.orthanc) delete headers.cookie;
    const upstream = httpRequest(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.once('error', (error) => {
      res.writeHead(502);
      res.end(String(error));
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

// ---------------------------------------------------------------- in the page
/**
 * Runs before the app: capture listeners see Cornerstone's (non-bubbling) element events, so the
 * bench knows when an image was put on a viewport and rendered without any hook in the product.
 */
const PAGE_PROBE = () => {
  const probe = { newImage: [] as number[], rendered: [] as number[], firstImage: 0, onScreen: 0 };
  (window as unknown as { __bench: typeof probe }).__bench = probe;
  // Every animation frame until then: does a canvas inside a viewport show an image? (The same
  // test as canvasShowsImage below, on a 64×64 piece of the middle.)
  const showsImage = (canvas: HTMLCanvasElement) => {
    if (canvas.width < 64 || canvas.height < 64) return false;
    const piece = document.createElement('canvas');
    piece.width = 64;
    piece.height = 64;
    const g = piece.getContext('2d', { willReadFrequently: true });
    if (!g) return false;
    g.drawImage(canvas, canvas.width / 2 - 32, canvas.height / 2 - 32, 64, 64, 0, 0, 64, 64);
    const data = g.getImageData(0, 0, 64, 64).data;
    let min = 255;
    let max = 0;
    for (let i = 0; i < data.length; i += 4) {
      const v = data[i] ?? 0;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    return max - min > 8;
  };
  const watchScreen = (now: number) => {
    const canvases = document.querySelectorAll<HTMLCanvasElement>('[data-testid^="viewport-"] canvas');
    if (Array.from(canvases).some(showsImage)) probe.onScreen = now;
    else requestAnimationFrame(watchScreen);
  };
  requestAnimationFrame(watchScreen);
  let pendingNew = false;
  document.addEventListener(
    'CORNERSTONE_STACK_NEW_IMAGE',
    () => {
      probe.newImage.push(performance.now());
      pendingNew = true;
    },
    true,
  );
  document.addEventListener(
    'CORNERSTONE_IMAGE_RENDERED',
    () => {
      const now = performance.now();
      probe.rendered.push(now);
      if (pendingNew && probe.firstImage === 0) probe.firstImage = now;
      pendingNew = false;
    },
    true,
  );
};

/** True when some canvas of the page shows more than one grey level in its middle. */
const canvasShowsImage = () => {
  for (const canvas of Array.from(document.querySelectorAll('canvas'))) {
    if (canvas.width < 64 || canvas.height < 64) continue;
    const probe = document.createElement('canvas');
    probe.width = 64;
    probe.height = 64;
    const g = probe.getContext('2d');
    if (!g) continue;
    g.drawImage(canvas, canvas.width / 2 - 32, canvas.height / 2 - 32, 64, 64, 0, 0, 64, 64);
    const data = g.getImageData(0, 0, 64, 64).data;
    let min = 255;
    let max = 0;
    for (let i = 0; i < data.length; i += 4) {
      const v = data[i] ?? 0;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (max - min > 8) return true;
  }
  return false;
};

/**
 * The opening as a timeline (ms from navigation start): each request of the page (the app's
 * chunks, the API calls, the DICOMweb queries; frames summed up), Cornerstone's first new image and
 * first render.
 */
const OPENING_PHASES = () => {
  const bench = (
    window as unknown as { __bench: { newImage: number[]; firstImage: number; onScreen: number } }
  ).__bench;
  // No named inner functions: tsx would wrap them in a __name() the page does not have.
  const rows = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
    .filter((e) => e.startTime <= bench.firstImage)
    .map((e) => {
      const path = new URL(e.name).pathname;
      const what = /\/frames\/\d/.test(path)
        ? 'frame'
        : path.startsWith('/api/dicomweb/')
          ? `dicomweb ${path.replace(/^.*\/series\/[^/]+/, 'series/…')}`
          : path.startsWith('/api/')
            ? `api ${path.replace(/\/studies\/[^/]+/, '/studies/…')}`
            : `asset ${path.replace(/^\/assets\//, '')}`;
      return {
        what,
        start: Math.round(e.startTime),
        end: Math.round(e.responseEnd),
        kb: Math.round(e.encodedBodySize / 1024),
      };
    });
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  const frames = rows.filter((r) => r.what === 'frame').sort((a, b) => a.end - b.end);
  return {
    domContentLoaded: Math.round(nav?.domContentLoadedEventEnd ?? 0),
    rows: rows.filter((r) => r.what !== 'frame'),
    framesBeforeFirstImage: frames.length,
    firstFrame: frames[0],
    firstNewImage: Math.round(bench.newImage[0] ?? 0),
    firstImage: Math.round(bench.firstImage),
    onScreen: Math.round(bench.onScreen),
  };
};

const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'v8.execute',
  'disabled-by-default-v8.cpu_profiler',
  'blink.user_timing',
  'loading',
  'gpu',
  'toplevel',
];

/** Starts a Chrome trace on the page; the answer stops it and writes the file. */
async function startTrace(cdp: CDPSession, file: string): Promise<() => Promise<void>> {
  const traceEvents: unknown[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => traceEvents.push(...value));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: TRACE_CATEGORIES },
  });
  return async () => {
    const complete = new Promise<void>((done) => cdp.once('Tracing.tracingComplete', () => done()));
    await cdp.send('Tracing.end');
    await complete;
    await writeFile(file, JSON.stringify({ traceEvents }));
    out(`trace: ${file}`);
  };
}

interface TViewerRun {
  onScreenMs: number;
  firstImageMs: number;
  allFramesMs: number;
  scrollFps: number;
  heapMb: number;
  frameRequests: number;
  failedRequests: number;
}

async function measureOnce(
  origin: string,
  cookie: string,
  viewerPath: string,
  traceFile?: string,
  scrollTraceFile?: string,
): Promise<TViewerRun> {
  const profile = await mkdtemp(join(tmpdir(), 'radflow-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    // The browser stories' flags: the viewer measured as the stories drive it.
    args: [...STORY_CHROMIUM_ARGS],
    viewport: { width: 1400, height: 900 },
  });
  try {
    const [name, ...rest] = cookie.split('; ')[0]?.split('=') ?? [];
    await context.addCookies([{ name: name ?? '', value: rest.join('='), url: origin }]);
    const page: Page = context.pages()[0] ?? (await context.newPage());
    // tsx names the probe's arrow functions with a helper the page does not have.
    await page.addInitScript({ content: 'globalThis.__name ??= (f) => f;' });
    await page.addInitScript(PAGE_PROBE);
    let frames = 0;
    let failed = 0;
    let allFramesAt = 0;
    let allFramesFetched: () => void = () => undefined;
    const allFrames = new Promise<void>((done) => (allFramesFetched = done));
    page.on('requestfinished', async (request) => {
      // Every slice once: the first in the first-image answer (when the server has one), the rest as frames.
      const path = new URL(request.url()).pathname;
      const isFirstImage = FIRST_IMAGE_PATH.test(path) && (await request.response())?.status() === 200;
      if (!/\/frames\/\d/.test(path) && !isFirstImage) return;
      frames += 1;
      if (frames === SLICES) {
        allFramesAt = Date.now();
        allFramesFetched();
      }
    });
    page.on('requestfailed', () => (failed += 1));
    // A viewer that never shows the image times out below: its errors say why.
    page.on('pageerror', (error) => out(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') out(`console error: ${message.text()}`);
    });
    const stopTrace = traceFile ? await startTrace(await context.newCDPSession(page), traceFile) : null;
    const started = Date.now();
    await page.goto(`${origin}${viewerPath}`);
    await page.waitForFunction(
      () => (window as unknown as { __bench: { firstImage: number } }).__bench.firstImage > 0,
      undefined,
      { timeout: 60_000, polling: 'raf' },
    );
    await page.waitForFunction(
      () => (window as unknown as { __bench: { onScreen: number } }).__bench.onScreen > 0,
      undefined,
      { timeout: 10_000, polling: 'raf' },
    );
    const { firstImageMs, onScreenMs } = await page.evaluate(() => {
      const bench = (window as unknown as { __bench: { firstImage: number; onScreen: number } }).__bench;
      return { firstImageMs: bench.firstImage, onScreenMs: bench.onScreen };
    });
    await stopTrace?.();
    if (!(await page.evaluate(canvasShowsImage))) throw new Error('the first image is blank');
    if (args.phases) out(JSON.stringify(await page.evaluate(OPENING_PHASES)));
    // A viewer that fetches several frames a request, or not all of them, leaves this NaN.
    await Promise.race([allFrames, new Promise((done) => setTimeout(done, 120_000))]);
    const allFramesMs = allFramesAt ? allFramesAt - started : Number.NaN;

    // Scrolling: each ↓ waits for the next image to be rendered before the next key.
    const stopScrollTrace = scrollTraceFile
      ? await startTrace(await context.newCDPSession(page), scrollTraceFile)
      : null;
    const scrollMs = await page.evaluate(async (steps: number) => {
      const bench = (window as unknown as { __bench: { rendered: number[]; newImage: number[] } }).__bench;
      const t0 = performance.now();
      for (let i = 0; i < steps; i++) {
        const seen = bench.newImage.length;
        const target = document.activeElement ?? document.body;
        target.dispatchEvent(
          new KeyboardEvent('keydown', { key: 'ArrowDown', code: 'ArrowDown', bubbles: true }),
        );
        target.dispatchEvent(
          new KeyboardEvent('keyup', { key: 'ArrowDown', code: 'ArrowDown', bubbles: true }),
        );
        const rendered = bench.rendered.length;
        const until = performance.now() + 5_000;
        while (
          (bench.newImage.length === seen || bench.rendered.length === rendered) &&
          performance.now() < until
        ) {
          await new Promise((r) => requestAnimationFrame(r));
        }
        if (bench.newImage.length === seen) throw new Error(`step ${i}: no new image after ArrowDown`);
      }
      return performance.now() - t0;
    }, SCROLL_STEPS);
    await stopScrollTrace?.();

    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? Number.NaN;
    return {
      onScreenMs,
      firstImageMs,
      allFramesMs,
      scrollFps: (SCROLL_STEPS * 1000) / scrollMs,
      heapMb: heap / 2 ** 20,
      frameRequests: frames,
      failedRequests: failed,
    };
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function studyRowId(
  baseUrl: string,
  cookie: string,
  studyUid: string,
): Promise<{ id: number; v: number }> {
  const res = await fetch(`${baseUrl}/api/dicom-web/studies/`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', ...BENCH_DEVICE_HEADERS },
    body: JSON.stringify({ page: 0, size: 50, sortOrder: 'DESC', orderingCriteria: 'id', filters: {} }),
  });
  if (!res.ok) throw new Error(`list: ${res.status} ${await res.text()}`);
  const page = (await res.json()) as {
    content: Array<{ id: number; instanceId: string; apiVersion: number }>;
  };
  const row = page.content.find((r) => r.instanceId === studyUid);
  if (!row) throw new Error(`study ${studyUid} is not in the admin's list`);
  return { id: row.id, v: row.apiVersion };
}

async function main(): Promise<void> {
  const webDist = args['web-dist'] ? resolve(args['web-dist']) : join(REPO_ROOT, 'apps/web/dist');
  const serverBundle = args['server-bundle']
    ? resolve(args['server-bundle'])
    : join(REPO_ROOT, 'apps/server/dist/main.js');
  for (const file of [serverBundle, join(webDist, 'index.html')]) {
    await stat(file).catch(() => {
      throw new Error(`${file} is missing: run npm run build first`);
    });
  }
  const work = await mkdtemp(join(tmpdir(), 'radflow-bench-viewer-'));
  let server: TBuiltServer | undefined;
  let orthanc: OrthancPeer | undefined;
  try {
    const seriesDir = join(work, 'series');
    await mkdir(seriesDir);
    const series = await writeCtSeries(seriesDir, SLICES, { patientName: 'BENCH^VIEWER', patientId: 'BV-1' });
    server = await startBuiltServer({
      work,
      bundle: serverBundle,
      // A server built before WEB_DIST_DIR ignores it and serves apps/web/dist.
      env: { WEB_DIST_DIR: webDist },
      ...(args['server-cpu-prof']
        ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', args['server-cpu-prof']] }
        : {}),
    });
    const token = await bearerToken(server.baseUrl, 'center@demo.local');
    await stowFiles(`${server.baseUrl}/api/dicomweb/studies`, series.files, {
      authorization: `Bearer ${token}`,
    });
    const cookie = await signIn(server.baseUrl, ADMIN);
    const { id, v } = await studyRowId(server.baseUrl, cookie, series.studyInstanceUid);
    const viewerPath = `/viewer/${series.studyInstanceUid}/${id}?v=${v}`;

    const peers: Array<{ name: string; base: string; orthanc: boolean }> = [
      { name: 'Radflow', base: server.baseUrl, orthanc: false },
    ];
    if (!args['skip-orthanc']) {
      orthanc = await startOrthanc();
      await stowFiles(`${orthanc.baseUrl}/dicom-web/studies`, series.files);
      peers.push({ name: 'Orthanc 1.10 DICOMweb', base: orthanc.baseUrl, orthanc: true });
    }

    const results: Array<{ peer: string; runs: TViewerRun[] }> = [];
    for (const peer of peers) {
      const proxy = await startProxy(server.baseUrl, peer);
      const proxyCookie = await signIn(proxy.url, ADMIN);
      const runs: TViewerRun[] = [];
      for (let r = 0; r < RUNS; r++) {
        const first = r === 0 && results.length === 0;
        const traceFile = args.trace && first ? resolve(args.trace) : undefined;
        const scrollTraceFile = args['trace-scroll'] && first ? resolve(args['trace-scroll']) : undefined;
        const run = await measureOnce(proxy.url, proxyCookie, viewerPath, traceFile, scrollTraceFile);
        if (args.phases) {
          out(
            `${peer.name} run ${r + 1}: first image on screen ${run.onScreenMs.toFixed(0)} ms, viewer ready ${run.firstImageMs.toFixed(0)} ms`,
          );
        }
        runs.push(run);
      }
      await proxy.close();
      results.push({ peer: peer.name, runs });
    }

    if (args.json) {
      out(
        JSON.stringify({ slices: SLICES, scrollSteps: SCROLL_STEPS, loadavg: loadavg(), results }, null, 2),
      );
      return;
    }
    const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
    out(`\n${SLICES}-slice 512×512 CT, ${RUNS} runs each (median), ${SCROLL_STEPS} scroll steps`);
    out(
      '| DICOMweb behind the viewer | first image on screen ms (aim ≤ 1000) | viewer ready ms | all frames ms | scroll fps (aim ≥ 20) | JS heap MB (aim ≤ 600) | frame requests | failed requests |',
    );
    out('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const { peer, runs } of results) {
      out(
        `| ${peer} | ${fmt(median(runs.map((r) => r.onScreenMs)))} | ${fmt(median(runs.map((r) => r.firstImageMs)))} | ${fmt(median(runs.map((r) => r.allFramesMs)))} | ${fmt(median(runs.map((r) => r.scrollFps)), 1)} | ${fmt(median(runs.map((r) => r.heapMb)))} | ${median(runs.map((r) => r.frameRequests))} | ${median(runs.map((r) => r.failedRequests))} |`,
      );
    }
    const [one, five, fifteen] = loadavg();
    out(
      `machine: load average ${fmt(one ?? 0, 1)} / ${fmt(five ?? 0, 1)} / ${fmt(fifteen ?? 0, 1)} at the end`,
    );
  } finally {
    await orthanc?.stop();
    await server?.stop();
    if (!process.env.KEEP_WORK) await rm(work, { recursive: true, force: true });
  }
}

await main();
