/**
 * Zip of a study (issue 3 §8, ARCHITECTURE §5): a generated 500-slice 512×512 CT (bench/lib/ct-series.ts,
 * the generator of bench/dimse-ingest.ts) is ingested into an in-memory PGlite archive,
 * then the ZIP_STUDY job's builder streams it into a stored zip in the blob store. Prints MB/s and
 * the peak RSS growth while zipping (aim: ≥ 200 MB/s, < 100 MB), then the same for streaming the
 * finished zip back out (the download path) and, with --anonymized N, the anonymised variant of
 * the first N slices.
 * Usage: npx tsx bench/zip.ts [--slices 500] [--runs 3] [--anonymized 50] [--json]
 * The zip figure is the median of the runs (best also shown); the RSS growth the largest.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.js';
import { openPglite } from '../apps/server/src/db/client.js';
import { centers, groups, instances } from '../apps/server/src/db/schema.js';
import { ingestInstance } from '../apps/server/src/modules/archive/ingest.js';
import { FsBlobStore } from '../apps/server/src/modules/storage/blob-store.js';
import { buildStudyZip } from '../apps/server/src/modules/zip/build-study-zip.js';
import { writeCtSeries } from './lib/ct-series.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const slices = arg('--slices', 500);
const anonymizedSlices = arg('--anonymized', 0);
const runs = Math.max(1, arg('--runs', 3));
const asJson = args.includes('--json');
const MB = 2 ** 20;

/** Samples RSS every 10 ms while `fn` runs: peak growth over the RSS just before it. */
async function measure<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; seconds: number; peakGrowthMb: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const started = performance.now();
  try {
    const result = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, seconds: (performance.now() - started) / 1000, peakGrowthMb: (peak - baseline) / MB };
  } finally {
    clearInterval(timer);
  }
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'radflow-zip-bench-'));
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const log = (line: string) => !asJson && out(line);
  try {
    const seriesDir = join(work, 'series');
    await mkdir(seriesDir);
    const { files } = await writeCtSeries(seriesDir, slices);
    log(`generated ${files.length} CT slices`);

    const handle = await openPglite();
    await handle.migrate();
    const blobs = await new FsBlobStore(join(work, 'blobs')).init();
    const app = await buildApp({ db: handle.db, blobs, logger: false });
    const ctx = app.ctx;
    const [group] = await handle.db.insert(groups).values({ name: 'Bench' }).returning();
    const [center] = await handle.db
      .insert(centers)
      .values({ groupId: group!.id, name: 'Bench center', email: 'bench@test.local' })
      .returning();
    let studyId = 0;
    let reportStatusId = 0;
    const ingestStarted = performance.now();
    for (const filePath of files) {
      const result = await ingestInstance(ctx, { filePath }, { centerId: center!.id, source: 'UPLOAD' });
      if (!result.ok) throw new Error(result.reason);
      studyId = result.studyId;
      reportStatusId = result.reportStatusId;
    }
    log(`ingested in ${((performance.now() - ingestStarted) / 1000).toFixed(1)} s`);
    const rows = await handle.db
      .select({ size: instances.sizeBytes })
      .from(instances)
      .where(eq(instances.studyId, studyId));
    const inputMb = rows.reduce((s, r) => s + r.size, 0) / MB;

    // Several runs (each replaces the zip): a shared machine's load moves single figures a lot.
    const zips = [];
    for (let run = 0; run < runs; run++) {
      zips.push(await measure(() => buildStudyZip(ctx, { reportStatusId, studyId, variant: 'NONE' })));
    }
    const zip = [...zips].sort((a, b) => a.seconds - b.seconds)[Math.floor(zips.length / 2)]!;
    const zipMb = zip.result.sizeBytes / MB;
    const results: Record<string, unknown> = {
      slices: files.length,
      inputMb: Number(inputMb.toFixed(1)),
      zipMb: Number(zipMb.toFixed(1)),
      runs,
      zipSecondsMedian: Number(zip.seconds.toFixed(2)),
      zipMbPerSecond: Number((zipMb / zip.seconds).toFixed(0)),
      zipMbPerSecondBest: Number((zipMb / Math.min(...zips.map((z) => z.seconds))).toFixed(0)),
      zipPeakRssGrowthMb: Number(Math.max(...zips.map((z) => z.peakGrowthMb)).toFixed(1)),
      // The figures swing with the machine's load: keep it next to them.
      loadAverage1m: Number(loadavg()[0]!.toFixed(1)),
    };

    // The download path: the finished zip streamed out of the blob store.
    const download = await measure(() =>
      pipeline(
        blobs.get(zip.result.blobKey),
        new Writable({
          write(_chunk, _encoding, done) {
            done();
          },
        }),
      ),
    );
    results.downloadMbPerSecond = Number((zipMb / download.seconds).toFixed(0));
    results.downloadPeakRssGrowthMb = Number(download.peakGrowthMb.toFixed(1));

    if (anonymizedSlices > 0) {
      // The anonymised variant over a study of the first N slices (dcmjs re-encodes every file).
      const [small] = await handle.db.insert(groups).values({ name: 'Bench anon' }).returning();
      const [smallCenter] = await handle.db
        .insert(centers)
        .values({ groupId: small!.id, name: 'Bench anon center', email: 'bench-anon@test.local' })
        .returning();
      let anonStudy = 0;
      let anonReport = 0;
      for (const filePath of files.slice(0, anonymizedSlices)) {
        const r = await ingestInstance(ctx, { filePath }, { centerId: smallCenter!.id, source: 'UPLOAD' });
        if (!r.ok) throw new Error(r.reason);
        anonStudy = r.studyId;
        anonReport = r.reportStatusId;
      }
      const anon = await measure(() =>
        buildStudyZip(ctx, { reportStatusId: anonReport, studyId: anonStudy, variant: 'ANONYMIZED' }),
      );
      results.anonymizedSlices = anonymizedSlices;
      results.anonymizedMbPerSecond = Number((anon.result.sizeBytes / MB / anon.seconds).toFixed(0));
      results.anonymizedPeakRssGrowthMb = Number(anon.peakGrowthMb.toFixed(1));
    }

    if (asJson) out(JSON.stringify(results));
    else {
      log(
        `zip:      ${results.zipMb} MB, median of ${runs} runs ${results.zipSecondsMedian} s = ${results.zipMbPerSecond} MB/s (best ${results.zipMbPerSecondBest} MB/s), peak RSS growth ${results.zipPeakRssGrowthMb} MB, load ${results.loadAverage1m}`,
      );
      log(
        `download: ${results.downloadMbPerSecond} MB/s, peak RSS growth ${results.downloadPeakRssGrowthMb} MB`,
      );
      if (anonymizedSlices > 0) {
        log(
          `anonymised (${anonymizedSlices} slices): ${results.anonymizedMbPerSecond} MB/s, peak RSS growth ${results.anonymizedPeakRssGrowthMb} MB`,
        );
      }
    }
    await app.close();
    await handle.close();
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
