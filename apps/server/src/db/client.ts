import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Server } from 'node:net';
import path from 'node:path';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR, PGLITE_TEMPLATE_FILE } from '../paths.js';
import type { InstanceIndex } from './instance-index.js';
import { PgliteInstanceIndex } from './instance-index-pglite.js';
import { PostgresInstanceIndex } from './instance-index-postgres.js';
import { PgliteDurability, WAL_INSERT_POSITION } from './pglite-durability.js';
import { extractPgliteTar, readPgliteTemplate } from './pglite-template.js';
import { databaseTurnsOf, pingAhead, takeTurns } from './pglite-turns.js';
import * as schema from './schema.js';

/** One database type for both drivers (ARCHITECTURE §3). */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Repositories take either the database or an open transaction. */
export type DbOrTx = Db | Tx;

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the migrations folder (idempotent). */
  migrate(): Promise<void>;
  /**
   * Runs `fn` while holding a database-wide lock, so several processes starting together migrate
   * and seed one after the other. PGlite has one process by construction.
   */
  withStartupLock<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** PGlite on disk: how its data directory came to be (logged at start). */
  dataDirOrigin?: TPgliteDataDirOrigin | null;
}

export interface PgliteOptions {
  /** Directory to persist in; unset = in memory. */
  dataDir?: string;
  /** A data directory dump to start from (tests: a migrated snapshot). */
  loadDataDir?: Blob;
  /**
   * The migrated template a new `dataDir` starts from when it matches the migrations
   * (pglite-template.ts); default the build's, beside the bundle; null: never (initdb, as before).
   */
  templateFile?: string | null;
}

/** How a PGlite data directory came to be: already there, from the migrated template, or initdb. */
export type TPgliteDataDirOrigin = 'existing' | 'template' | 'initdb';

/**
 * PGlite is one process's database: a second server on the same DATA_DIR would corrupt it. A lock
 * file holding the owner's pid refuses that; a stale one (its process gone) is taken over.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rm(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number((await fs.readFile(lockPath, 'utf8').catch(() => '')).trim());
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `The database in ${dataDir} is in use by another Radflow process (pid ${owner}). ` +
            'Stop it first, or use another DATA_DIR.',
        );
      }
      await fs.rm(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PostgreSQL settings of the embedded database. PGlite's default buffer pool (128 MB) lives in its
 * WASM heap and is touched at start, so it costs its full size in RSS for a database that needs a
 * fraction of it; reads beyond the pool come from the OS page cache.
 *
 * Durability (decided in ARCHIVE.md "PGlite durability"): PGlite's `-F` (fsync off) stays. Its
 * files are on Emscripten's NODEFS, whose fdatasync is a no-op and whose streams have no fsync, so
 * fsync on would cost its bookkeeping (and a walk of every file after a crash) and sync nothing.
 * What must survive a power cut is synced from outside instead: `syncCommitted` after a commit
 * that is acknowledged (the archive's index writer), see pglite-durability.ts.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

/**
 * PGlite's WASM (9 MB) runs on V8's baseline compiler only (Liftoff), without the tier-up of hot
 * functions to optimised code (TurboFan). The tier-up compiles on V8's worker threads, and each
 * compile's zones come from the glibc arena of the thread that ran it; the arenas keep that memory
 * afterwards: 50–100 MB of RSS for the process's life, the largest and most variable part of the
 * idle server (heaptrack: V8's peak zone memory is TurboFan WASM compiles). Fewer or no compile
 * tasks, or a larger tiering budget, did not remove it; Liftoff-only does. Liftoff code is slower
 * (~1.5× on a loop of one catalog query in a bare PGlite), but the tier-up's own compiles are gone
 * and the ingest's index statements cost the same: throughput measured either way within this
 * machine's noise (ARCHIVE.md "PGlite memory", figures).
 * A V8 setting, set here before the module is compiled (V8 reads it once per module), so it holds
 * however the server is started; PostgreSQL (DATABASE_URL) loads no WASM and is unaffected. It is
 * the process's: the image codecs (packages/dicom, WASM) that render thumbnails and rendered frames
 * of compressed studies then run on Liftoff too: slower per decode (thumbnails are cached).
 */
function useBaselineWasmCompilerOnly(): void {
  v8.setFlagsFromString('--liftoff-only');
}

/**
 * Makes a new PGlite data directory: from the migrated template when one matches the migrations
 * (pglite-template.ts), else by initdb in a short-lived child process. In-process, PGlite's initdb
 * runs a second, in-memory PGlite instance (its own WASM heap and a copy of the files) whose memory
 * the server process keeps long after, and the bootstrap's hot loops trigger optimised WASM
 * compilation whose allocator arenas stay too: ~150 MB of RSS for the process's life. Either way
 * the directory is built beside the target and renamed into place, so a crash leaves no
 * half-initialised database behind.
 */
async function initDataDir(dataDir: string, templateFile: string | null): Promise<TPgliteDataDirOrigin> {
  if (await exists(path.join(dataDir, 'PG_VERSION'))) return 'existing';
  // A non-empty directory without PG_VERSION is not ours to replace: PGlite decides, as before.
  if ((await fs.readdir(dataDir).catch(() => [])).length > 0) return 'existing';
  const staging = `${dataDir}.initdb`;
  await fs.rm(staging, { recursive: true, force: true });
  const template = templateFile ? await readPgliteTemplate(templateFile) : null;
  if (template) {
    try {
      await extractPgliteTar(template.tar, staging);
    } catch (error) {
      await fs.rm(staging, { recursive: true, force: true });
      throw error;
    }
    await fs.rm(dataDir, { recursive: true, force: true });
    await fs.rename(staging, dataDir);
    return 'template';
  }
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script =
    'const { PGlite } = require(process.argv[1]);' +
    'PGlite.create({ dataDir: process.argv[2] }).then((pg) => pg.close()).then(' +
    '() => process.exit(0), (error) => { console.error(error); process.exit(1); });';
  const stderr: Buffer[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, entry, staging], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0 || !(await exists(path.join(staging, 'PG_VERSION')))) {
    await fs.rm(staging, { recursive: true, force: true });
    throw new Error(`Could not create the database in ${dataDir}: ${Buffer.concat(stderr).toString()}`);
  }
  await fs.rm(dataDir, { recursive: true, force: true });
  await fs.rename(staging, dataDir);
  return 'initdb';
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

export async function openPglite(
  opts: PgliteOptions = {},
): Promise<DbHandle & { client: PGlite; dataDirOrigin: TPgliteDataDirOrigin | null }> {
  let unlock = async () => undefined as void;
  let dataDirOrigin: TPgliteDataDirOrigin | null = null;
  if (opts.dataDir) {
    await fs.mkdir(path.dirname(opts.dataDir), { recursive: true });
    unlock = await lockDataDir(opts.dataDir);
    try {
      dataDirOrigin = await initDataDir(
        opts.dataDir,
        opts.templateFile === undefined ? PGLITE_TEMPLATE_FILE : opts.templateFile,
      );
    } catch (error) {
      await unlock();
      throw error;
    }
  }
  useBaselineWasmCompilerOnly();
  const client = await PGlite.create({
    startParams: PGLITE_START_PARAMS,
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    extensions: { pg_trgm, btree_gin },
  });
  const durability = opts.dataDir ? await PgliteDurability.open(client, opts.dataDir) : undefined;
  if (durability) durabilities.set(client, durability);
  takeTurns(client);
  const db = drizzlePglite({ client, schema });
  indexes.set(db as unknown as Db, new PgliteInstanceIndex(client, durability));
  return {
    db: db as unknown as Db,
    client,
    dataDirOrigin,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }),
    withStartupLock: (fn) => fn(),
    async close() {
      await client.close();
      await unlock();
    },
  };
}

const durabilities = new WeakMap<PGlite, PgliteDurability>();
const indexes = new WeakMap<Db, InstanceIndex>();
/** The PGlite client under a database (drizzle's `$client`); undefined on PostgreSQL. */
export function pgliteOf(db: Db): PGlite | undefined {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof PGlite ? client : undefined;
}

/**
 * The health checks' database round-trip. On PGlite it goes ahead of the calls waiting for their
 * turn (pglite-turns.ts), so it waits for the statement that runs, not for the whole load; on
 * PostgreSQL the pool's connections serve it as any query.
 */
export async function pingDatabase(db: Db): Promise<void> {
  const client = pgliteOf(db);
  if (client) await pingAhead(client);
  else await db.execute(sql`select 1`);
}

/**
 * On PGlite, the database's turns leave the event loop room to accept `server`'s new connections
 * before the next call (pglite-turns.ts); PostgreSQL's queries leave the loop free, nothing to do.
 * Returns the way to stop.
 */
export function acceptBetweenDatabaseTurns(db: Db, server: Pick<Server, 'on' | 'off'>): () => void {
  return databaseTurnsOf(pgliteOf(db))?.watchAccepts(server) ?? (() => undefined);
}

/** The archive's index of a database opened here (instance-index.ts), of its engine. */
export function instanceIndexOf(db: Db): InstanceIndex {
  const index = indexes.get(db);
  if (!index) throw new Error('this database was not opened by openPglite or openPostgres');
  return index;
}

/**
 * Makes what `db` committed so far survive a power cut. PostgreSQL already did at COMMIT
 * (`synchronous_commit` on): nothing to do. PGlite on a data directory: its WAL is synced from
 * outside (pglite-durability.ts), since PGlite's own fsync cannot reach the disk. In-memory PGlite
 * (tests): nothing to sync. `commitAt`: where the caller's commit record begins, when its
 * transaction read it ({@link walInsertPositionQuery}); else the database is asked.
 * `onThisThread`: the caller has nothing else to do meanwhile (see PgliteDurability.syncHere).
 */
export function syncCommitted(
  db: Db,
  commitAt?: string,
  opts: { onThisThread?: boolean } = {},
): Promise<void> {
  const durability = durabilityOf(db);
  if (!durability) return Promise.resolve();
  // A lone committer that knows its position waits less without the pool hop.
  return opts.onThisThread && commitAt !== undefined
    ? durability.syncHere(commitAt)
    : durability.sync(commitAt);
}

/**
 * The statement to end a transaction with, before COMMIT, whose `wal_insert_position` row
 * {@link syncCommitted} then takes; null when `db` needs no sync from outside.
 */
export function walInsertPositionQuery(db: Db): string | null {
  return durabilityOf(db) ? WAL_INSERT_POSITION : null;
}

function durabilityOf(db: Db): PgliteDurability | undefined {
  const client = pgliteOf(db);
  return client ? durabilities.get(client) : undefined;
}

/** The PGlite client's syncs (tests and the bench). */
export function pgliteDurabilityOf(client: PGlite): PgliteDurability | undefined {
  return durabilities.get(client);
}

/** An arbitrary 64-bit key for pg_advisory_lock: "radflow startup". */
const STARTUP_LOCK_KEY = 7_310_420_117_001;

export async function openPostgres(
  url: string,
  opts: {
    max?: number;
    /**
     * Keep idle connections open (the server's own pool) instead of closing them after 10 s. A new
     * PostgreSQL backend maps shared buffers page by page as it first touches them: on this machine
     * a report search read 8,000 cached pages in 270 ms on a fresh connection and 20 ms on a warm
     * one, so a pool that closes its connections in every quiet spell pays that again and again.
     */
    keepIdle?: boolean;
  } = {},
): Promise<DbHandle & { pool: pg.Pool }> {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    ...(opts.keepIdle ? { idleTimeoutMillis: 0 } : {}),
  });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema });
  indexes.set(db as unknown as Db, new PostgresInstanceIndex(pool));
  return {
    db: db as unknown as Db,
    pool,
    kind: 'postgres',
    migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS_DIR }),
    async withStartupLock(fn) {
      const lockClient = await pool.connect();
      try {
        await lockClient.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
        try {
          return await fn();
        } finally {
          await lockClient.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]);
        }
      } finally {
        lockClient.release();
      }
    },
    close: () => pool.end(),
  };
}

/** DATABASE_URL set: PostgreSQL; else PGlite persisted under DATA_DIR/db. */
export function openDatabase(config: {
  DATABASE_URL?: string | undefined;
  DATABASE_POOL_SIZE?: number;
  DATA_DIR: string;
}): Promise<DbHandle> {
  return config.DATABASE_URL
    ? openPostgres(config.DATABASE_URL, { max: config.DATABASE_POOL_SIZE, keepIdle: true })
    : openPglite({ dataDir: path.join(config.DATA_DIR, 'db') });
}
