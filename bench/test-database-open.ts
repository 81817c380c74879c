/**
 * What a server test file's database costs to open (issue 22, CI time): PGlite in memory loaded
 * from the migrated template whole (63 MB) and from the test run's trimmed snapshot
 * (apps/server/test/pglite-test-snapshot.ts), alternating in one process, each open timed to its
 * first query. Build the server first (the template is dist/pglite-template.tar):
 * npm run build -w @radflow/server
 * Usage: npx tsx bench/test-database-open.ts [--pairs 6] [--out file.json]
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPglite } from '../apps/server/src/db/client.js';
import { testSnapshotOf } from '../apps/server/test/pglite-test-snapshot.js';
import { argValue } from './lib/args.js';
import { REPO_ROOT } from './lib/radflow-server.js';
import { summary } from './lib/stats.js';

const pairs = Number(argValue('--pairs') ?? 6);
const outFile = argValue('--out');

const template = new Uint8Array(await readFile(join(REPO_ROOT, 'apps/server/dist/pglite-template.tar')));
const snapshot = await testSnapshotOf(template);

async function openMs(tar: Uint8Array): Promise<number> {
  const started = performance.now();
  const handle = await openPglite({ loadDataDir: new Blob([tar.slice()]) });
  await handle.client.query('select count(*) from users');
  const ms = performance.now() - started;
  await handle.close();
  return ms;
}

const rows: Array<{ variant: string; mb: number; ms: number[] }> = [
  { variant: 'template whole', mb: template.byteLength / 1e6, ms: [] },
  { variant: 'test snapshot', mb: snapshot.byteLength / 1e6, ms: [] },
];
await openMs(snapshot); // the WASM module's compile, once per process, in neither figure
for (let i = 0; i < pairs; i++) {
  rows[0]!.ms.push(await openMs(template));
  rows[1]!.ms.push(await openMs(snapshot));
}
const median = (values: number[]) => summary(values).p50Ms;
for (const row of rows)
  process.stdout.write(
    `${row.variant.padEnd(15)} ${row.mb.toFixed(1).padStart(5)} MB  median ${median(row.ms).toFixed(0)} ms  ` +
      `(${row.ms.map((ms) => ms.toFixed(0)).join(', ')})\n`,
  );
if (outFile)
  await writeFile(
    outFile,
    `${JSON.stringify({ pairs, rows: rows.map((r) => ({ ...r, medianMs: median(r.ms) })) }, null, 2)}\n`,
  );
