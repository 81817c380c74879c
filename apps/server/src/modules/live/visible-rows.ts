import { type SQL, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type TStudyScope, isGroupWide } from '@radflow/core';
import type { Db } from '../../db/client.js';
import { reportStatuses } from '../../db/schema.js';
import { visibleReportRows } from '../studies/study-access.js';

/**
 * A row as it was before an assignment changed it (the event's `previousAssignedToUserId`): who saw
 * it then — the doctors of the pool, the former doctor and their typists — must hear that it left.
 */
export interface TRowBefore {
  reportStatusId: number;
  assignedToUserId: number | null;
}

const BEFORE = 'row_before';
/**
 * `report_statuses` with the assignee of the row before: the access rule read against the row as it
 * was. Only the assignee differs; the rule reads the other columns as they are now.
 */
const rowBefore = {
  ...reportStatuses,
  assignedToUserId: sql`${sql.identifier(BEFORE)}.assigned_to` as unknown as AnyPgColumn,
} as unknown as typeof reportStatuses;

/** Scopes per statement: one round trip for many doctors, a statement of bounded size. */
const SCOPES_PER_STATEMENT = 50;

/**
 * Which of `rowIds` (report rows of `groupId`) each scope may see, by the one access rule
 * (`visibleReportRows`). Per batch of events, never per connection: a group-wide scope needs no
 * query, a scope of another group sees none, and the others are asked in statements of up to
 * SCOPES_PER_STATEMENT scopes (`union all`, one subquery each). A row in `beforeByGroup` is also
 * asked as it was before its assignment changed. Answers scope key → visible ids.
 */
export async function visibleRowsByScope(
  db: Db,
  rowsByGroup: ReadonlyMap<number, readonly number[]>,
  scopes: ReadonlyMap<string, TStudyScope>,
  beforeByGroup: ReadonlyMap<number, readonly TRowBefore[]> = new Map(),
): Promise<Map<string, Set<number>>> {
  const answer = new Map<string, Set<number>>();
  const asked: Array<{ key: string; part: SQL }> = [];
  for (const [key, scope] of scopes) {
    const ids = rowsByGroup.get(scope.groupId) ?? [];
    answer.set(key, new Set(isGroupWide(scope) ? ids : []));
    if (ids.length === 0 || isGroupWide(scope) || scope.grants.length === 0) continue;
    const index = asked.length;
    const now = sql`select ${index}::integer as k, ${reportStatuses.id} as id from ${reportStatuses} where ${inArray(reportStatuses.id, [...ids])} and ${visibleReportRows(scope)}`;
    const before = beforeByGroup.get(scope.groupId) ?? [];
    asked.push({
      key,
      part:
        before.length === 0
          ? now
          : sql`${now} union all select ${index}::integer as k, ${reportStatuses.id} as id from ${reportStatuses} join (values ${sql.join(
              before.map((b) => sql`(${b.reportStatusId}::integer, ${b.assignedToUserId}::integer)`),
              sql`, `,
            )}) as ${sql.identifier(BEFORE)} (id, assigned_to) on ${sql.identifier(BEFORE)}.id = ${reportStatuses.id} where ${visibleReportRows(scope, rowBefore)}`,
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
