import type { TStudyEventType } from '@radflow/core';

/**
 * The archive's index of instances: one interface, one implementation per engine
 * (instance-index-pglite.ts, instance-index-postgres.ts), as Orthanc's IDatabaseWrapper.
 *
 * An implementation creates the instances of one batch in one transaction, commits it when the
 * caller says the blobs are durable, and makes the commit survive a power cut. Every way in (STOW,
 * C-STORE, browser upload, upload into an existing report) writes through the same two statements
 * below, with bound parameters. What differs by engine stays behind the interface: how the
 * statements reach the database (PGlite: one protocol message per batch; PostgreSQL: named
 * statements on one pooled connection), where the WAL is and how it is synced, whether ingests
 * prepare in worker threads.
 */
export interface InstanceIndex {
  readonly engine: 'pglite' | 'postgres';
  /**
   * Whether ingests parse and hash in worker threads unless INGEST_WORKERS says otherwise
   * (archive ARCHIVE.md "ingest workers": PostgreSQL yes, PGlite no).
   */
  readonly ingestWorkersByDefault: boolean;
  /**
   * Creates the instances of a batch in one transaction, in one lock order (study by study), runs
   * `beforeCommit` once the statements ran and commits when it resolves (a rejection rolls the
   * batch back and is thrown). Outcomes are in the order of `rows`. A failing statement rolls
   * the whole batch back: nothing of it is committed. `journal`: the batch ends that ingest
   * journal's records up to `position`, written in the same transaction (ingest-journal.ts).
   */
  createInstances(
    rows: readonly IndexRow[],
    beforeCommit: () => Promise<void>,
    opts?: { journal?: JournalPosition },
  ): Promise<CommittedBatch>;
  /**
   * Resolves once the batch's commit survives a power cut. `alone`: the caller has nothing else
   * to do meanwhile (an engine may then wait on this thread instead of a pool's).
   */
  makeDurable(batch: CommittedBatch, opts?: { alone?: boolean }): Promise<void>;
  /**
   * What the index holds of an instance before it is acknowledged from the ingest journal
   * (journal-indexer.ts `admit`): the study's center, and the SOP instance's hash when it is
   * stored already. Undefined: no such study in the group. One prepared statement (parsed once,
   * not per instance), on committed rows only.
   */
  admissionFacts(key: AdmissionKey): Promise<AdmissionFacts | undefined>;
}

/** The instance an admission asks about. */
export interface AdmissionKey {
  groupId: number;
  studyInstanceUid: string;
  sopInstanceUid: string;
}

export interface AdmissionFacts {
  centerId: number;
  /** Null: the study has no such SOP instance. */
  sha256: string | null;
}

/** `$1` the group, `$2` the study UID, `$3` the SOP instance UID: one indexed probe of each table. */
export const ADMISSION_STATEMENT = `select s.center_id::text, i.sha256 from studies s
  left join instances i on i.study_id = s.id and i.sop_instance_uid = ($3::text)
 where s.group_id = ($1::integer) and s.study_instance_uid = ($2::text)`;

export const admissionValues = (key: AdmissionKey): BoundValues => [
  String(key.groupId),
  key.studyInstanceUid,
  key.sopInstanceUid,
];

/** The answer of {@link ADMISSION_STATEMENT}, from its first row's fields. */
export function admissionFactsOf(
  row: readonly [string | null, string | null] | undefined,
): AdmissionFacts | undefined {
  if (!row) return undefined;
  return { centerId: Number(row[0]), sha256: row[1] };
}

/** An ingest journal's records indexed so far (modules/archive/ingest-journal.ts). */
export interface JournalPosition {
  id: string;
  position: number;
}

/**
 * Records the position of a journal, in the batch's transaction: it never goes back (a batch
 * retried alone after a later one cannot undo it). `$1` the journal, `$2` the position.
 */
export const JOURNAL_POSITION_STATEMENT = `insert into ingest_journal_positions as p (journal_id, position)
values ($1::text, $2::bigint)
on conflict (journal_id) do update set position = greatest(p.position, excluded.position),
  updated_at = now()`;

export const journalPositionValues = (journal: JournalPosition): BoundValues => [
  journal.id,
  String(journal.position),
];

export interface CommittedBatch {
  outcomes: IndexOutcome[];
  /** Where the batch's commit record begins in the WAL, when the engine syncs it from outside. */
  commitAt?: string;
}

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
  /**
   * The upload-study action: the report row the instance is sent for (DECISIONS.md "one row per
   * study"). Unset: the study's row, or a new one.
   */
  reportStatusId?: number | null;
}

/**
 * What the index did with an instance (DECISIONS.md "instance ownership"): STORED a new instance;
 * SAME the instance was stored already with these very bytes; KEPT_FIRST it was stored already
 * with other bytes, which were not taken; FOREIGN the study is another center's: refused.
 * Sent for a report row (`reportStatusId`) that does not exist in the group: NO_SUCH_REPORT; whose
 * study is another one with images: OTHER_STUDY. Neither writes anything.
 */
export type IndexDisposition =
  'STORED' | 'SAME' | 'KEPT_FIRST' | 'FOREIGN' | 'NO_SUCH_REPORT' | 'OTHER_STUDY';

export interface IndexOutcome {
  /** Null only when nothing was written for a report row that may not take the instance. */
  studyId: number | null;
  /** Null for FOREIGN (the caller is not told the other center's row) and the report refusals. */
  reportStatusId: number | null;
  disposition: IndexDisposition;
  /** Sent for a report row, the instance joined its study's existing row instead. */
  joinedExisting: boolean;
}

/** core's study event names, checked at compile time (the SQL below writes them itself). */
const eventName = <T extends TStudyEventType>(type: T): T => type;

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

/** Every `$n` of `text` cast to its type: the statements carry their parameter types themselves. */
function typed(text: string, types: readonly string[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const type = types[Number(n) - 1];
    if (!type) throw new Error(`no type for $${n}`);
    return `($${n}::${type})`;
  });
}

/**
 * A report row the instance may join (the upload-study action): of the group, and its study is the
 * instance's or has no images yet. `$r` its id, `$g` the group, `$u` the study UID.
 */
const attachable = (r: string, g: string, u: string) =>
  `exists (select 1 from report_statuses r join studies ts on ts.id = r.study_id
     where r.id = ${r} and r.group_id = ${g} and (ts.study_instance_uid = ${u} or ts.instance_count = 0))`;

/**
 * The first statement of an instance: upserts the study, which locks its row until commit
 * (ingests of one study are serialised there). It changes an existing study only for its own
 * center and a new SOP instance, and touches nothing for a report row the instance may not join.
 */
export const INDEX_STUDY_STATEMENT = typed(
  `insert into studies as s (group_id, center_id, study_instance_uid, patient_name, patient_id,
  patient_sex, patient_age, patient_birth_date, study_date, study_time, study_description,
  accession_number, study_identifier, institution_name, referring_physician_name, modalities,
  last_instance_at, issuer_of_patient_id)
select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
  case when $16 = '' then '{}'::text[] else array[$16] end, $17, $19
 where $20 is null or ${attachable('$20', '$1', '$3')}
on conflict (group_id, study_instance_uid) do update set
  ${STUDY_FILL_COLUMNS.map(
    (column) => `${column} = case when s.${column} = '' then excluded.${column} else s.${column} end`,
  ).join(',\n  ')},
  modalities = array(select distinct m from unnest(s.modalities || excluded.modalities) as m
    where m <> '' order by m),
  last_instance_at = excluded.last_instance_at
  where s.center_id = excluded.center_id
    and not exists (select 1 from instances i where i.study_id = s.id and i.sop_instance_uid = $18)`,
  ['integer', 'integer', ...Array<string>(13).fill('text'), 'text', 'timestamptz', 'text', 'text', 'integer'],
);

/**
 * The second statement of an instance, a statement of its own so its snapshot is taken after the
 * study lock was granted: decides and writes the rest (archive DECISIONS.md "instance ownership",
 * "one row per study"):
 * - sent for a report row it may not join (checked again under that row's lock): nothing is
 *   written (a study the first statement made for it alone is removed);
 * - the study is another center's (`refused`): nothing is attached; the attempt goes to
 *   `ingest_refusals` (who, how) and, once an hour at most, to the study's timeline (which names
 *   neither the user nor the AE title of the other center: its users read it);
 * - the SOP instance is stored already (`prev`): nothing changes, the first copy stays; the answer
 *   tells identical bytes from other ones;
 * - else the series with its count, the instance, the study's counts, and on a signed-off row the
 *   "new images after sign-off" mark (one timeline event per sign-off);
 * - the report row: the one sent for (`target`; repointed to this study when it held an imageless
 *   one and this study has no row yet, else the instance joins the study's row), the study's row,
 *   or for a study new to the group a new row with its STUDY_CREATED event (and its link to a
 *   lab bill line with the same accession number, lab-worklist DECISIONS.md).
 * Its result row carries `job`, so the rows of a batch are told apart whatever else the driver
 * returns. Its study_events rows are the one place a timeline row is not written by
 * recordStudyEvent: they are part of the one statement per instance; their names are checked
 * against core's union all the same.
 */
export const INDEX_INSTANCE_STATEMENT = typed(
  `with st as (
  select id, center_id from studies where group_id = $1 and study_instance_uid = $2
),
prev as (
  select i.id, i.sha256 from instances i
   where i.study_id = (select id from st) and i.sop_instance_uid = $3
),
target as (
  select r.id, r.study_id from report_statuses r join studies ts on ts.id = r.study_id
   where r.id = $35 and r.group_id = $1 and (ts.study_instance_uid = $2 or ts.instance_count = 0)
   for update of r
),
refusal as (
  select case when $35 is null then null
              when not exists (select 1 from report_statuses r where r.id = $35 and r.group_id = $1)
                then 'NO_SUCH_REPORT'
              when not exists (select 1 from target) then 'OTHER_STUDY' end as reason
),
allowed as (
  select st.id, st.center_id from st where (select reason from refusal) is null
),
go as (
  select allowed.id from allowed where allowed.center_id = $23 and not exists (select 1 from prev)
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
  select r.id from report_statuses r where r.study_id = (select id from st)
   order by r.split_from_report_status_id is not null, r.id limit 1
),
joined as (
  select existing.id from existing, target, allowed
   where allowed.center_id = $23 and target.study_id <> allowed.id and existing.id <> target.id
),
repoint as (
  update report_statuses r set study_id = allowed.id, updated_at = now()
    from allowed, target
   where r.id = target.id and allowed.center_id = $23 and target.study_id <> allowed.id
     and not exists (select 1 from existing)
  returning r.id, target.study_id as from_study_id, allowed.id as to_study_id
),
repoint_event as (
  insert into study_events (report_status_id, event_type, actor_user_id, actor_label, detail)
  select repoint.id, '${eventName('IMAGES_ATTACHED')}', $31, $21,
    jsonb_build_object('fromStudyId', repoint.from_study_id, 'toStudyId', repoint.to_study_id,
      'studyInstanceUid', $2)
    from repoint
  returning id
),
emptied as (
  delete from studies s using repoint
   where s.id = repoint.from_study_id and s.instance_count = 0
     and not exists (select 1 from report_statuses r where r.study_id = s.id and r.id <> repoint.id)
  returning s.id
),
unwanted as (
  delete from studies s
   where s.id = (select id from st) and (select reason from refusal) is not null
     and s.instance_count = 0 and not exists (select 1 from report_statuses r where r.study_id = s.id)
  returning s.id
),
created as (
  insert into report_statuses (study_id, group_id, center_id, status, study_name, patient_name,
    patient_id, patient_sex, patient_age, referring_physician_name, accession_number)
  select allowed.id, $1, $23, 'CREATED', $24, $25, $26, $27, $28, $29, $30
    from allowed
   where allowed.center_id = $23 and $35 is null and not exists (select 1 from existing)
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
  select $1, $23, allowed.id, $2, $3, $9, $20, $21, $31, $17, 'FOREIGN_STUDY'
    from allowed where allowed.center_id <> $23
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
select $34 as job,
  case when (select reason from refusal) is null then (select id from st) end as study_id,
  coalesce((select reason from refusal),
    case when exists (select 1 from refused) then 'FOREIGN'
         when exists (select 1 from prev where prev.sha256 = $17) then 'SAME'
         when exists (select 1 from prev) then 'KEPT_FIRST'
         else 'STORED' end) as outcome,
  case when (select reason from refusal) is not null or exists (select 1 from refused) then null
       when $35 is not null then coalesce((select id from joined), (select id from target))
       else coalesce((select id from existing), (select id from created)) end as report_status_id,
  exists (select 1 from joined) as joined,
  (select count(*) from ins)::integer + (select count(*) from counts)::integer as written`,
  [
    'integer',
    'text',
    'text',
    'text',
    'text',
    'text',
    'integer',
    'text',
    'text',
    'text',
    'integer',
    'integer',
    'integer',
    'integer',
    'text',
    'bigint',
    'text',
    'json',
    'jsonb',
    'text',
    'text',
    'timestamptz',
    'integer',
    'text',
    'text',
    'text',
    'text',
    'text',
    'text',
    'text',
    'integer',
    'text',
    'jsonb',
    'integer',
    'integer',
  ],
);
// created, event, lab_line, lab_line_audit, mark, mark_event, refused_event, repoint_event, emptied
// and unwanted run whether or not the final select reads them (data-modifying CTEs). lab_line: a
// new study (its report row created here) whose accession number is a bill line of the receiving
// center's lab links itself to that line, once: one probe of the unique accession index per new
// study, none for the study's later instances (the exists is a one-time filter on `created`).
// emptied: the imageless study a repointed row held is referenced by nothing any more; the
// foreign-key checks run at the statement's end, after the repoint.

/**
 * First in every batch's transaction: the index statements run on their generic plans, made once
 * per session. Left to itself the planner makes the study statement a custom plan at every
 * execution (`$20 is null` folds away in a custom plan, so the generic one never looks cheaper),
 * which cost ~0.7 ms of PGlite's CPU per instance, a quarter of the index write (ARCHIVE.md
 * "index write"). Every step of both plans is an index probe, whatever the values. `local`: the
 * session's other queries keep the default when the batch ends.
 */
export const INDEX_PLAN_SETTING = 'set local plan_cache_mode = force_generic_plan';

/** A statement's parameters, as text (both engines bind them in text format) or null. */
export type BoundValues = Array<string | null>;

const value = (v: string | number | null | undefined): string | null =>
  v === null || v === undefined ? null : String(v);

/** The parameters of {@link INDEX_STUDY_STATEMENT}. */
export function studyValues(row: IndexRow): BoundValues {
  const s = row.study;
  return [
    row.groupId,
    row.centerId,
    row.studyInstanceUid,
    s.patientName,
    s.patientId,
    s.patientSex,
    s.patientAge,
    s.patientBirthDate,
    s.studyDate,
    s.studyTime,
    s.studyDescription,
    s.accessionNumber,
    s.studyIdentifier,
    s.institutionName,
    s.referringPhysicianName,
    row.modality,
    row.receivedAt.toISOString(),
    row.sopInstanceUid,
    s.issuerOfPatientId,
    row.reportStatusId,
  ].map(value);
}

/** The parameters of {@link INDEX_INSTANCE_STATEMENT}; `job` comes back in its result row. */
export function instanceValues(row: IndexRow, job: number): BoundValues {
  const s = row.study;
  const actorLabel = row.actorUserId ? null : (row.callingAet ?? row.source);
  return [
    row.groupId,
    row.studyInstanceUid,
    row.sopInstanceUid,
    row.seriesInstanceUid,
    row.modality,
    row.seriesDescription,
    row.seriesNumber,
    row.bodyPartExamined,
    row.sopClassUid,
    row.transferSyntaxUid,
    row.instanceNumber,
    row.numberOfFrames,
    row.rows,
    row.columns,
    row.blobKey,
    row.sizeBytes,
    row.sha256,
    row.metadata,
    row.frames ? JSON.stringify(row.frames) : null,
    row.source,
    row.callingAet,
    row.receivedAt.toISOString(),
    row.centerId,
    s.studyDescription,
    s.patientName,
    s.patientId,
    s.patientSex,
    s.patientAge,
    s.referringPhysicianName,
    s.accessionNumber,
    row.actorUserId,
    actorLabel,
    JSON.stringify({ source: row.source, studyInstanceUid: row.studyInstanceUid }),
    job,
    row.reportStatusId,
  ].map(value);
}

/** The result row of {@link INDEX_INSTANCE_STATEMENT}, as either driver returns it. */
export interface InstanceResult {
  job: number | string;
  study_id: number | string | null;
  outcome: IndexDisposition;
  report_status_id: number | string | null;
  joined: boolean | string;
  written: number | string;
}

/** The column order of {@link InstanceResult} (PGlite's protocol rows come as bare fields). */
export const INSTANCE_RESULT_COLUMNS = [
  'job',
  'study_id',
  'outcome',
  'report_status_id',
  'joined',
  'written',
] as const;

/** Checks a batch's result rows and returns the outcomes in job order. */
export function outcomesOf(results: readonly InstanceResult[], size: number): IndexOutcome[] {
  const outcomes: Array<IndexOutcome | undefined> = new Array(size);
  for (const r of results) {
    const job = Number(r.job);
    const written = Number(r.written);
    const refusedForReport = r.outcome === 'NO_SUCH_REPORT' || r.outcome === 'OTHER_STUDY';
    // A new instance writes its row and the study's counts; the other outcomes write neither.
    if ((r.study_id === null && !refusedForReport) || written !== (r.outcome === 'STORED' ? 2 : 0))
      throw new Error('the instance index write returned no row');
    if (r.report_status_id === null && r.outcome !== 'FOREIGN' && !refusedForReport)
      throw new Error('the instance index write returned no report row');
    outcomes[job] = {
      studyId: r.study_id === null ? null : Number(r.study_id),
      reportStatusId: r.report_status_id === null ? null : Number(r.report_status_id),
      disposition: r.outcome,
      joinedExisting: r.joined === true || r.joined === 't',
    };
  }
  if (outcomes.length !== size || outcomes.some((o) => o === undefined))
    throw new Error('the instance index write returned no row');
  return outcomes as IndexOutcome[];
}

/**
 * The rows of a batch in the one lock order of every transaction (group, study UID, then arrival):
 * two server processes writing batches of the same studies wait for each other instead of
 * deadlocking. `job` is the row's place in the batch.
 */
export function inLockOrder(rows: readonly IndexRow[]): Array<{ row: IndexRow; job: number }> {
  return rows
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
}
