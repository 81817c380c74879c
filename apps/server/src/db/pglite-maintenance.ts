import { sql } from 'drizzle-orm';
import { startPeriodicTask } from '../periodic-task.js';
import { type Db, pgliteOf } from './client.js';

/*
 * What autovacuum does for PostgreSQL, done for the embedded database. PGlite has no background
 * workers, and nothing else ran ANALYZE or VACUUM on it: however large a table grew, the planner had
 * no column statistics and no row count (pg_class.reltuples -1), so it guessed, and the dead rows
 * of every update stayed with the visibility map never set (an index-only scan read the heap: the
 * usage count of 200,000 studies read 14,683 heap pages, 87 ms, and none after a VACUUM, 22 ms).
 * The benches ran on vacuumed databases; a center's database never was.
 *
 * Every few minutes each user table is checked against autovacuum's default thresholds
 * (PostgreSQL 17 §24.1.6): ANALYZE when the rows changed since the last one pass 50 + 10 % of the
 * table, VACUUM when its dead rows pass 50 + 20 %, or the rows inserted since the last one pass
 * 1,000 + 20 % (insert-only tables such as instances get their visibility map too). One statement
 * per table, the table furthest past its threshold first; each statement is one database call, so
 * requests waiting for the database run between two (pglite-turns.ts). A VACUUM skips the pages the
 * visibility map says are clean: after the first pass, each costs what changed since. PostgreSQL
 * runs its own autovacuum: there the task does not start.
 */

/** PostgreSQL's autovacuum defaults (autovacuum_*_threshold, autovacuum_*_scale_factor). */
export const MAINTENANCE_THRESHOLDS = {
  analyze: { base: 50, scale: 0.1 },
  vacuumDead: { base: 50, scale: 0.2 },
  vacuumInserted: { base: 1000, scale: 0.2 },
} as const;

/** PostgreSQL wakes autovacuum every minute; a check here is one catalog read. */
export const MAINTENANCE_EVERY_MS = 5 * 60_000;

export interface TTableActivity {
  schema: string;
  table: string;
  /** pg_class.reltuples: -1 until the first ANALYZE or VACUUM. */
  rowEstimate: number;
  changedSinceAnalyze: number;
  dead: number;
  insertedSinceVacuum: number;
}

export interface TMaintenanceStep {
  schema: string;
  table: string;
  action: 'vacuum analyze' | 'vacuum' | 'analyze';
  /** How far past its threshold (the larger of the two ratios): the order of the steps. */
  due: number;
}

/** The steps a table's activity asks for, most due first (the rule; no database). */
export function maintenanceSteps(tables: readonly TTableActivity[]): TMaintenanceStep[] {
  const steps: TMaintenanceStep[] = [];
  for (const t of tables) {
    const rows = Math.max(t.rowEstimate, 0);
    const over = (count: number, rule: { base: number; scale: number }) =>
      count / (rule.base + rule.scale * rows);
    const analyzeDue = over(t.changedSinceAnalyze, MAINTENANCE_THRESHOLDS.analyze);
    const vacuumDue = Math.max(
      over(t.dead, MAINTENANCE_THRESHOLDS.vacuumDead),
      over(t.insertedSinceVacuum, MAINTENANCE_THRESHOLDS.vacuumInserted),
    );
    const analyze = analyzeDue > 1;
    const vacuum = vacuumDue > 1;
    if (!analyze && !vacuum) continue;
    steps.push({
      schema: t.schema,
      table: t.table,
      action: analyze && vacuum ? 'vacuum analyze' : vacuum ? 'vacuum' : 'analyze',
      due: Math.max(analyze ? analyzeDue : 0, vacuum ? vacuumDue : 0),
    });
  }
  return steps.sort((a, b) => b.due - a.due);
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * One pass: reads every user table's activity and runs the steps it asks for, one statement each.
 * Answers the steps run. Not for PostgreSQL (its autovacuum does this), nor inside a transaction.
 */
export async function maintainPglite(db: Db): Promise<TMaintenanceStep[]> {
  // Both drivers answer `rows` (drizzle's execute is typed per driver).
  const activity = (await db.execute(sql`
    select s.schemaname as schema, s.relname as table, c.reltuples::float8 as row_estimate,
           s.n_mod_since_analyze::float8 as changed, s.n_dead_tup::float8 as dead,
           s.n_ins_since_vacuum::float8 as inserted
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid`)) as unknown as {
    rows: Array<Record<string, string | number>>;
  };
  const steps = maintenanceSteps(
    activity.rows.map((r) => ({
      schema: String(r.schema),
      table: String(r.table),
      rowEstimate: Number(r.row_estimate),
      changedSinceAnalyze: Number(r.changed),
      dead: Number(r.dead),
      insertedSinceVacuum: Number(r.inserted),
    })),
  );
  for (const step of steps)
    await db.execute(sql.raw(`${step.action} ${quoted(step.schema)}.${quoted(step.table)}`));
  return steps;
}

/**
 * The pass every MAINTENANCE_EVERY_MS on PGlite (main.ts), logged when it did something (each
 * statement holds the database while it runs); on PostgreSQL nothing starts.
 */
export function startPgliteMaintenance(
  db: Db,
  log: { info(data: object, message: string): void; error(data: object, message: string): void },
  everyMs: number = MAINTENANCE_EVERY_MS,
): () => Promise<void> {
  if (!pgliteOf(db)) return () => Promise.resolve();
  return startPeriodicTask(
    async () => {
      const started = performance.now();
      const steps = await maintainPglite(db);
      if (steps.length > 0)
        log.info(
          {
            steps: steps.map((s) => `${s.action} ${s.schema}.${s.table}`),
            ms: Math.round(performance.now() - started),
          },
          'PGlite maintenance',
        );
    },
    everyMs,
    (error) => log.error({ err: error }, 'PGlite maintenance (vacuum, analyze) failed'),
  );
}
