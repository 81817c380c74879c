import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from './client.js';

/**
 * Runs `work` in a transaction whose statements are planned without parallel workers or JIT
 * (`set_config(…, true)`, i.e. `set local`, in one round trip), for the reading calls whose p95 is
 * a target (the report search, the advanced summary). On the 2-core machines we measure on, a
 * parallel worker is a new process that maps every shared-buffer page it reads afresh (16-30 µs a
 * page): a report search's count took 400-530 ms with two workers and 75-130 without, and the
 * doctor's 180-day advanced summary 437 ms p95 against 273 (report-search/DECISIONS.md,
 * summaries/DECISIONS.md). JIT compiled a 65 ms statement for 26 ms. PGlite has neither; the
 * settings exist there and change nothing.
 */
export function withSerialPlans<T>(db: DbOrTx, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config('max_parallel_workers_per_gather', '0', true), set_config('jit', 'off', true)`,
    );
    return work(tx);
  });
}
