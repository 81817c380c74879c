import pg from 'pg';
import { type DbHandle, openPglite, openPostgres } from '../../apps/server/src/db/client.js';

/**
 * A migrated database for one bench run, gone when it closes: PGlite (in `dataDir`, or in memory),
 * or with `postgresUrl` a PostgreSQL database of its own named `name` on that server, dropped first
 * (a run that died left it) and dropped on close. The benches that keep a seeded database between
 * runs use lib/worklist-bench-db.ts instead.
 */
export async function openThrowawayDatabase(opts: {
  name: string;
  postgresUrl?: string | null;
  dataDir?: string;
  /** PostgreSQL pool size. */
  max?: number;
  /** PostgreSQL: leave the database after the run (to EXPLAIN its queries); the next run drops it. */
  keep?: boolean;
}): Promise<DbHandle> {
  if (!opts.postgresUrl) {
    const handle = await openPglite(opts.dataDir ? { dataDir: opts.dataDir } : {});
    await handle.migrate();
    return handle;
  }
  if (!/^[a-z_][a-z0-9_]*$/.test(opts.name)) throw new Error(`not a plain database name: ${opts.name}`);
  const serverUrl = opts.postgresUrl;
  const drop = async (create: boolean) => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${opts.name} WITH (FORCE)`);
      if (create) await admin.query(`CREATE DATABASE ${opts.name}`);
    } finally {
      await admin.end();
    }
  };
  await drop(true);
  const url = new URL(serverUrl);
  url.pathname = `/${opts.name}`;
  const handle = await openPostgres(url.toString(), { max: opts.max ?? 4 });
  await handle.migrate();
  return {
    ...handle,
    async close() {
      await handle.close();
      if (!opts.keep) await drop(false);
    },
  };
}
