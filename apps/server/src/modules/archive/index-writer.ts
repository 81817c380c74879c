import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { AppContext } from '../../context.js';
import { type Db, syncCommitted, walInsertPositionQuery } from '../../db/client.js';
import { studyEventName as eventName } from '../study-events/record-study-event.js';
import { phaseClock } from './ingest-phases.js';
import { ingestsInFlight } from './ingests-in-flight.js';

/**
 * The index write of received instances, group-committed (ARCHIVE.md "index write").
 *
 * Every instance is handed to the context's one writer together with a promise of its blob being
 * durable. The writer runs one transaction at a time; whatever arrived while it ran becomes the
 * next one. A transaction is two round trips whatever its size: BEGIN and the two statements of
 * each instance (EXECUTEs of statements prepared once per session) as one simple-protocol query,
 * which runs while the blobs are still being synced, then COMMIT once every blob of the batch is
 * durable; on PGlite the WAL is then synced from outside (db/pglite-durability.ts), since PGlite
 * cannot sync it itself. So a lone C-STORE association waits for
 * max(blob sync, statements) + one commit per instance, and four associations or a STOW request
 * whose parts are ingested side by side share a commit among the instances that arrived together.
 * Each caller's promise settles only after its batch committed: nothing is acknowledged earlier,
 * and no committed row names a blob that is not on disk.
 *
 * When a batch fails (one bad row, a deadlock with another process) nothing of it was committed,
 * and each of its instances is written again in a transaction of its own: the good ones are
 * stored, the bad one gets its own error. A blob that could not be stored rolls its batch back and
 * the others are written again without it. EXECUTE's values are inlined as escaped literals
 * because a multi-statement query takes no parameters.
 */

/** What one instance writes to the index: plain values, already cleaned of NUL characters. */
export interface IndexRow {
  groupId: number;
  centerId: number;
  studyInstanceUid: string;
  seriesInstanceUid: string;
  sopInstanceUid: string;
  sopClassUid: string;
  transferSyntaxUid: string;
  study: {
    patientName: string;
    patientId: string;
    issuerOfPatientId: string;
    patientSex: string;
    patientAge: string;
    patientBirthDate: string;
    studyDate: string;
    studyTime: string;
    studyDescription: string;
    accessionNumber: string;
    studyIdentifier: string;
    institutionName: string;
    referringPhysicianName: string;
  };
  modality: string;
  seriesDescription: string;
  seriesNumber: number | null;
  bodyPartExamined: string;
  instanceNumber: number | null;
  numberOfFrames: number;
  rows: number | null;
  columns: number | null;
  blobKey: string;
  sizeBytes: number;
  sha256: string;
  /** The instance's DICOM JSON, serialised. */
  metadata: string;
  frames: Array<[number, number]> | null;
  source: string;
  callingAet: string | null;
  actorUserId: number | null;
  receivedAt: Date;
}

/**
 * What the index did with an instance (DECISIONS.md "instance ownership"): STORED a new instance;
 * SAME the instance was stored already with these very bytes; KEPT_FIRST it was stored already
 * with other bytes, which were not taken; FOREIGN the study is another center's: refused.
 */
export type IndexDisposition = 'STORED' | 'SAME' | 'KEPT_FIRST' | 'FOREIGN';

export interface IndexOutcome {
  studyId: number;
  /** Null only for FOREIGN (the caller is not told the other center's row). */
  reportStatusId: number | null;
  disposition: IndexDisposition;
}

/** Instances in one transaction at most: bounds the query text (each carries its JSON metadata). */
const MAX_BATCH = 64;

/** A SQL literal. E'' with doubled backslashes reads the same whatever standard_conforming_strings says. */
export function literal(value: string | number | boolean | null): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  // NUL cannot be in a PostgreSQL text value (nor in a query string): the caller removed it.
  const body = value.replaceAll('\u0000', '').replaceAll("'", "''");
  return body.includes('\\') ? `E'${body.replaceAll('\\', '\\\\')}'` : `'${body}'`;
}

const L = literal;

const STUDY_FILL_COLUMNS = [
  'patient_name',
  'patient_id',
  'patient_sex',
  'patient_age',
  'patient_birth_date',
  'study_date',
  'study_time',
  'study_description',
  'accession_number',
  'study_identifier',
  'institution_name',
  'referring_physician_name',
  'issuer_of_patient_id',
] as const;

/**
 * The two statements of one instance, prepared once per database session (`PREPARE`, see
 * {@link PREPARE_STATEMENTS}) and run by `EXECUTE` with inlined literals: a prepared statement
 * skips parse and analysis of these long statements, and after a few runs its plan is cached
 * (PGlite: ~7 of the ~9 ms of CPU an instance cost went to these two statements). The first
 * upserts the study, which locks its row until commit (ingests of one study are serialised
 * there); it changes an existing study only for its own center and a new SOP instance. The second,
 * a statement of its own so its snapshot is taken after that lock was granted, decides and writes
 * the rest (archive DECISIONS.md "instance ownership"):
 * - the study is another center's (`refused`): nothing is attached; the attempt goes to
 *   `ingest_refusals` (who, how) and, once an hour at most, to the study's timeline (which
 *   names neither the user nor the AE title of the other center: its users read it);
 * - the SOP instance is stored already (`prev`): nothing changes, the first copy stays; the
 *   answer tells identical bytes from other ones;
 * - else the series with its count, the instance, the study's counts, a new study's report row
 *   with its STUDY_CREATED event, and on a signed-off row the "new images after sign-off" mark
 *   (with one timeline event per sign-off).
 * Its result row carries `job`, so the rows of a batch are told apart whatever else the driver
 * returns.
 * Its study_events rows are the one place a timeline row is not written by recordStudyEvent: they
 * are part of the one pipelined statement per instance; their names go through `eventName`, so
 * they are checked against core's union all the same.
 */
export const PREPARE_STATEMENTS = `
prepare radflow_ingest_study (integer, integer, text, text, text, text, text, text, text, text,
  text, text, text, text, text, text, timestamptz, text, text) as
insert into studies as s (group_id, center_id, study_instance_uid, patient_name, patient_id,
  patient_sex, patient_age, patient_birth_date, study_date, study_time, study_description,
  accession_number, study_identifier, institution_name, referring_physician_name, modalities,
  last_instance_at, issuer_of_patient_id)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
  case when $16 = '' then '{}'::text[] else array[$16] end, $17, $19)
on conflict (group_id, study_instance_uid) do update set
  ${STUDY_FILL_COLUMNS.map(
    (column) => `${column} = case when s.${column} = '' then excluded.${column} else s.${column} end`,
  ).join(',\n  ')},
  modalities = array(select distinct m from unnest(s.modalities || excluded.modalities) as m
    where m <> '' order by m),
  last_instance_at = excluded.last_instance_at
  where s.center_id = excluded.center_id
    and not exists (select 1 from instances i where i.study_id = s.id and i.sop_instance_uid = $18);
prepare radflow_ingest_instance (integer, text, text, text, text, text, integer, text, text, text,
  integer, integer, integer, integer, text, bigint, text, json, jsonb, text, text, timestamptz,
  integer, text, text, text, text, text, text, text, integer, text, jsonb, integer) as
with st as (
  select id, center_id from studies where group_id = $1 and study_instance_uid = $2
),
prev as (
  select i.id, i.sha256 from instances i
   where i.study_id = (select id from st) and i.sop_instance_uid = $3
),
go as (
  select st.id from st where st.center_id = $23 and not exists (select 1 from prev)
),
se as (
  insert into series as x (study_id, series_instance_uid, modality, series_description,
    series_number, body_part_examined, instance_count)
  select go.id, $4, $5, $6, $7, $8, 1 from go
  on conflict (study_id, series_instance_uid) do update set
    modality = case when x.modality = '' then excluded.modality else x.modality end,
    series_description = case when x.series_description = '' then excluded.series_description
      else x.series_description end,
    series_number = coalesce(x.series_number, excluded.series_number),
    instance_count = x.instance_count + 1
  returning x.id, (x.xmax = 0) as inserted
),
ins as (
  insert into instances as i (study_id, series_id, sop_instance_uid, sop_class_uid,
    transfer_syntax_uid, instance_number, number_of_frames, rows, columns, blob_key, size_bytes,
    sha256, metadata, frames, source, calling_aet, received_at)
  select go.id, se.id, $3, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22
    from go, se
  on conflict (study_id, sop_instance_uid) do nothing
  returning i.id
),
counts as (
  update studies set
    instance_count = studies.instance_count + 1,
    series_count = studies.series_count
      + coalesce((select case when se.inserted then 1 else 0 end from se), 0),
    size_bytes = studies.size_bytes + $16
   where studies.id = (select id from go) and exists (select 1 from ins)
  returning studies.id
),
existing as (
  select r.id from report_statuses r where r.study_id = (select id from st) order by r.id limit 1
),
created as (
  insert into report_statuses (study_id, group_id, center_id, status, study_name, patient_name,
    patient_id, patient_sex, patient_age, referring_physician_name, accession_number)
  select st.id, $1, $23, 'CREATED', $24, $25, $26, $27, $28, $29, $30
    from st
   where st.center_id = $23 and not exists (select 1 from existing)
  returning id
),
event as (
  insert into study_events (report_status_id, event_type, actor_user_id, actor_label, to_status, detail)
  select created.id, '${eventName('STUDY_CREATED')}', $31, $32, 'CREATED', $33
    from created
  returning id
),
lab_line as (
  update lab_bill_tests bt set study_id = st.id, uploaded_through_work_list = true
    from st, lab_bills b
   where exists (select 1 from created) and $30 <> '' and bt.accession_number = $30
     and bt.study_id is null and b.id = bt.bill_id
     and b.group_id = $1 and b.lab_scope = 'CENTER' and b.lab_owner_id = $23
  returning bt.id, st.id as study_id
),
lab_line_audit as (
  insert into lab_audit_events (group_id, lab_scope, lab_owner_id, entity, entity_id, action,
    actor_email, detail)
  select $1, 'CENTER', $23, 'BILL_TEST', lab_line.id, 'STUDY_LINKED',
    coalesce((select u.email from users u where u.id = $31), $21, $20),
    jsonb_build_object('studyId', lab_line.study_id, 'source', $20, 'uploadedThroughWorkList', true)
    from lab_line
  returning id
),
signed as (
  select r.id, r.new_images_after_sign_off_at > r.signed_off_at as marked
    from report_statuses r
   where r.study_id = (select id from go) and r.status = 'SIGNED_OFF' and exists (select 1 from ins)
),
mark as (
  update report_statuses r set new_images_after_sign_off_at = $22
    from signed where r.id = signed.id
  returning r.id
),
mark_event as (
  insert into study_events (report_status_id, event_type, actor_user_id, actor_label, detail)
  select signed.id, '${eventName('NEW_IMAGES_AFTER_SIGN_OFF')}', $31, $32, $33
    from signed where signed.marked is not true
  returning id
),
refused as (
  insert into ingest_refusals (group_id, center_id, study_id, study_instance_uid, sop_instance_uid,
    sop_class_uid, source, calling_aet, actor_user_id, sha256, reason)
  select $1, $23, st.id, $2, $3, $9, $20, $21, $31, $17, 'FOREIGN_STUDY'
    from st where st.center_id <> $23
  returning id
),
refused_event as (
  insert into study_events (report_status_id, event_type, actor_user_id, actor_label, detail)
  select existing.id, '${eventName('FOREIGN_IMAGES_REFUSED')}', null, 'Another center',
    $33 || jsonb_build_object('centerId', $23)
    from existing, refused
   where not exists (
     select 1 from study_events x
      where x.report_status_id = existing.id and x.event_type = '${eventName('FOREIGN_IMAGES_REFUSED')}'
        and x.created_at > now() - interval '1 hour')
  returning id
)
select $34 as job, (select id from st) as study_id,
  case when exists (select 1 from refused) then 'FOREIGN'
       when exists (select 1 from prev where prev.sha256 = $17) then 'SAME'
       when exists (select 1 from prev) then 'KEPT_FIRST'
       else 'STORED' end as outcome,
  coalesce((select id from existing), (select id from created)) as report_status_id,
  (select count(*) from ins)::integer + (select count(*) from counts)::integer as written;
`;
// created, event, lab_line, lab_line_audit, mark, mark_event, refused_event run whether or not the
// final select reads them (data-modifying CTEs). lab_line: a new study (its report row created here)
// whose accession number is a bill line of the receiving center's lab links itself to that line,
// once (lab-worklist DECISIONS.md): one probe of the unique accession index per new study, none for
// the study's later instances (the exists is a one-time filter on `created`).

/** The EXECUTEs of one instance (the statements are prepared in the session: PREPARE_STATEMENTS). */
export function instanceStatements(row: IndexRow, job: number): string {
  const s = row.study;
  const receivedAt = L(row.receivedAt.toISOString());
  const actorLabel = row.actorUserId ? null : (row.callingAet ?? row.source);
  const eventDetail = JSON.stringify({ source: row.source, studyInstanceUid: row.studyInstanceUid });
  const study = [
    L(row.groupId),
    L(row.centerId),
    L(row.studyInstanceUid),
    L(s.patientName),
    L(s.patientId),
    L(s.patientSex),
    L(s.patientAge),
    L(s.patientBirthDate),
    L(s.studyDate),
    L(s.studyTime),
    L(s.studyDescription),
    L(s.accessionNumber),
    L(s.studyIdentifier),
    L(s.institutionName),
    L(s.referringPhysicianName),
    L(row.modality),
    receivedAt,
    L(row.sopInstanceUid),
    L(s.issuerOfPatientId),
  ];
  const instance = [
    L(row.groupId),
    L(row.studyInstanceUid),
    L(row.sopInstanceUid),
    L(row.seriesInstanceUid),
    L(row.modality),
    L(row.seriesDescription),
    L(row.seriesNumber),
    L(row.bodyPartExamined),
    L(row.sopClassUid),
    L(row.transferSyntaxUid),
    L(row.instanceNumber),
    L(row.numberOfFrames),
    L(row.rows),
    L(row.columns),
    L(row.blobKey),
    L(row.sizeBytes),
    L(row.sha256),
    L(row.metadata),
    L(row.frames ? JSON.stringify(row.frames) : null),
    L(row.source),
    L(row.callingAet),
    receivedAt,
    L(row.centerId),
    L(s.studyDescription),
    L(s.patientName),
    L(s.patientId),
    L(s.patientSex),
    L(s.patientAge),
    L(s.referringPhysicianName),
    L(s.accessionNumber),
    L(row.actorUserId),
    L(actorLabel),
    L(eventDetail),
    L(job),
  ];
  return `execute radflow_ingest_study (${study.join(', ')});
execute radflow_ingest_instance (${instance.join(', ')});
`;
}

type ResultRow = {
  job: number | string;
  study_id: number | string | null;
  outcome: IndexDisposition;
  report_status_id: number | string | null;
  written: number | string;
};

/**
 * Runs `statements` in a transaction, then waits for `durable` before committing (a rejection rolls
 * back); returns the rows of every statement.
 */
type Runner = (statements: string, durable: () => Promise<void>, size: number) => Promise<ResultRow[]>;

/** Connections of a pool whose session holds the prepared statements (a pool reuses its clients). */
const preparedConnections = new WeakSet<object>();
const preparedLites = new WeakMap<PGlite, Promise<void>>();

/** PGlite is one session: prepared once (unless an earlier writer of the same client did). */
function prepareOnce(lite: PGlite): Promise<void> {
  let prepared = preparedLites.get(lite);
  if (!prepared) {
    prepared = (async () => {
      const { rows } = await lite.query(
        `select 1 from pg_prepared_statements where name = 'radflow_ingest_instance'`,
      );
      if (rows.length === 0) await lite.exec(PREPARE_STATEMENTS);
    })();
    prepared.catch(() => preparedLites.delete(lite));
    preparedLites.set(lite, prepared);
  }
  return prepared;
}

/** The PGlite client under `db`, or undefined on PostgreSQL. */
export function pgliteOf(db: Db): PGlite | undefined {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client && typeof (client as PGlite).transaction === 'function' && 'exec' in (client as object)
    ? (client as PGlite)
    : undefined;
}

function runnerOf(db: Db): Runner {
  const lite = pgliteOf(db);
  if (lite) {
    const positionQuery = walInsertPositionQuery(db);
    // PGlite is one session: the transaction holds it, so no other query lands inside ours while
    // the blobs are synced.
    return async (statements, durable, size) => {
      await prepareOnce(lite);
      const clock = phaseClock;
      let mark = clock ? performance.now() : 0;
      const lap = (phase: 'indexStatements' | 'blobDurableWait' | 'commit' | 'walSync') => {
        if (!clock) return;
        const now = performance.now();
        clock.add(phase, now - mark, size);
        mark = now;
      };
      let commitAt: string | undefined;
      const rows = await lite.transaction(async (tx) => {
        // The WAL position read in the same call, last: the sync after the commit need not ask.
        const results = await tx.exec(positionQuery ? statements + positionQuery : statements);
        lap('indexStatements');
        await durable();
        lap('blobDurableWait');
        const resultRows = results.flatMap(
          (r) => r.rows as Array<ResultRow & { wal_insert_position?: string }>,
        );
        commitAt = resultRows.at(-1)?.wal_insert_position;
        return resultRows;
      });
      lap('commit');
      // PGlite cannot sync its own WAL: done from outside before anything is acknowledged. A lone
      // instance (one C-STORE association) waits for the sync with nothing else to do: it is done
      // here, without the thread pool's hop; with other ingests under way this thread is theirs.
      await syncCommitted(db, commitAt, { onThisThread: size === 1 && ingestsInFlight.count <= 1 });
      lap('walSync');
      return rows;
    };
  }
  const client = (db as unknown as { $client?: unknown }).$client;
  if (client && typeof (client as pg.Pool).connect === 'function') {
    const pool = client as pg.Pool;
    return async (statements, durable, size) => {
      const clock = phaseClock;
      let mark = clock ? performance.now() : 0;
      const lap = (phase: 'indexStatements' | 'blobDurableWait' | 'commit') => {
        if (!clock) return;
        const now = performance.now();
        clock.add(phase, now - mark, size);
        mark = now;
      };
      const connection = await pool.connect();
      let broken: Error | undefined;
      try {
        if (!preparedConnections.has(connection)) {
          // A connection whose PREPARE failed half-way is dropped, not reused with one of the two.
          await connection.query(PREPARE_STATEMENTS).catch((error: Error) => {
            broken = error;
            throw error;
          });
          preparedConnections.add(connection);
        }
        const results = (await connection.query(`begin;\n${statements}`)) as unknown as
          pg.QueryResult | pg.QueryResult[];
        lap('indexStatements');
        await durable();
        lap('blobDurableWait');
        // The server's own WAL flush is part of the commit here.
        await connection.query('commit');
        lap('commit');
        return (Array.isArray(results) ? results : [results]).flatMap((r) => r.rows as ResultRow[]);
      } catch (error) {
        // The statements after a failing one were skipped and the transaction is left aborted.
        await connection.query('rollback').catch((e: Error) => (broken = e));
        throw error;
      } finally {
        connection.release(broken);
      }
    };
  }
  throw new Error('the index writer needs a PGlite or node-postgres database');
}

/** The instance's blob could not be made durable: its row was not committed. */
export class BlobNotDurable extends Error {
  constructor(readonly blobError: unknown) {
    super(blobError instanceof Error ? blobError.message : String(blobError));
  }
}

/** Thrown out of a batch whose statements ran but some blobs failed: those jobs, by index. */
class BlobsFailed extends Error {
  constructor(readonly failed: Map<number, unknown>) {
    super('some blobs of the batch could not be stored');
  }
}

interface Pending {
  row: IndexRow;
  /** Settles once the instance's blob is durable (or could not be made so). */
  durable: Promise<unknown>;
  resolve(outcome: IndexOutcome): void;
  reject(error: Error): void;
}

export class IndexWriter {
  private readonly run: Runner;
  private queue: Pending[] = [];
  private draining = false;
  /** Transactions committed and instances in them (tests and the bench read these). */
  readonly stats = { batches: 0, instances: 0, largestBatch: 0, retriedBatches: 0 };

  constructor(db: Db) {
    this.run = runnerOf(db);
  }

  /**
   * Resolves once the instance's row is committed; rejects with the database's error, or with
   * {@link BlobNotDurable} when `durable` rejects. The statements may run while the blob is still
   * being synced; the commit waits for it, so a committed row always names a durable blob.
   */
  write(row: IndexRow, durable: Promise<unknown> = Promise.resolve()): Promise<IndexOutcome> {
    durable.catch(() => undefined);
    return new Promise<IndexOutcome>((resolve, reject) => {
      this.queue.push({ row, durable, resolve, reject });
      if (!this.draining) {
        this.draining = true;
        // Callers in the same tick (parts of one STOW request ready together) join the first batch.
        queueMicrotask(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        await this.writeBatch(batch);
      }
    } finally {
      this.draining = false;
    }
  }

  private async writeBatch(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await this.commit(batch);
      batch.forEach((p, i) => p.resolve(outcomes[i]!));
    } catch (error) {
      if (error instanceof BlobsFailed) {
        // Rolled back: the instances without a durable blob are refused, the others written again.
        for (const [i, blobError] of error.failed) batch[i]!.reject(new BlobNotDurable(blobError));
        const rest = batch.filter((_, i) => !error.failed.has(i));
        if (rest.length > 0) await this.writeBatch(rest);
        return;
      }
      if (batch.length === 1) {
        batch[0]!.reject(error as Error);
        return;
      }
      this.stats.retriedBatches++;
      // Nothing of the batch was committed: each instance again on its own.
      for (const pending of batch) {
        try {
          const [outcome] = await this.commit([pending]);
          pending.resolve(outcome!);
        } catch (alone) {
          pending.reject(
            alone instanceof BlobsFailed ? new BlobNotDurable(alone.failed.get(0)) : (alone as Error),
          );
        }
      }
    }
  }

  private async commit(batch: Pending[]): Promise<IndexOutcome[]> {
    const rows = batch.map((p) => p.row);
    // One lock order for every transaction (study by study): two server processes writing batches
    // of the same studies wait for each other instead of deadlocking.
    const order = rows
      .map((row, job) => ({ row, job }))
      .sort((a, b) =>
        a.row.groupId !== b.row.groupId
          ? a.row.groupId - b.row.groupId
          : a.row.studyInstanceUid < b.row.studyInstanceUid
            ? -1
            : a.row.studyInstanceUid > b.row.studyInstanceUid
              ? 1
              : a.job - b.job,
      );
    const statements = order.map(({ row, job }) => instanceStatements(row, job)).join('');
    phaseClock?.add('batchSize', batch.length);
    const results = await this.run(
      statements,
      async () => {
        const settled = await Promise.allSettled(batch.map((p) => p.durable));
        const failed = new Map<number, unknown>();
        settled.forEach((s, i) => {
          if (s.status === 'rejected') failed.set(i, s.reason);
        });
        if (failed.size > 0) throw new BlobsFailed(failed);
      },
      batch.length,
    );
    const outcomes: Array<IndexOutcome | undefined> = new Array(rows.length);
    for (const r of results) {
      if (r.job === undefined || r.written === undefined) continue;
      const job = Number(r.job);
      // A new instance writes its row and the study's counts; the other outcomes write neither.
      const written = Number(r.written);
      if (r.study_id === null || written !== (r.outcome === 'STORED' ? 2 : 0))
        throw new Error('the instance index write returned no row');
      if (r.report_status_id === null && r.outcome !== 'FOREIGN')
        throw new Error('the instance index write returned no report row');
      outcomes[job] = {
        studyId: Number(r.study_id),
        reportStatusId: r.outcome === 'FOREIGN' ? null : Number(r.report_status_id),
        disposition: r.outcome,
      };
    }
    if (outcomes.some((o) => o === undefined) || outcomes.length !== rows.length)
      throw new Error('the instance index write returned no row');
    this.stats.batches++;
    this.stats.instances += rows.length;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, rows.length);
    return outcomes as IndexOutcome[];
  }
}

const writers = new WeakMap<Db, IndexWriter>();

/** The one writer of a database handle (one per app: every way in shares it). */
export function indexWriterOf(ctx: Pick<AppContext, 'db'>): IndexWriter {
  let writer = writers.get(ctx.db);
  if (!writer) writers.set(ctx.db, (writer = new IndexWriter(ctx.db)));
  return writer;
}
