import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';

/**
 * Calling AE title → center (centers.ae_titles, compared trimmed and case-sensitively; several
 * centers with one title: the lowest id). A found center is remembered for 10 s, so an association
 * of 500 instances asks the database once; an unknown title is never remembered (the next
 * association asks again: an admin who just added it is not turned away). A change in Manage
 * centers (`aeTitlesChanged`, after its commit) drops what this process remembers, so a title moved
 * to another center sends its next instance there. Another server process on the same database
 * still answers from its memory for up to 10 s.
 */
const REMEMBER_MS = 10_000;

let generation = 0;

/** Called by whoever changed centers' AE titles, once the change is committed. */
export function aeTitlesChanged(): void {
  generation++;
}

export function createAeTitleLookup(ctx: AppContext) {
  const remembered = new Map<string, { centerId: number; until: number; generation: number }>();
  return async (aeTitle: string): Promise<number | null> => {
    const key = aeTitle.trim();
    if (!key) return null;
    const hit = remembered.get(key);
    if (hit && hit.until > Date.now() && hit.generation === generation) return hit.centerId;
    const asked = generation;
    const result = await ctx.db.execute(sql`
      select c.id from centers c
       where exists (select 1 from unnest(c.ae_titles) a where btrim(a) = ${key})
       order by c.id limit 1`);
    const rows = (result as unknown as { rows: Array<{ id: number }> }).rows;
    if (!rows[0]) {
      remembered.delete(key);
      return null;
    }
    const centerId = Number(rows[0].id);
    // A change committed while the query ran may not be in its answer: use it, do not remember it.
    if (asked === generation) remembered.set(key, { centerId, until: Date.now() + REMEMBER_MS, generation });
    return centerId;
  };
}
