import type { DbHandle } from './db/client.js';
import { seedDemo } from './modules/seed/seed-demo.js';

/**
 * Brings a database to the current schema and, when asked, seeds an empty one with the demo data.
 * Runs under the startup lock so that several processes starting together do it once.
 */
export async function prepareDatabase(
  handle: DbHandle,
  opts: { seedDemo: boolean },
): Promise<{ seeded: boolean }> {
  return handle.withStartupLock(async () => {
    await handle.migrate();
    return { seeded: opts.seedDemo ? await seedDemo(handle.db) : false };
  });
}
