import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { reportStatuses, studyTypes, users } from '../../db/schema.js';

/*
 * SQL of the study actions that no other module reads (the shared row queries are in
 * ../studies/study-rows.ts).
 */

/**
 * Whether a row has been split, read in its own statement AFTER the row lock is held: under READ
 * COMMITTED a statement sees what was committed when it started, so a subquery inside the locking
 * SELECT would miss a split committed by the transaction it waited for.
 */
export async function hasSplitChildOf(tx: Tx, id: number): Promise<boolean> {
  const [child] = await tx
    .select({ id: reportStatuses.id })
    .from(reportStatuses)
    .where(eq(reportStatuses.splitFromReportStatusId, id))
    .limit(1);
  return child !== undefined;
}

/** An active user of the group with the role, by e-mail (lower-cased), or null. */
export async function findActiveGroupUser(db: DbOrTx, groupId: number, email: string, role: string) {
  const [user] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      and(
        eq(users.email, email.toLowerCase()),
        eq(users.groupId, groupId),
        eq(users.active, true),
        sql`${role} = any(${users.roles})`,
      ),
    );
  return user ?? null;
}

/** The study types of the group among `names`. */
export async function findGroupStudyTypeNames(db: DbOrTx, groupId: number, names: readonly string[]) {
  if (names.length === 0) return new Set<string>();
  const rows = await db
    .select({ name: studyTypes.name })
    .from(studyTypes)
    .where(and(eq(studyTypes.groupId, groupId), inArray(studyTypes.name, [...names])));
  return new Set(rows.map((r) => r.name));
}
