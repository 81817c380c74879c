import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/test-app.js';
import { pgliteOf } from './client.js';
import { maintainPglite, startPgliteMaintenance } from './pglite-maintenance.js';

/**
 * The embedded database's autovacuum (pglite-maintenance.ts). Before it, nothing ever ran ANALYZE
 * or VACUUM on PGlite: a table had no statistics and kept its dead rows for ever.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const rowsOf = async (query: ReturnType<typeof sql>) =>
  ((await t.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

describe.runIf(!process.env.DATABASE_URL)('PGlite maintenance', () => {
  it('analyzes and vacuums a busy table, then leaves it alone until it changes again', async () => {
    await t.db.execute(sql`create table maintenance_probe (id integer primary key, v integer)`);
    await t.db.execute(sql`insert into maintenance_probe select g, g from generate_series(1, 3000) g`);
    await t.db.execute(sql`update maintenance_probe set v = v + 1 where id % 2 = 0`);
    // The statistics of this session's writes reach pg_stat_user_tables within a second; now here.
    await t.db.execute(sql`select pg_stat_force_next_flush()`);
    const before = await rowsOf(
      sql`select reltuples::float8 as rows from pg_class where relname = 'maintenance_probe'`,
    );
    expect(before[0]?.rows).toBe(-1);

    const steps = await maintainPglite(t.db);
    expect(steps.find((s) => s.table === 'maintenance_probe')).toMatchObject({
      schema: 'public',
      action: 'vacuum analyze',
    });
    await t.db.execute(sql`select pg_stat_force_next_flush()`);
    const [after] = await rowsOf(sql`
      select c.reltuples::float8 as rows, s.n_dead_tup::integer as dead,
             s.last_analyze is not null as analyzed, s.last_vacuum is not null as vacuumed
        from pg_class c join pg_stat_user_tables s on s.relid = c.oid
       where c.relname = 'maintenance_probe'`);
    expect(after).toEqual({ rows: 3000, dead: 0, analyzed: true, vacuumed: true });
    // Its column statistics exist: the planner estimates instead of guessing.
    expect(await rowsOf(sql`select 1 from pg_stats where tablename = 'maintenance_probe'`)).not.toHaveLength(
      0,
    );

    const again = await maintainPglite(t.db);
    expect(again.find((s) => s.table === 'maintenance_probe')).toBeUndefined();
  });

  it('runs from the periodic task on PGlite', async () => {
    expect(pgliteOf(t.db)).toBeDefined();
    await t.db.execute(sql`create table maintenance_tick (id integer primary key)`);
    await t.db.execute(sql`insert into maintenance_tick select generate_series(1, 200)`);
    await t.db.execute(sql`select pg_stat_force_next_flush()`);
    const stop = startPgliteMaintenance(t.db, { info: () => undefined, error: () => undefined }, 20);
    try {
      await expect
        .poll(
          async () =>
            (
              await rowsOf(
                sql`select last_analyze from pg_stat_user_tables where relname = 'maintenance_tick'`,
              )
            )[0]?.last_analyze ?? null,
        )
        .not.toBeNull();
    } finally {
      await stop();
    }
  });
});
