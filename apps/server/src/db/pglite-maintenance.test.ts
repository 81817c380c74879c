import { describe, expect, it } from 'vitest';
import { type TTableActivity, maintenanceSteps } from './pglite-maintenance.js';

const table = (over: Partial<TTableActivity>): TTableActivity => ({
  schema: 'public',
  table: 't',
  rowEstimate: -1,
  changedSinceAnalyze: 0,
  dead: 0,
  insertedSinceVacuum: 0,
  ...over,
});

describe('PGlite maintenance: which tables, what, in which order (autovacuum defaults)', () => {
  it('analyzes a table never analyzed once 50 rows changed, not before', () => {
    expect(maintenanceSteps([table({ changedSinceAnalyze: 50 })])).toEqual([]);
    expect(maintenanceSteps([table({ changedSinceAnalyze: 51 })])).toMatchObject([{ action: 'analyze' }]);
  });

  it('scales the thresholds with the table: 10 % changed to analyze, 20 % dead to vacuum', () => {
    const big = { rowEstimate: 10_000 };
    expect(maintenanceSteps([table({ ...big, changedSinceAnalyze: 1_000, dead: 2_000 })])).toEqual([]);
    expect(maintenanceSteps([table({ ...big, changedSinceAnalyze: 1_100 })])).toMatchObject([
      { action: 'analyze' },
    ]);
    expect(maintenanceSteps([table({ ...big, dead: 2_100 })])).toMatchObject([{ action: 'vacuum' }]);
    expect(maintenanceSteps([table({ ...big, dead: 2_100, changedSinceAnalyze: 1_100 })])).toMatchObject([
      { action: 'vacuum analyze' },
    ]);
  });

  it('vacuums an insert-only table past 1,000 + 20 % new rows (its visibility map)', () => {
    expect(maintenanceSteps([table({ rowEstimate: 5_000, insertedSinceVacuum: 2_000 })])).toEqual([]);
    expect(maintenanceSteps([table({ rowEstimate: 5_000, insertedSinceVacuum: 2_001 })])).toMatchObject([
      { action: 'vacuum' },
    ]);
  });

  it('takes the table furthest past its threshold first', () => {
    const steps = maintenanceSteps([
      table({ table: 'a', changedSinceAnalyze: 60 }),
      table({ table: 'b', changedSinceAnalyze: 500 }),
      table({ table: 'c', rowEstimate: 100, dead: 140 }),
    ]);
    expect(steps.map((s) => s.table)).toEqual(['b', 'c', 'a']);
  });
});
