import { type PGlite, protocol } from '@electric-sql/pglite';
import {
  ADMISSION_STATEMENT,
  type AdmissionFacts,
  type AdmissionKey,
  type CommittedBatch,
  INDEX_INSTANCE_STATEMENT,
  INDEX_PLAN_SETTING,
  INDEX_STUDY_STATEMENT,
  INSTANCE_RESULT_COLUMNS,
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
import type { PgliteDurability } from './pglite-durability.js';
import { databaseTurnsOf } from './pglite-turns.js';

const { serialize } = protocol;

const STUDY = 'radflow_index_study';
const INSTANCE = 'radflow_index_instance';
const ADMISSION = 'radflow_index_admission';
const NAMES = [STUDY, INSTANCE, ADMISSION];
/** Where the batch's commit record will begin: read last, just before COMMIT. */
const WAL_INSERT_POSITION = 'select pg_current_wal_insert_lsn()::text';

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const part of parts) size += part.length;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** A data row of the protocol's answer: its fields, as text. */
const isDataRow = (m: unknown): m is InstanceType<typeof protocol.messages.DataRowMessage> =>
  m instanceof protocol.messages.DataRowMessage;

/**
 * The index on PGlite (ARCHIVE.md "index write"). PGlite is one session in this process: the
 * two statements are parsed once as named statements, and a batch is one protocol message
 * (the plan setting, Bind/Execute of both statements per instance, the WAL position last, Sync) inside
 * `transaction()`, which holds the session: nothing else lands inside ours while the blobs are
 * synced. Parameters are bound in text format. PGlite cannot sync its own WAL (NODEFS):
 * `makeDurable` syncs it from outside (pglite-durability.ts), from the position read with the
 * statements, so the sync asks nothing more.
 */
export class PgliteInstanceIndex implements InstanceIndex {
  readonly engine = 'pglite' as const;
  readonly ingestWorkersByDefault = false;
  private parsed: Promise<void> | undefined;

  constructor(
    private readonly client: PGlite,
    /** Undefined in memory (tests): nothing to sync. */
    private readonly durability: PgliteDurability | undefined,
    /** The statements' texts (a bench compares variants; the server uses these). */
    private readonly statements = { study: INDEX_STUDY_STATEMENT, instance: INDEX_INSTANCE_STATEMENT },
  ) {}

  /** The named statements, once per session (while we hold the session: nothing else runs). */
  private parseOnce(): Promise<void> {
    if (!this.parsed) {
      this.parsed = (async () => {
        const found = await this.client.execProtocol(
          concat([
            serialize.parse({
              text: `select count(*)::text from pg_prepared_statements where name in (${NAMES.map((n) => `'${n}'`).join(', ')})`,
            }),
            serialize.bind({}),
            serialize.execute({}),
            serialize.sync(),
          ]),
          { syncToFs: false },
        );
        const count = found.messages.find(isDataRow)?.fields[0];
        if (count === String(NAMES.length)) return;
        await this.client.execProtocol(
          concat([
            serialize.parse({ name: STUDY, text: this.statements.study }),
            serialize.parse({ name: INSTANCE, text: this.statements.instance }),
            serialize.parse({ name: ADMISSION, text: ADMISSION_STATEMENT }),
            serialize.sync(),
          ]),
          { syncToFs: false },
        );
      })();
      this.parsed.catch(() => (this.parsed = undefined));
    }
    return this.parsed;
  }

  async createInstances(
    rows: readonly IndexRow[],
    beforeCommit: () => Promise<void>,
    opts: { journal?: JournalPosition } = {},
  ): Promise<CommittedBatch> {
    const parts: Uint8Array[] = [
      serialize.parse({ text: INDEX_PLAN_SETTING }),
      serialize.bind({}),
      serialize.execute({}),
    ];
    for (const { row, job } of inLockOrder(rows)) {
      parts.push(
        serialize.bind({ statement: STUDY, values: studyValues(row) }),
        serialize.execute({}),
        serialize.bind({ statement: INSTANCE, values: instanceValues(row, job) }),
        serialize.execute({}),
      );
    }
    if (opts.journal)
      parts.push(
        serialize.parse({ text: JOURNAL_POSITION_STATEMENT }),
        serialize.bind({ values: journalPositionValues(opts.journal) }),
        serialize.execute({}),
      );
    if (this.durability)
      parts.push(serialize.parse({ text: WAL_INSERT_POSITION }), serialize.bind({}), serialize.execute({}));
    parts.push(serialize.sync());
    const message = concat(parts);
    let commitAt: string | undefined;
    const outcomes = await this.client.transaction(async () => {
      await this.parseOnce();
      // A failing statement throws here (after the Sync): transaction() rolls back.
      const { messages } = await this.client.execProtocol(message, { syncToFs: false });
      const dataRows = messages.filter(isDataRow);
      if (this.durability) commitAt = dataRows.pop()?.fields[0] ?? undefined;
      const results = dataRows.map(
        (m) =>
          Object.fromEntries(
            INSTANCE_RESULT_COLUMNS.map((c, i) => [c, m.fields[i] ?? null]),
          ) as unknown as InstanceResult,
      );
      const checked = outcomesOf(results, rows.length);
      await beforeCommit();
      return checked;
    });
    return { outcomes, ...(commitAt ? { commitAt } : {}) };
  }

  /**
   * Bind/Execute of the named statement, holding the session as a query does (PGlite's mutexes,
   * and the turns of pglite-turns.ts when the client takes them): it never lands inside a batch.
   */
  admissionFacts(key: AdmissionKey): Promise<AdmissionFacts | undefined> {
    const message = concat([
      serialize.bind({ statement: ADMISSION, values: admissionValues(key) }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    const read = () =>
      this.client._runExclusiveTransaction(() =>
        this.client._runExclusiveQuery(async () => {
          await this.parseOnce();
          const { messages } = await this.client.execProtocol(message, { syncToFs: false });
          const row = messages.find(isDataRow)?.fields;
          return admissionFactsOf(row ? [row[0] ?? null, row[1] ?? null] : undefined);
        }),
      );
    const turns = databaseTurnsOf(this.client);
    return turns ? turns.run(read) : read();
  }

  async makeDurable(batch: CommittedBatch, opts: { alone?: boolean } = {}): Promise<void> {
    if (!this.durability) return;
    // A lone committer that knows its position waits less without the pool hop.
    await (opts.alone && batch.commitAt !== undefined
      ? this.durability.syncHere(batch.commitAt)
      : this.durability.sync(batch.commitAt));
  }
}
