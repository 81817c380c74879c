/**
 * Report document figures (issue 7 §6): a signed-off two-page report with the center's letterhead
 * (header and footer png) and the QR of its share page, fetched through HTTP from the built server:
 *   - PDF sequential: median and p99 (target ≤ 150 ms, ≤ 400 ms);
 *   - PDF 50 concurrent requests, several rounds, asked as the web client asks (a shed call again
 *     after its Retry-After): errors a person sees (target 0), answers shed, latency percentiles;
 *   - Word sequential: median (target ≤ 100 ms).
 * Beside wall times it prints the server's CPU time per document (from /proc), which a busy machine
 * does not inflate. Build first: npm run build -w @radflow/server.
 * Usage: npx tsx bench/report-pdf.ts [--samples 200] [--rounds 4] [--concurrency 50] [--word 100]
 *   [--cpu-prof-dir DIR] [--json]
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { sendRetryingWhenShed } from '@radflow/core';
import { writeCtSeries } from './lib/ct-series.js';
import {
  BENCH_DEVICE_HEADERS,
  type TBuiltServer,
  bearerToken,
  signIn,
  startBuiltServer,
  stowFiles,
} from './lib/radflow-server.js';

const { values: args } = parseArgs({
  options: {
    samples: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '50' },
    word: { type: 'string', default: '100' },
    'cpu-prof-dir': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const out = (line: string) => process.stdout.write(`${line}\n`);
const SAMPLES = Number(args.samples);
const ROUNDS = Number(args.rounds);
const CONCURRENCY = Number(args.concurrency);
const WORD_SAMPLES = Number(args.word);
const CENTER = 'center@demo.local';
const DOCTOR = 'doctor@demo.local';
const ADMIN = 'admin@demo.local';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** The server process's CPU time so far (user + system), ms, from /proc. */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of stat; after "pid (comm) " they are the 12th and 13th.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function call(
  base: string,
  cookie: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', ...BENCH_DEVICE_HEADERS, ...headers },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res;
}

/** A letterhead band as a clinic would upload it: 1654×230 px (A4 width at 200 dpi), text on colour, with alpha. */
async function letterhead(title: string, colour: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1654" height="230">
    <rect width="1654" height="230" rx="24" fill="${colour}" fill-opacity="0.9"/>
    <text x="60" y="120" font-size="72" font-family="sans-serif" fill="white">${title}</text>
    <text x="60" y="190" font-size="36" font-family="sans-serif" fill="white">12 Ring Road, Pune · +91 20 5555 0100 · reports@city.example</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function postForm(
  base: string,
  cookie: string,
  path: string,
  fields: Record<string, string>,
  files: Record<string, Buffer>,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, v] of Object.entries(files))
    form.append(k, new Blob([new Uint8Array(v)], { type: 'image/png' }), `${k}.png`);
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { cookie, ...BENCH_DEVICE_HEADERS },
    body: form,
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

/** Two pages of findings, as a long CT report is. */
function twoPageReport(): string {
  const organs = ['Liver', 'Gall bladder', 'Pancreas', 'Spleen', 'Kidneys', 'Adrenals', 'Bowel', 'Bones'];
  const findings = organs
    .map(
      (organ) =>
        `<h3>${organ}</h3><p>The ${organ.toLowerCase()} is normal in size, shape and attenuation. No focal lesion is seen. ` +
        'No calcification, collection or abnormal enhancement. The surrounding fat planes are preserved and there is no ' +
        'lymphadenopathy in the adjacent stations. Comparison with the prior study shows no interval change.</p>',
    )
    .join('');
  return (
    '<h2>CT Abdomen and Pelvis (contrast)</h2><p><strong>Clinical history:</strong> Pain abdomen for two weeks.</p>' +
    '<p><strong>Technique:</strong> Axial sections with oral and intravenous contrast, portal venous phase.</p>' +
    findings +
    '<table><tbody><tr><th>Measurement</th><th>Value</th></tr><tr><td>Liver span</td><td>14.2 cm</td></tr>' +
    '<tr><td>Spleen</td><td>10.1 cm</td></tr><tr><td>Right kidney</td><td>10.8 cm</td></tr><tr><td>Left kidney</td><td>11.0 cm</td></tr></tbody></table>' +
    '<h3>Impression</h3><ul><li>No acute abnormality in the abdomen or pelvis.</li><li>No change from the prior study.</li></ul>'
  );
}

async function rowIdOf(base: string, cookie: string, studyUid: string): Promise<number> {
  const res = await call(base, cookie, '/api/dicom-web/studies/', {
    page: 0,
    size: 50,
    sortOrder: 'DESC',
    orderingCriteria: 'id',
    filters: {},
  });
  const page = (await res.json()) as { content: Array<{ id: number; instanceId: string }> };
  const row = page.content.find((r) => r.instanceId === studyUid);
  if (!row) throw new Error(`study ${studyUid} is not in the admin's list`);
  return row.id;
}

async function pageCount(bytes: ArrayBuffer): Promise<number> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes) }).promise;
  const pages = doc.numPages;
  await doc.destroy();
  return pages;
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'radflow-bench-report-pdf-'));
  let server: TBuiltServer | undefined;
  const profDir = args['cpu-prof-dir'];
  try {
    if (profDir) await mkdir(profDir, { recursive: true });
    server = await startBuiltServer({
      work,
      ...(process.env.RADFLOW_BUNDLE ? { bundle: process.env.RADFLOW_BUNDLE } : {}),
      nodeArgs: profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [],
    });
    const base = server.baseUrl;
    const pid = server.process.pid ?? 0;

    // The study: two CT slices sent by the center; the doctor signs off a two-page report.
    await mkdir(join(work, 'series'));
    const series = await writeCtSeries(join(work, 'series'), 2, {
      patientName: 'ΑΛΈΞΑΝΔΡΟΣ^Иванов',
      patientId: 'RP-1',
    });
    const token = await bearerToken(base, CENTER);
    await stowFiles(`${base}/api/dicomweb/studies`, series.files, { authorization: `Bearer ${token}` });
    const admin = await signIn(base, ADMIN);
    const id = await rowIdOf(base, admin, series.studyInstanceUid);
    const doctor = await signIn(base, DOCTOR);
    await call(base, doctor, `/api/report/lock/${id}`, {});
    await call(base, doctor, `/api/report/save/${id}`, {
      name: 'CT Abdomen',
      content: twoPageReport(),
      signOff: true,
      baseVersion: null,
    });

    const center = await signIn(base, CENTER);
    await postForm(
      base,
      center,
      '/api/center-setting/update/',
      { pdf_margin_top: '3', pdf_margin_bottom: '2.5', pdf_margin_left: '2', pdf_margin_right: '2' },
      {
        header: await letterhead('City Imaging Centre', '#1e4f9c'),
        footer: await letterhead('NABH accredited', '#7a2e12'),
      },
    );
    await call(base, center, '/api/setting/update/REPORT_TEXT', {
      header: '<p style="text-align: center"><strong>Department of Radiology</strong></p>',
      footer: '<p>Electronically signed; no signature needed.</p>',
      disclaimer:
        '<p>This report is an opinion based on the images and must be read with the clinical findings.</p>',
    });

    const body = { uid: series.studyInstanceUid, reportStatusId: id, showTemplate: true, appendQr: true };
    const pdf = () => call(base, center, '/api/pdf/download', body);
    const pages = await pageCount(await (await pdf()).arrayBuffer());
    if (pages < 2) out(`warning: the report PDF has ${pages} page(s), not 2`);

    const timed = async (fn: () => Promise<Response>) => {
      const start = performance.now();
      const res = await fn();
      await res.arrayBuffer();
      return performance.now() - start;
    };
    for (let i = 0; i < 10; i++) await timed(pdf);

    const cpu0 = cpuMsOf(pid);
    const sequential: number[] = [];
    for (let i = 0; i < SAMPLES; i++) sequential.push(await timed(pdf));
    const pdfCpu = (cpuMsOf(pid) - cpu0) / SAMPLES;

    // The concurrent rounds ask as the web client does (core sendRetryingWhenShed): a call the busy
    // server shed (503 with Retry-After, before doing any of it) is asked again after that wait, at
    // most SHED_RETRIES times. `shed` counts those answers; `errors` is what a person would have seen.
    const concurrent: number[] = [];
    let errors = 0;
    let shed = 0;
    const errorKinds: Record<string, number> = {};
    const askLikeTheWeb = async () => {
      const start = performance.now();
      const res = await sendRetryingWhenShed(
        () =>
          fetch(`${base}/api/pdf/download`, {
            method: 'POST',
            headers: { cookie: center, 'content-type': 'application/json', ...BENCH_DEVICE_HEADERS },
            body: JSON.stringify(body),
          }),
        async (shedAnswer) => {
          shed += 1;
          await shedAnswer.arrayBuffer();
        },
      );
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${res.status}`);
      return performance.now() - start;
    };
    const roundWall: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const start = performance.now();
      const results = await Promise.allSettled(Array.from({ length: CONCURRENCY }, askLikeTheWeb));
      roundWall.push(performance.now() - start);
      for (const result of results) {
        if (result.status === 'fulfilled') concurrent.push(result.value);
        else {
          errors += 1;
          const kind = String(result.reason instanceof Error ? result.reason.message : result.reason);
          errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
        }
      }
    }

    const word = () => call(base, center, '/api/pdf/word', body);
    for (let i = 0; i < 5; i++) await timed(word);
    const cpu1 = cpuMsOf(pid);
    const words: number[] = [];
    for (let i = 0; i < WORD_SAMPLES; i++) words.push(await timed(word));
    const wordCpu = (cpuMsOf(pid) - cpu1) / WORD_SAMPLES;

    const result = {
      pages,
      pdf: {
        samples: SAMPLES,
        median: percentile(sequential, 50),
        p99: percentile(sequential, 99),
        cpuPerDocument: pdfCpu,
      },
      concurrent: {
        requests: ROUNDS * CONCURRENCY,
        concurrency: CONCURRENCY,
        errors,
        errorKinds,
        shed,
        p50: percentile(concurrent, 50),
        p95: percentile(concurrent, 95),
        p99: percentile(concurrent, 99),
        max: percentile(concurrent, 100),
        roundMedian: percentile(roundWall, 50),
      },
      word: {
        samples: WORD_SAMPLES,
        median: percentile(words, 50),
        p99: percentile(words, 99),
        cpuPerDocument: wordCpu,
      },
      loadAverage: loadavg()[0] ?? 0,
    };
    if (args.json) {
      out(JSON.stringify(result, null, 2));
      return;
    }
    out(
      `Report documents (${pages}-page signed-off report, letterhead header + footer png, QR), ${new Date().toISOString()}`,
    );
    out('');
    out('| measure | value | target |');
    out('|---|---|---|');
    out(`| PDF sequential median (${SAMPLES}) | ${ms(result.pdf.median)} | ≤ 150 ms |`);
    out(`| PDF sequential p99 | ${ms(result.pdf.p99)} | ≤ 400 ms |`);
    out(`| PDF server CPU per document | ${ms(result.pdf.cpuPerDocument)} | |`);
    out(`| PDF ${CONCURRENCY} concurrent × ${ROUNDS}: errors a person sees | ${errors} | 0 |`);
    out(`| PDF concurrent: answers shed as busy, asked again (as the web does) | ${shed} | |`);
    out(
      `| PDF concurrent p50 / p95 / p99 / max | ${ms(result.concurrent.p50)} / ${ms(result.concurrent.p95)} / ${ms(result.concurrent.p99)} / ${ms(result.concurrent.max)} | |`,
    );
    out(`| PDF concurrent: one round of ${CONCURRENCY} (median) | ${ms(result.concurrent.roundMedian)} | |`);
    out(`| Word sequential median (${WORD_SAMPLES}) | ${ms(result.word.median)} | ≤ 100 ms |`);
    out(`| Word server CPU per document | ${ms(result.word.cpuPerDocument)} | |`);
    out('');
    out(`load average (1 min) at the end: ${result.loadAverage.toFixed(2)}`);
  } finally {
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
