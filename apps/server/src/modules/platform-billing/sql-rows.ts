import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';

/** The rows of a raw query: PGlite and node-postgres both answer `{ rows }`; drizzle's types differ. */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
