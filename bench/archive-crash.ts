/**
 * Crash test of the archive's durability rule (ARCHIVE.md "order of writes"): the built server on
 * a fresh DATA_DIR (PGlite, or PostgreSQL with --database-url), a generated CT series sent by our
 * C-STORE SCU, the server killed with SIGKILL once --kill-after instances were acknowledged, then
 * restarted on the same DATA_DIR: every acknowledged instance must be retrievable by WADO-RS with
 * its pixel data intact. Exits 1 when one is missing.
 * Usage: npx tsx bench/archive-crash.ts [--slices 200] [--kill-after 150] [--server-bundle path/main.js]
 *          [--database-url postgres://…/fresh_db] [--associations 1]
 * --associations N: the series split over N associations sending at once (concurrent ingests:
 *   group commits of several instances, and the ingest workers on PostgreSQL).
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseInstance } from '../packages/dicom/src/index.js';
import { cStore } from '../packages/dicom/src/dimse/index.js';
import { writeCtSeries } from './lib/ct-series.js';
import { bearerToken, startBuiltServer } from './lib/radflow-server.js';

const args = process.argv.slice(2);
const valueOf = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const slices = Number(valueOf('--slices') ?? 200);
const killAfter = Number(valueOf('--kill-after') ?? 150);
const bundle = valueOf('--server-bundle');
const databaseUrl = valueOf('--database-url');
const associations = Number(valueOf('--associations') ?? 1);
const out = (line: string) => process.stdout.write(`${line}\n`);

const work = await mkdtemp(join(tmpdir(), 'radflow-archive-crash-'));
try {
  await mkdir(join(work, 'series'));
  const series = await writeCtSeries(join(work, 'series'), slices);
  const options = {
    work,
    ...(bundle ? { bundle } : {}),
    ...(databaseUrl ? { databaseUrl } : {}),
    env: { DICOM_AET: 'RADFLOW' },
  };
  const first = await startBuiltServer(options);
  const acknowledged: string[] = [];
  await Promise.all(
    Array.from({ length: associations }, (_, at) =>
      cStore({
        host: '127.0.0.1',
        port: first.dicomPort,
        callingAet: 'DEMOCENTER',
        calledAet: 'RADFLOW',
        files: series.files.filter((_file, i) => i % associations === at),
        onProgress: ({ result }) => {
          if (result.status === 'SEND') acknowledged.push(result.filePath);
          if (acknowledged.length === killAfter) first.process.kill('SIGKILL');
        },
      }).catch(() => undefined),
    ),
  );
  await new Promise((resolve) =>
    first.process.exitCode !== null || first.process.signalCode
      ? resolve(null)
      : first.process.once('exit', resolve),
  );
  out(`killed (${first.process.signalCode}) after ${acknowledged.length} acknowledged instances`);

  const second = await startBuiltServer(options);
  try {
    const token = await bearerToken(second.baseUrl, 'center@demo.local', 'demo12345');
    const missing: string[] = [];
    for (const file of acknowledged) {
      const bytes = await readFile(file);
      const parsed = parseInstance(bytes);
      const retrieve = () =>
        fetch(
          `${second.baseUrl}/api/dicomweb/studies/${series.studyInstanceUid}/series/${series.seriesInstanceUid}/instances/${parsed.sopInstanceUid}`,
          {
            headers: {
              authorization: `Bearer ${token}`,
              accept: 'multipart/related; type="application/dicom"',
            },
          },
        );
      let response = await retrieve();
      // 503 is the server shedding load on a busy machine ("try again"), not a missing instance.
      for (let retry = 0; response.status === 503 && retry < 10; retry++) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        response = await retrieve();
      }
      const body = Buffer.from(await response.arrayBuffer());
      // The stored file is our file meta header + the data set as sent: its pixel data (the file's
      // last 512×512×2 bytes) must be in the part.
      if (!response.ok || !body.includes(bytes.subarray(bytes.length - 512 * 512 * 2)))
        missing.push(`${parsed.sopInstanceUid} (${response.status})`);
    }
    out(
      `after restart: ${acknowledged.length - missing.length} of ${acknowledged.length} acknowledged instances intact`,
    );
    for (const line of missing.slice(0, 10)) out(`  missing or damaged: ${line}`);
    if (missing.length > 0) process.exitCode = 1;
  } finally {
    await second.stop();
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
