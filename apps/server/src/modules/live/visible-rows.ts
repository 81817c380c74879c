import { type SQL, inArray, sql } from 'drizzle-orm';
import { type TStudyScope, isGroupWide } from '@radflow/core';
import type { Db } from '../../db/client.js';
import { reportStatuses } from '../../db/schema.js';
import { visibleReportRows } from '../studies/study-access.js';

/** Scopes per statement: one round trip for many doctors, a statement of bounded size. */
const SCOPES_PER_STATEMENT = 50;

/**
 * Which of `rowIds` (report rows of `groupId`) each scope may see, by the one access rule
 * (`visibleReportRows`). Per batch of events, never per connection: a group-wide scope needs no
 * query, a scope of another group sees none, and the others are asked in statements of up to
 * SCOPES_PER_STATEMENT scopes (`union all`, one subquery each). Answers scope key → visible ids.
 */
export async function visibleRowsByScope(
  db: Db,
  rowsByGroup: ReadonlyMap<number, readonly number[]>,
  scopes: ReadonlyMap<string, TStudyScope>,
): Promise<Map<string, Set<number>>> {
  const answer = new Map<string, Set<number>>();
  const asked: Array<{ key: string; part: SQL }> = [];
  for (const [key, scope] of scopes) {
    const ids = rowsByGroup.get(scope.groupId) ?? [];
    answer.set(key, new Set(isGroupWide(scope) ? ids : []));
    if (ids.length === 0 || isGroupWide(scope) || scope.grants.length === 0) continue;
    const index = asked.length;
    asked.push({
      key,
      part: sql`select ${index}::integer as k, ${reportStatuses.id} as id from ${reportStatuses} where ${inArray(reportStatuses.id, [...ids])} and ${visibleReportRows(scope)}`,
    });
  }
  for (let from = 0; from < asked.length; from += SCOPES_PER_STATEMENT) {
    const chunk = asked.slice(from, from + SCOPES_PER_STATEMENT);
    const result = await db.execute(
      sql.join(
        chunk.map((c) => sql`(${c.part})`),
        sql` union all `,
      ),
    );
    for (const row of (result as unknown as { rows: Array<{ k: number; id: number }> }).rows) {
      const key = asked[Number(row.k)]?.key;
      if (key !== undefined) answer.get(key)?.add(Number(row.id));
    }
  }
  return answer;
}
