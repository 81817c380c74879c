/**
 * The bench databases of the worklist benchmarks: one per database kind and size, created, migrated
 * (the server's own clients and migrations) and seeded on first use (worklist-seed.ts), reused after.
 * Also EXPLAIN and query capture, to show the plan of exactly what a list call ran.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type DbHandle, openPglite, openPostgres } from '../../apps/server/src/db/client.js';
import { MIGRATIONS_DIR } from '../../apps/server/src/paths.js';
import { type TBenchDbKind, type TWorklistSeed, readSeed, seedWorklist, sessionOf } from './worklist-seed.js';

export interface TBenchDatabase {
  kind: TBenchDbKind;
  handle: DbHandle;
  seed: TWorklistSeed;
  /** PostgreSQL: the URL of the bench database; PGlite: the DATA_DIR whose `db` it is. */
  location: string;
  /** Runs EXPLAIN (ANALYZE, BUFFERS) on a captured statement. */
  explain(text: string, params: readonly unknown[]): Promise<string>;
  close(): Promise<void>;
}

/** Where the seeded database of N studies lives, so a second run (and the throughput bench) reuses it. */
export function benchLocation(kind: TBenchDbKind, n: number, postgresUrl?: string): string {
  if (kind === 'pglite') return join(tmpdir(), `radflow-bench-worklist-${n}`);
  if (!postgresUrl) throw new Error('PostgreSQL needs DATABASE_URL');
  const url = new URL(postgresUrl);
  url.pathname = `/radflow_bench_worklist_${n}`;
  return url.toString();
}

async function ensurePostgresDatabase(serverUrl: string, url: string, fresh: boolean): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    if (fresh) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
}

/**
 * Opens (creating, migrating and seeding when needed) the bench database of N studies. A database
 * already seeded with N studies is reused as is (migrations still run, so new indexes apply);
 * `fresh` drops it first.
 */
export async function openBenchDatabase(opts: {
  kind: TBenchDbKind;
  studies: number;
  postgresUrl?: string;
  fresh?: boolean;
  log?: (line: string) => void;
}): Promise<TBenchDatabase> {
  const log = opts.log ?? (() => undefined);
  const location = benchLocation(opts.kind, opts.studies, opts.postgresUrl);
  let handle: DbHandle;
  if (opts.kind === 'postgres') {
    await ensurePostgresDatabase(opts.postgresUrl as string, location, opts.fresh === true);
    handle = await openPostgres(location, { max: 10 });
  } else {
    if (opts.fresh) await rm(location, { recursive: true, force: true });
    await mkdir(location, { recursive: true });
    handle = await openPglite({ dataDir: join(location, 'db') });
  }
  await handle.migrate();
  await assertMigrationsUnchanged(handle);
  // One session for the seed (SET and DROP/CREATE INDEX must share it), released before the app
  // runs so that its pool is whole.
  let session = await sessionOf(opts.kind, handle);
  let seed: TWorklistSeed | null;
  try {
    seed = await readSeed(session);
    if (seed && seed.studies !== opts.studies) {
      throw new Error(`${location} holds ${seed.studies} studies, not ${opts.studies}: run with --fresh`);
    }
    if (!seed) {
      const [{ n } = { n: '0' }] = await session.rows<{ n: string }>(
        'SELECT count(*)::text AS n FROM studies',
      );
      if (n !== '0') throw new Error(`${location} is not empty and not a finished seed: run with --fresh`);
      log(`seeding ${opts.studies} studies into ${opts.kind} (${location})`);
      await seedWorklist(session, opts.kind, opts.studies, log);
      session.release();
      session = await sessionOf(opts.kind, handle);
      seed = await readSeed(session);
      if (!seed) throw new Error('seed did not finish');
    } else {
      log(`reusing ${opts.kind} bench database with ${seed.studies} studies (${location})`);
    }
  } catch (error) {
    session.release();
    await handle.close();
    throw error;
  }
  session.release();
  return {
    kind: opts.kind,
    handle,
    seed,
    location,
    explain: async (text, params) => (await explainRows(handle, text, params)).join('\n'),
    close: () => handle.close(),
  };
}

async function explainRows(handle: DbHandle, text: string, params: readonly unknown[]): Promise<string[]> {
  const statement = `EXPLAIN (ANALYZE, BUFFERS) ${text}`;
  const rows =
    handle.kind === 'postgres'
      ? (await (handle as DbHandle & { pool: pg.Pool }).pool.query(statement, [...params])).rows
      : (await (handle as DbHandle & { client: PGlite }).client.query(statement, [...params])).rows;
  return (rows as Array<Record<string, string>>).map((r) => Object.values(r)[0] as string);
}

export interface TCapturedQuery {
  text: string;
  params: unknown[];
}

/**
 * Records the statements the app sends through the handle's driver until the returned function is
 * called (for EXPLAIN of exactly what the list call ran).
 */
export function captureQueries(handle: DbHandle, into: TCapturedQuery[]): () => void {
  const target = (handle.kind === 'postgres'
    ? (handle as DbHandle & { pool: pg.Pool }).pool
    : (handle as DbHandle & { client: PGlite }).client) as unknown as {
    query: (...a: unknown[]) => unknown;
  };
  const original = target.query;
  target.query = function (this: unknown, ...a: unknown[]) {
    const [query, params] = a;
    const text = typeof query === 'string' ? query : (query as { text: string }).text;
    into.push({ text, params: Array.isArray(params) ? params : [] });
    return original.apply(this, a);
  };
  return () => {
    target.query = original;
  };
}

/**
 * The migrator skips a migration it applied before even if its file changed since (an index edited
 * in place while being worked on): a reused bench database would then be measured with stale
 * indexes. Drizzle records each applied file's SHA-256, so compare.
 */
async function assertMigrationsUnchanged(handle: DbHandle): Promise<void> {
  const journal = JSON.parse(await readFile(join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string; when: number }>;
  };
  const applied = (await handle.db.execute(
    sql`select hash, created_at::text as created_at from drizzle.__drizzle_migrations`,
  )) as unknown as
    { rows: Array<{ hash: string; created_at: string }> } | Array<{ hash: string; created_at: string }>;
  const rows = Array.isArray(applied) ? applied : applied.rows;
  const hashByWhen = new Map(rows.map((r) => [Number(r.created_at), r.hash]));
  for (const entry of journal.entries) {
    const text = await readFile(join(MIGRATIONS_DIR, `${entry.tag}.sql`), 'utf8');
    const hash = createHash('sha256').update(text).digest('hex');
    const recorded = hashByWhen.get(entry.when);
    if (recorded !== undefined && recorded !== hash) {
      throw new Error(
        `migration ${entry.tag} changed after this bench database was migrated: run with --fresh`,
      );
    }
  }
}
