import type { PGlite } from '@electric-sql/pglite';
import { DrizzleQueryError, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from './unique-violation.js';
import { bareTestPglite } from '../../test/test-app.js';

/** The error each engine throws, caught as a service catches it (through drizzle). */
async function caught(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the statement to fail');
}

describe('isUniqueViolation', () => {
  let client: PGlite;
  let db: ReturnType<typeof drizzle>;
  beforeAll(async () => {
    client = await bareTestPglite();
    db = drizzle(client);
    await db.execute(sql`CREATE TABLE parent (id int PRIMARY KEY)`);
    await db.execute(sql`CREATE TABLE child (parent_id int REFERENCES parent (id))`);
    await db.execute(sql`INSERT INTO parent VALUES (1)`);
  });
  afterAll(() => client.close());

  it('knows a duplicate key on PGlite, through drizzle and inside a transaction', async () => {
    const direct = await caught(() => db.execute(sql`INSERT INTO parent VALUES (1)`));
    expect(isUniqueViolation(direct)).toBe(true);
    const inTransaction = await caught(() =>
      db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO parent VALUES (2)`);
        await tx.execute(sql`INSERT INTO parent VALUES (2)`);
      }),
    );
    expect(isUniqueViolation(inTransaction)).toBe(true);
  });

  it('knows a duplicate key from node-postgres, bare and wrapped by drizzle', () => {
    const fromServer = new pg.DatabaseError(
      'duplicate key value violates unique constraint "parent_pkey"',
      0,
      'error',
    );
    fromServer.code = '23505';
    expect(isUniqueViolation(fromServer)).toBe(true);
    expect(isUniqueViolation(new DrizzleQueryError('insert into parent values ($1)', [1], fromServer))).toBe(
      true,
    );
    expect(isUniqueViolation(new Error('outer', { cause: new Error('middle', { cause: fromServer }) }))).toBe(
      true,
    );
  });

  it('does not take another failure for one', async () => {
    const foreignKey = await caught(() => db.execute(sql`INSERT INTO child VALUES (9)`));
    expect(isUniqueViolation(foreignKey)).toBe(false);
    const otherCode = new pg.DatabaseError('deadlock detected', 0, 'error');
    otherCode.code = '40P01';
    expect(isUniqueViolation(new DrizzleQueryError('select 1', [], otherCode))).toBe(false);
    for (const value of [undefined, null, '23505', 23505, new Error('23505')]) {
      expect(isUniqueViolation(value)).toBe(false);
    }
  });

  it('ends on an error that is its own cause', () => {
    const looped = new Error('looped') as Error & { cause?: unknown };
    looped.cause = looped;
    expect(isUniqueViolation(looped)).toBe(false);
  });
});
