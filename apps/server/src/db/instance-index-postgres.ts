import type pg from 'pg';
import {
  ADMISSION_STATEMENT,
  type AdmissionFacts,
  type AdmissionKey,
  type CommittedBatch,
  INDEX_INSTANCE_STATEMENT,
  INDEX_PLAN_SETTING,
  INDEX_STUDY_STATEMENT,
  JOURNAL_POSITION_STATEMENT,
  type IndexRow,
  type JournalPosition,
  type InstanceIndex,
  type InstanceResult,
  inLockOrder,
  instanceValues,
  journalPositionValues,
  admissionFactsOf,
  admissionValues,
  outcomesOf,
  studyValues,
} from './instance-index.js';

/**
 * The index on PostgreSQL (ARCHIVE.md "index write"). A batch takes one pooled connection for its
 * transaction: BEGIN, the two statements of each instance as named statements (node-postgres
 * parses a name once per connection, then binds and executes), COMMIT once the caller says the
 * blobs are durable. The server syncs its WAL at COMMIT (`synchronous_commit` on): a committed
 * batch is durable, `makeDurable` has nothing left to do.
 */
export class PostgresInstanceIndex implements InstanceIndex {
  readonly engine = 'postgres' as const;
  readonly ingestWorkersByDefault = true;

  constructor(private readonly pool: pg.Pool) {}

  async createInstances(
    rows: readonly IndexRow[],
    beforeCommit: () => Promise<void>,
    opts: { journal?: JournalPosition } = {},
  ): Promise<CommittedBatch> {
    const connection = await this.pool.connect();
    let broken: Error | undefined;
    try {
      // One round trip: a simple query may hold two statements when it binds no values.
      await connection.query(`begin; ${INDEX_PLAN_SETTING}`);
      const results: InstanceResult[] = [];
      for (const { row, job } of inLockOrder(rows)) {
        await connection.query({
          name: 'radflow_index_study',
          text: INDEX_STUDY_STATEMENT,
          values: studyValues(row),
        });
        const answer = await connection.query<InstanceResult>({
          name: 'radflow_index_instance',
          text: INDEX_INSTANCE_STATEMENT,
          values: instanceValues(row, job),
        });
        results.push(...answer.rows);
      }
      const outcomes = outcomesOf(results, rows.length);
      if (opts.journal)
        await connection.query({
          name: 'radflow_journal_position',
          text: JOURNAL_POSITION_STATEMENT,
          values: journalPositionValues(opts.journal),
        });
      await beforeCommit();
      await connection.query('commit');
      return { outcomes };
    } catch (error) {
      // The statements after a failing one were not sent; the transaction is left aborted.
      await connection.query('rollback').catch((e: Error) => (broken = e));
      throw error;
    } finally {
      connection.release(broken);
    }
  }

  /** A named statement: node-postgres parses it once per pooled connection. */
  async admissionFacts(key: AdmissionKey): Promise<AdmissionFacts | undefined> {
    const answer = await this.pool.query<string[]>({
      name: 'radflow_index_admission',
      text: ADMISSION_STATEMENT,
      values: admissionValues(key),
      rowMode: 'array',
    });
    const row = answer.rows[0];
    return admissionFactsOf(row ? [row[0] ?? null, row[1] ?? null] : undefined);
  }

  makeDurable(): Promise<void> {
    return Promise.resolve();
  }
}
