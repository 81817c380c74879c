/**
 * DICOMweb retrieval side by side (issue 3 §8, ARCHITECTURE §4): a generated CT series of N slices
 * (512×512, 16-bit; bench/dimse-ingest.ts writes it) is ingested into our server (built in-process
 * on a temp PGlite, or on PostgreSQL with DATABASE_URL, listening on 127.0.0.1) and stored into
 * Orthanc with its DICOMweb plugin; then, over HTTP on both:
 *   series /metadata  and  /frames/1 of the middle instance
 * are timed, and our viewer's first-image answer (the first slice's metadata and frame in one
 * request, /api/viewer/studies/{study}/first-image; Orthanc has none: its row is the viewer's
 * DICOMweb way to the same image, series list + series metadata + one frame, one after the other) (wall time of the whole answer at the client, after warm-up). Prints median and 95th.
 * Usage: npx tsx bench/dicomweb-retrieve.ts [--slices 500] [--runs 40] [--json]
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { type DbHandle, openPglite, openPostgres } from '../apps/server/src/db/client.js';
import { centers, groups, users } from '../apps/server/src/db/schema.js';
import { ingestInstance } from '../apps/server/src/modules/archive/ingest.js';
import { mintApiToken } from '../apps/server/src/modules/credentials/api-token.js';
import { createSession } from '../apps/server/src/modules/credentials/sessions.js';
import { FsBlobStore } from '../apps/server/src/modules/storage/blob-store.js';
import { startOrthanc } from '@radflow/dicom/test-support';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const slices = option('--slices', 500);
const runs = option('--runs', 40);
const asJson = args.includes('--json');
const out = (line: string) => process.stdout.write(`${line}\n`);

async function openDatabase(): Promise<DbHandle> {
  const url = process.env.DATABASE_URL;
  if (!url) return openPglite();
  const name = `radflow_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const handle = await openPostgres(u.toString(), { max: 8 });
  return {
    ...handle,
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

async function time(url: string, headers: Record<string, string>): Promise<{ ms: number; bytes: number }> {
  const started = process.hrtime.bigint();
  const response = await fetch(url, { headers });
  const body = await response.arrayBuffer();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!response.ok)
    throw new Error(`${url}: ${response.status} ${Buffer.from(body).toString().slice(0, 200)}`);
  return { ms, bytes: body.byteLength };
}

/** Median and 95th percentile of `runs` timed calls, after 3 warm-ups. */
async function sampled(once: () => Promise<{ ms: number; bytes: number }>) {
  for (let i = 0; i < 3; i++) await once();
  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const run = await once();
    samples.push(run.ms);
    bytes = run.bytes;
  }
  samples.sort((a, b) => a - b);
  const pick = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number;
  return { median: pick(0.5), p95: pick(0.95), bytes };
}

const measure = (url: string, headers: Record<string, string>) => sampled(() => time(url, headers));

/** Requests made one after the other (each needs the answer before it), timed together. */
const measureChain = (urls: readonly string[], lastHeaders: Record<string, string>) =>
  sampled(async () => {
    let ms = 0;
    let bytes = 0;
    for (const [i, url] of urls.entries()) {
      const run = await time(url, i === urls.length - 1 ? lastHeaders : {});
      ms += run.ms;
      bytes += run.bytes;
    }
    return { ms, bytes };
  });

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'radflow-bench-wado-'));
  const seriesDir = join(work, 'series');
  const here = fileURLToPath(new URL('.', import.meta.url));
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(here, 'dimse-ingest.ts'),
      '--slices',
      String(slices),
      '--generate-only',
      seriesDir,
    ],
    { stdio: 'ignore' },
  );
  const files = (await readdir(seriesDir)).filter((f) => f.endsWith('.dcm')).sort();

  const db = await openDatabase();
  await db.migrate();
  const blobs = await new FsBlobStore(join(work, 'blobs')).init();
  const app = await buildApp({ db: db.db, blobs, logger: false });
  const [group] = await db.db.insert(groups).values({ name: 'Bench' }).returning();
  const [center] = await db.db
    .insert(centers)
    .values({ groupId: group!.id, name: 'Bench center', email: 'bench@bench.local' })
    .returning();
  const [user] = await db.db
    .insert(users)
    .values({
      email: 'bench-assignor@bench.local',
      passwordHash: 'x',
      roles: ['ROLE_ASSIGNOR'],
      groupId: group!.id,
      identifier: 'Bench',
    })
    .returning();
  let studyUid = '';
  let seriesUid = '';
  const sops: string[] = [];
  const ingestStart = Date.now();
  for (const file of files) {
    const result = await ingestInstance(
      app.ctx,
      { bytes: await readFile(join(seriesDir, file)) },
      { centerId: center!.id, source: 'STOW' },
    );
    if (!result.ok) throw new Error(`${file}: ${result.reason}`);
    studyUid = result.studyInstanceUid;
    seriesUid = result.seriesInstanceUid;
    sops.push(result.sopInstanceUid);
  }
  const ingestSeconds = (Date.now() - ingestStart) / 1000;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const ours = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/dicomweb`;
  // The token GET /api/user/token would mint from a session of this user.
  const now = app.ctx.now();
  const { sessionId } = await createSession(app.ctx.db, { userId: user!.id, deviceId: null, now });
  const { token } = await mintApiToken(app.ctx.db, { user: user!, sessionId, now });
  const auth = { authorization: `Bearer ${token}` };

  const orthanc = await startOrthanc();
  try {
    for (const file of files) {
      const response = await fetch(`${orthanc.baseUrl}/instances`, {
        method: 'POST',
        body: await readFile(join(seriesDir, file)),
      });
      if (!response.ok) throw new Error(`Orthanc refused ${file}: ${response.status}`);
    }
    const middle = sops[Math.floor(sops.length / 2)] as string;
    const paths = {
      metadata: `/studies/${studyUid}/series/${seriesUid}/metadata`,
      frame: `/studies/${studyUid}/series/${seriesUid}/instances/${middle}/frames/1`,
    };
    const frameAccept = { accept: 'multipart/related; type="application/octet-stream"; transfer-syntax=*' };
    const rows = [
      {
        what: `series metadata (${slices} instances)`,
        who: 'Radflow',
        ...(await measure(`${ours}${paths.metadata}`, auth)),
      },
      {
        what: `series metadata (${slices} instances)`,
        who: 'Orthanc',
        ...(await measure(`${orthanc.baseUrl}/dicom-web${paths.metadata}`, {})),
      },
      {
        what: 'one frame 512×512×16',
        who: 'Radflow',
        ...(await measure(`${ours}${paths.frame}`, { ...auth, ...frameAccept })),
      },
      {
        what: 'one frame 512×512×16',
        who: 'Orthanc',
        ...(await measure(`${orthanc.baseUrl}/dicom-web${paths.frame}`, frameAccept)),
      },
      {
        what: "viewer's first image",
        who: 'Radflow',
        ...(await measure(`${ours.replace(/\/dicomweb$/, '')}/viewer/studies/${studyUid}/first-image`, auth)),
      },
      {
        what: "viewer's first image (DICOMweb: series list, metadata, frame)",
        who: 'Orthanc',
        ...(await measureChain(
          [
            `${orthanc.baseUrl}/dicom-web/studies/${studyUid}/series`,
            `${orthanc.baseUrl}/dicom-web${paths.metadata}`,
            `${orthanc.baseUrl}/dicom-web${paths.frame}`,
          ],
          frameAccept,
        )),
      },
    ];
    if (asJson) {
      out(JSON.stringify({ slices, runs, database: process.env.DATABASE_URL ? 'postgres' : 'pglite', rows }));
    } else {
      out(
        `${slices} slices ingested in-process in ${ingestSeconds.toFixed(1)} s; ${runs} timed runs after 3 warm-ups`,
      );
      out(`database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (in memory)'}`);
      out('| request | server | median ms | 95th ms | bytes |');
      out('|---|---|---:|---:|---:|');
      for (const row of rows) {
        out(`| ${row.what} | ${row.who} | ${row.median.toFixed(1)} | ${row.p95.toFixed(1)} | ${row.bytes} |`);
      }
    }
  } finally {
    await orthanc.stop();
    await app.close();
    await db.close();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
