import { count, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.js';

/**
 * The total of a long list (the study list, the all-patients list): counted exactly up to
 * EXACT_COUNT_LIMIT matches; above it, PostgreSQL's estimate corrected by what the page shows.
 * Exactness has a price per match (counting a center's 1,000,000 patients took 250–280 ms, the page
 * itself 1 ms): a list people read to the end stays exact, a list of thousands shows about how many.
 *
 * The correction, for a page read one row longer than it shows (`rowsRead` ≤ limit + 1):
 * - a row after the page: the total is at least the page's end + 1, so the pager offers Next;
 * - a short page is the last one: its end is the exact total;
 * - a page past the end counts the matches (at most `offset` of them, as far as the caller paged).
 */
export const EXACT_COUNT_LIMIT = 1_000;

/**
 * The planner's row estimate of a query (EXPLAIN, nothing is run): the `rows=` of the plan's first
 * line, the top node (text format: no JSON plan to write and parse for one number).
 */
export async function estimateRows(db: DbOrTx, query: PgSelect): Promise<number> {
  const result = (await db.execute(sql`explain ${query}`)) as unknown as {
    rows: Array<Record<string, unknown>>;
  };
  const firstLine = String(result.rows[0]?.['QUERY PLAN'] ?? '');
  return Number(/ rows=(\d+) /.exec(firstLine)?.[1] ?? 0);
}

/** The number of matches, counting at most `max` of them (a builder per call: limit() changes it). */
export async function countUpTo(db: DbOrTx, matches: () => PgSelect, max: number): Promise<number> {
  const capped = matches().limit(max).as('capped');
  const [counted] = await db.select({ n: count() }).from(capped);
  return counted?.n ?? 0;
}

/** The total to show with a page of a list expected to hold more than EXACT_COUNT_LIMIT (above). */
export async function totalBeyondExact(
  db: DbOrTx,
  page: { estimate: number; rowsRead: number; limit: number; offset: number; matches: () => PgSelect },
): Promise<number> {
  const { estimate, rowsRead, limit, offset } = page;
  if (rowsRead > limit) return Math.max(estimate, EXACT_COUNT_LIMIT + 1, offset + limit + 1);
  if (rowsRead > 0 || offset === 0) return offset + rowsRead;
  return countUpTo(db, page.matches, offset);
}
