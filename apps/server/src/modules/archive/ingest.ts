import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import {
  DicomParseError,
  type ParsedInstance,
  assertIngestable,
  locateFrames,
  parseInstance,
  toDicomJson,
} from '@radflow/dicom';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { centers, instances, reportStatuses, series, studies, studyEvents } from '../../db/schema.js';
import { bulkDataUri, instanceBlobKey } from './dicom-keys.js';
import { computePatientAge } from './patient-age.js';

/**
 * Ingest of one DICOM instance, whichever way it came in (STOW-RS, C-STORE, browser upload, router).
 *
 * Order of writes, and what a crash leaves:
 * 1. the bytes go to the blob store under a key derived from (group, study UID, SOP UID), by an
 *    atomic rename: a reader sees the old copy or the new one, never half of one;
 * 2. then one transaction upserts study, series and instance rows, the counts, and for a study new
 *    to the group its report-status row and STUDY_CREATED event.
 * A crash between 1 and 2 leaves an orphan blob (no index row points at it): never a visible half
 * instance. A later sweep may delete blobs under `dicom/` older than a day that no `instances.blob_key`
 * names (not built yet); a re-send of the instance adopts the blob anyway, since the key is the same.
 *
 * Concurrency: the study upsert (ON CONFLICT on group + Study Instance UID) locks the study row for
 * the rest of the transaction, so ingests of one study are serialised there: counts are incremented
 * only when a row is new, and a new study gets exactly one report-status row. The write is two
 * statements (`indexInstanceFast`): the upsert, then everything else in one, whose snapshot is taken
 * after the lock was granted and so sees what the ingest before it committed.
 */

export interface IngestOptions {
  centerId: number;
  source: 'STOW' | 'DIMSE' | 'UPLOAD' | 'ROUTER';
  callingAet?: string | null;
  actorUserId?: number | null;
  /** attach to this report-status row (the upload-study action) */
  reportStatusId?: number | null;
  /** Refuse an instance of another study (STOW-RS to /studies/{study}). */
  requireStudyInstanceUid?: string | null;
}

export type IngestFailureCode = 'NOT_DICOM' | 'INVALID' | 'REFUSED' | 'STORAGE';

export type IngestResult =
  | {
      ok: true;
      duplicate: boolean;
      sopInstanceUid: string;
      sopClassUid: string;
      studyInstanceUid: string;
      seriesInstanceUid: string;
      studyId: number;
      reportStatusId: number;
    }
  | {
      ok: false;
      reason: string;
      failureCode: IngestFailureCode;
      sopInstanceUid: string | null;
      sopClassUid: string | null;
      /** Known when the file parsed. */
      studyInstanceUid?: string | null;
    };

type IngestFailure = Extract<IngestResult, { ok: false }>;

/** Thrown inside the transaction to refuse the instance (rolls the transaction back). */
class IngestRefusal extends Error {
  constructor(readonly failure: IngestFailure) {
    super(failure.reason);
  }
}

const fail = (
  failureCode: IngestFailureCode,
  reason: string,
  parsed?: Pick<ParsedInstance, 'sopInstanceUid' | 'sopClassUid' | 'studyInstanceUid'> | null,
): IngestFailure => ({
  ok: false,
  reason,
  failureCode,
  sopInstanceUid: parsed?.sopInstanceUid || null,
  sopClassUid: parsed?.sopClassUid || null,
  studyInstanceUid: parsed?.studyInstanceUid || null,
});

/** PostgreSQL text and jsonb refuse NUL characters; a DICOM value may carry one as padding. */
function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('\u0000', '') as T;
  if (Array.isArray(value)) return value.map(withoutNul) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutNul(v)])) as T;
  }
  return value;
}

const text = (value: string | null | undefined) => withoutNul(value ?? '').trim();
const int32 = (value: number | null | undefined) =>
  value !== null && value !== undefined && Number.isInteger(value) && Math.abs(value) <= 2 ** 31 - 1
    ? value
    : null;

/** Each frame's [offset, length] in the stored file, or null when some frame is not one plain range. */
function frameRanges(parsed: ParsedInstance): Array<[number, number]> | null {
  // Deflated data sets: the offsets are in the inflated bytes, not in the file.
  if (!parsed.pixelData || parsed.pixelData.isInInflatedDataset) return null;
  try {
    const located = locateFrames(parsed);
    const ranges: Array<[number, number]> = [];
    for (const frame of located) {
      const [range] = frame.ranges;
      if (frame.ranges.length !== 1 || frame.bitOffset !== 0 || !range) return null;
      ranges.push([range.offset, range.length]);
    }
    return ranges;
  } catch {
    // Frames that cannot be located (missing attributes, unresolvable fragments) are still stored:
    // retrieval reads the file and cuts them, or reports the frame as unavailable.
    return null;
  }
}

function parse(bytes: Uint8Array): ParsedInstance | IngestFailure {
  try {
    const parsed = parseInstance(bytes);
    assertIngestable(parsed);
    return parsed;
  } catch (error) {
    if (error instanceof DicomParseError) {
      const code = error.code === 'EMPTY' || error.code === 'NOT_DICOM' ? 'NOT_DICOM' : 'INVALID';
      return fail(code, error.message);
    }
    return fail('INVALID', `The file cannot be read as DICOM: ${(error as Error).message}`);
  }
}

/** The worklist fields an instance brings to its study (spec-core §3 study row). */
function studyFields(parsed: ParsedInstance) {
  const index = parsed.index;
  const age = text(index.patientAge) || computePatientAge(index.patientBirthDate, index.studyDate) || '';
  return {
    patientName: text(index.patientName),
    patientId: text(index.patientId),
    patientSex: text(index.patientSex),
    patientAge: age,
    patientBirthDate: text(index.patientBirthDate),
    studyDate: text(index.studyDate),
    studyTime: text(index.studyTime),
    studyDescription: text(index.studyDescription),
    accessionNumber: text(index.accessionNumber),
    studyIdentifier: text(index.studyId),
    institutionName: text(index.institutionName),
    referringPhysicianName: text(index.referringPhysicianName),
  };
}

/** The worklist patient fields a new report row copies from its study's header. */
function reportPatientFields(fields: ReturnType<typeof studyFields>) {
  return {
    patientName: fields.patientName,
    patientId: fields.patientId,
    patientSex: fields.patientSex,
    patientAge: fields.patientAge,
    referringPhysicianName: fields.referringPhysicianName,
    accessionNumber: fields.accessionNumber,
  };
}

/** The serialised DICOM JSON, NUL characters removed (PostgreSQL text and json refuse them). */
function metadataJson(dicomJson: unknown): string {
  const serialised = JSON.stringify(dicomJson);
  // A NUL anywhere (key or value) is serialised as \u0000: only then rebuild without it.
  return serialised.includes('\\u0000') ? JSON.stringify(withoutNul(dicomJson)) : serialised;
}

const CENTER_CACHE_MS = 10_000;
const centerCaches = new WeakMap<
  AppContext,
  Map<number, { center: { id: number; groupId: number } | null; until: number }>
>();

/**
 * Center id → its group, cached briefly per app context: an association or STOW request of 500
 * instances asks the database once (the SCP caches its AE-title lookup the same way).
 */
async function centerOf(ctx: AppContext, centerId: number): Promise<{ id: number; groupId: number } | null> {
  let cache = centerCaches.get(ctx);
  if (!cache) centerCaches.set(ctx, (cache = new Map()));
  const hit = cache.get(centerId);
  if (hit && hit.until > Date.now()) return hit.center;
  const [center] = await ctx.db
    .select({ id: centers.id, groupId: centers.groupId })
    .from(centers)
    .where(eq(centers.id, centerId));
  const found = center ?? null;
  cache.set(centerId, { center: found, until: Date.now() + CENTER_CACHE_MS });
  return found;
}

/** `studies.col` keeps its value unless empty, then takes the incoming one. */
const fillEmpty = (column: string) =>
  sql.raw(`case when studies.${column} = '' then excluded.${column} else studies.${column} end`);

/**
 * Stores one instance byte-for-byte and indexes it for `opts.centerId`'s group. Never throws for
 * bad input: a file that is not usable DICOM, or that may not go where asked, is `ok: false` with
 * a reason. A file under `ctx.blobs.tempDir()` is moved into the store (it is ours); any other file
 * is copied and left in place.
 */
export async function ingestInstance(
  ctx: AppContext,
  input: { filePath: string } | { bytes: Uint8Array },
  opts: IngestOptions,
): Promise<IngestResult> {
  let bytes: Uint8Array;
  try {
    bytes = 'bytes' in input ? input.bytes : await fs.readFile(input.filePath);
  } catch (error) {
    return fail('STORAGE', `The received file cannot be read: ${(error as Error).message}`);
  }
  const parsed = parse(bytes);
  if ('ok' in parsed) return parsed;
  if (opts.requireStudyInstanceUid && parsed.studyInstanceUid !== opts.requireStudyInstanceUid) {
    return fail(
      'REFUSED',
      `The instance is of study ${parsed.studyInstanceUid}, not of ${opts.requireStudyInstanceUid}`,
      parsed,
    );
  }

  const center = await centerOf(ctx, opts.centerId);
  if (!center) return fail('REFUSED', `Center ${opts.centerId} does not exist`, parsed);

  // The upload-study action: check before storing anything that the files may join that report.
  if (opts.reportStatusId != null) {
    const refusal = await checkAttachTarget(ctx, opts.reportStatusId, center.groupId, parsed);
    if (refusal) return refusal;
  }

  const key = instanceBlobKey(center.groupId, parsed.studyInstanceUid, parsed.sopInstanceUid);
  let sha256: string;
  try {
    const isOurTemp =
      'filePath' in input && path.resolve(path.dirname(input.filePath)) === path.resolve(ctx.blobs.tempDir());
    if (isOurTemp) {
      // The move (rename, directory sync) runs in the thread pool while this thread hashes.
      const moving = ctx.blobs.putFile(key, input.filePath);
      try {
        sha256 = createHash('sha256').update(bytes).digest('hex');
      } finally {
        await moving;
      }
    } else {
      // put hashes what it writes: the bytes are hashed once either way.
      ({ sha256 } = await ctx.blobs.put(key, bytes));
    }
  } catch (error) {
    return fail('STORAGE', `The instance could not be stored: ${(error as Error).message}`, parsed);
  }

  const uids = {
    studyInstanceUid: parsed.studyInstanceUid,
    seriesInstanceUid: parsed.seriesInstanceUid,
    sopInstanceUid: parsed.sopInstanceUid,
  };
  let metadata: string;
  try {
    metadata = metadataJson(toDicomJson(parsed, { bulkDataUri: (ref) => bulkDataUri('', uids, ref.path) }));
  } catch (error) {
    return fail(
      'INVALID',
      `The data set cannot be converted to DICOM JSON: ${(error as Error).message}`,
      parsed,
    );
  }

  try {
    return await ctx.db.transaction((tx) =>
      (opts.reportStatusId != null ? indexInstance : indexInstanceFast)(tx, ctx.now(), {
        parsed,
        groupId: center.groupId,
        centerId: center.id,
        key,
        sizeBytes: bytes.byteLength,
        sha256,
        metadata,
        frames: frameRanges(parsed),
        opts,
      }),
    );
  } catch (error) {
    if (error instanceof IngestRefusal) return error.failure;
    return fail('STORAGE', `The instance could not be indexed: ${(error as Error).message}`, parsed);
  }
}

async function checkAttachTarget(
  ctx: AppContext,
  reportStatusId: number,
  groupId: number,
  parsed: ParsedInstance,
): Promise<IngestFailure | null> {
  const [row] = await ctx.db
    .select({
      groupId: reportStatuses.groupId,
      studyUid: studies.studyInstanceUid,
      instanceCount: studies.instanceCount,
    })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .where(eq(reportStatuses.id, reportStatusId));
  return attachRefusal(row, reportStatusId, groupId, parsed);
}

function attachRefusal(
  row: { groupId: number; studyUid: string; instanceCount: number } | undefined,
  reportStatusId: number,
  groupId: number,
  parsed: ParsedInstance,
): IngestFailure | null {
  if (!row || row.groupId !== groupId)
    return fail('REFUSED', `Report ${reportStatusId} does not exist`, parsed);
  if (row.studyUid !== parsed.studyInstanceUid && row.instanceCount > 0) {
    return fail(
      'REFUSED',
      `The file belongs to study ${parsed.studyInstanceUid}, not to the study of report ${reportStatusId}`,
      parsed,
    );
  }
  return null;
}

interface IndexInput {
  parsed: ParsedInstance;
  groupId: number;
  centerId: number;
  key: string;
  sizeBytes: number;
  sha256: string;
  /** The instance's DICOM JSON, serialised (NUL characters removed). */
  metadata: string;
  frames: Array<[number, number]> | null;
  opts: IngestOptions;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * The index write of an instance that does not attach to a given report row, in two statements
 * inside the caller's transaction (each one round trip, written as SQL so no query builder runs):
 * 1. the study upsert: creates the row or fills its empty fields, and locks it until commit, so
 *    ingests of one study are serialised from here on;
 * 2. one statement for the rest, seeing everything committed before the lock was granted: the
 *    previous copy of the instance (a re-send), the series upsert (its count +1 unless the instance
 *    was already in it), the old series' count −1 when a re-send moved the instance, the instance
 *    row, the study's counts, and the study's first report-status row, or a new one with its
 *    STUDY_CREATED event. No row is modified twice within the statement.
 */
async function indexInstanceFast(tx: Tx, now: Date, input: IndexInput): Promise<IngestResult> {
  const { parsed, groupId, centerId, opts } = input;
  const f = studyFields(parsed);
  const modality = text(parsed.index.modality);
  const at = now.toISOString();

  const studyRows = rowsOf<{ id: number }>(
    await tx.execute(sql`
      insert into studies as s (group_id, center_id, study_instance_uid, patient_name, patient_id,
        patient_sex, patient_age, patient_birth_date, study_date, study_time, study_description,
        accession_number, study_identifier, institution_name, referring_physician_name, modalities,
        last_instance_at)
      values (${groupId}, ${centerId}, ${parsed.studyInstanceUid}, ${f.patientName}, ${f.patientId},
        ${f.patientSex}, ${f.patientAge}, ${f.patientBirthDate}, ${f.studyDate}, ${f.studyTime},
        ${f.studyDescription}, ${f.accessionNumber}, ${f.studyIdentifier}, ${f.institutionName},
        ${f.referringPhysicianName},
        case when ${modality}::text = '' then '{}'::text[] else array[${modality}::text] end,
        ${at}::timestamptz)
      on conflict (group_id, study_instance_uid) do update set
        patient_name = case when s.patient_name = '' then excluded.patient_name else s.patient_name end,
        patient_id = case when s.patient_id = '' then excluded.patient_id else s.patient_id end,
        patient_sex = case when s.patient_sex = '' then excluded.patient_sex else s.patient_sex end,
        patient_age = case when s.patient_age = '' then excluded.patient_age else s.patient_age end,
        patient_birth_date = case when s.patient_birth_date = '' then excluded.patient_birth_date
          else s.patient_birth_date end,
        study_date = case when s.study_date = '' then excluded.study_date else s.study_date end,
        study_time = case when s.study_time = '' then excluded.study_time else s.study_time end,
        study_description = case when s.study_description = '' then excluded.study_description
          else s.study_description end,
        accession_number = case when s.accession_number = '' then excluded.accession_number
          else s.accession_number end,
        study_identifier = case when s.study_identifier = '' then excluded.study_identifier
          else s.study_identifier end,
        institution_name = case when s.institution_name = '' then excluded.institution_name
          else s.institution_name end,
        referring_physician_name = case when s.referring_physician_name = ''
          then excluded.referring_physician_name else s.referring_physician_name end,
        modalities = array(select distinct m from unnest(s.modalities || excluded.modalities) as m
          where m <> '' order by m),
        last_instance_at = excluded.last_instance_at
      returning s.id`),
  );
  const studyId = studyRows[0]?.id;
  if (studyId === undefined) throw new Error('study upsert returned no row');

  const seriesUid = parsed.seriesInstanceUid;
  const frames = input.frames ? JSON.stringify(input.frames) : null;
  const eventDetail = JSON.stringify({ source: opts.source, studyInstanceUid: parsed.studyInstanceUid });
  const [row] = rowsOf<{ duplicate: boolean; report_status_id: number | null; written: number }>(
    await tx.execute(sql`
      with prev as (
        select i.id, i.series_id, i.size_bytes, ps.series_instance_uid as series_uid
          from instances i join series ps on ps.id = i.series_id
         where i.study_id = ${studyId} and i.sop_instance_uid = ${parsed.sopInstanceUid}
      ),
      se as (
        insert into series as x (study_id, series_instance_uid, modality, series_description,
          series_number, body_part_examined, instance_count)
        select ${studyId}, ${seriesUid}, ${modality}, ${text(parsed.index.seriesDescription)},
          ${int32(parsed.index.seriesNumber)}::integer, ${text(parsed.index.bodyPartExamined)},
          case when exists (select 1 from prev where prev.series_uid = ${seriesUid}) then 0 else 1 end
        on conflict (study_id, series_instance_uid) do update set
          modality = case when x.modality = '' then excluded.modality else x.modality end,
          series_description = case when x.series_description = '' then excluded.series_description
            else x.series_description end,
          series_number = coalesce(x.series_number, excluded.series_number),
          instance_count = x.instance_count + excluded.instance_count
        returning x.id, (x.xmax = 0) as inserted
      ),
      moved_from as (
        update series set instance_count = series.instance_count - 1
          from prev where series.id = prev.series_id and prev.series_uid <> ${seriesUid}
        returning series.id
      ),
      ins as (
        insert into instances as i (study_id, series_id, sop_instance_uid, sop_class_uid,
          transfer_syntax_uid, instance_number, number_of_frames, rows, columns, blob_key, size_bytes,
          sha256, metadata, frames, source, calling_aet, received_at)
        select ${studyId}, se.id, ${parsed.sopInstanceUid}, ${parsed.sopClassUid},
          ${parsed.transferSyntaxUid}, ${int32(parsed.index.instanceNumber)}::integer,
          ${int32(parsed.index.numberOfFrames) ?? 1}::integer, ${int32(parsed.index.rows)}::integer,
          ${int32(parsed.index.columns)}::integer, ${input.key}, ${input.sizeBytes}::bigint,
          ${input.sha256}, ${input.metadata}::json, ${frames}::jsonb, ${opts.source},
          ${opts.callingAet ?? null}::text, ${at}::timestamptz
          from se
        on conflict (study_id, sop_instance_uid) do update set
          series_id = excluded.series_id, sop_class_uid = excluded.sop_class_uid,
          transfer_syntax_uid = excluded.transfer_syntax_uid,
          instance_number = excluded.instance_number, number_of_frames = excluded.number_of_frames,
          rows = excluded.rows, columns = excluded.columns, blob_key = excluded.blob_key,
          size_bytes = excluded.size_bytes, sha256 = excluded.sha256, metadata = excluded.metadata,
          frames = excluded.frames, source = excluded.source, calling_aet = excluded.calling_aet,
          received_at = excluded.received_at
        returning i.id
      ),
      counts as (
        update studies set
          instance_count = studies.instance_count
            + case when exists (select 1 from prev) then 0 else 1 end,
          series_count = studies.series_count
            + coalesce((select case when se.inserted then 1 else 0 end from se), 0),
          size_bytes = studies.size_bytes + ${input.sizeBytes}::bigint
            - coalesce((select prev.size_bytes from prev), 0)
         where studies.id = ${studyId}
        returning studies.id
      ),
      existing as (
        select r.id from report_statuses r where r.study_id = ${studyId} order by r.id limit 1
      ),
      created as (
        insert into report_statuses (study_id, group_id, center_id, status, study_name, patient_name,
          patient_id, patient_sex, patient_age, referring_physician_name, accession_number)
        select ${studyId}, ${groupId}, ${centerId}, 'CREATED', ${text(parsed.index.studyDescription)},
          ${f.patientName}, ${f.patientId}, ${f.patientSex}, ${f.patientAge},
          ${f.referringPhysicianName}, ${f.accessionNumber}
         where not exists (select 1 from existing)
        returning id
      ),
      event as (
        insert into study_events (report_status_id, event_type, actor_user_id, actor_label, to_status,
          detail)
        select created.id, 'STUDY_CREATED', ${opts.actorUserId ?? null}::integer,
          ${opts.actorUserId ? null : (opts.callingAet ?? opts.source)}::text, 'CREATED',
          ${eventDetail}::jsonb
          from created
        returning id
      )
      select exists (select 1 from prev) as duplicate,
        coalesce((select id from existing), (select id from created)) as report_status_id,
        (select count(*) from ins)::integer + (select count(*) from counts)::integer as written`),
  );
  // moved_from and event run whether or not the final select reads them (data-modifying CTEs).
  if (!row || row.report_status_id === null || Number(row.written) !== 2)
    throw new Error('the instance index write returned no row');
  return {
    ok: true,
    duplicate: row.duplicate,
    sopInstanceUid: parsed.sopInstanceUid,
    sopClassUid: parsed.sopClassUid,
    studyInstanceUid: parsed.studyInstanceUid,
    seriesInstanceUid: parsed.seriesInstanceUid,
    studyId: Number(studyId),
    reportStatusId: Number(row.report_status_id),
  };
}

async function indexInstance(tx: Tx, now: Date, input: IndexInput): Promise<IngestResult> {
  const { parsed, groupId, centerId, opts } = input;
  const fields = studyFields(parsed);
  const modality = text(parsed.index.modality);

  const [study] = await tx
    .insert(studies)
    .values({
      groupId,
      centerId,
      studyInstanceUid: parsed.studyInstanceUid,
      ...fields,
      modalities: modality ? [modality] : [],
      lastInstanceAt: now,
    })
    .onConflictDoUpdate({
      target: [studies.groupId, studies.studyInstanceUid],
      set: {
        patientName: fillEmpty('patient_name'),
        patientId: fillEmpty('patient_id'),
        patientSex: fillEmpty('patient_sex'),
        patientAge: fillEmpty('patient_age'),
        patientBirthDate: fillEmpty('patient_birth_date'),
        studyDate: fillEmpty('study_date'),
        studyTime: fillEmpty('study_time'),
        studyDescription: fillEmpty('study_description'),
        accessionNumber: fillEmpty('accession_number'),
        studyIdentifier: fillEmpty('study_identifier'),
        institutionName: fillEmpty('institution_name'),
        referringPhysicianName: fillEmpty('referring_physician_name'),
        modalities: sql.raw(
          `array(select distinct m from unnest(studies.modalities || excluded.modalities) as m where m <> '' order by m)`,
        ),
        lastInstanceAt: sql.raw('excluded.last_instance_at'),
      },
    })
    .returning({ id: studies.id, instanceCount: studies.instanceCount });
  if (!study) throw new Error('study upsert returned no row');

  const [seriesRow] = await tx
    .insert(series)
    .values({
      studyId: study.id,
      seriesInstanceUid: parsed.seriesInstanceUid,
      modality,
      seriesDescription: text(parsed.index.seriesDescription),
      seriesNumber: int32(parsed.index.seriesNumber),
      bodyPartExamined: text(parsed.index.bodyPartExamined),
    })
    .onConflictDoUpdate({
      target: [series.studyId, series.seriesInstanceUid],
      set: {
        modality: sql.raw(`case when series.modality = '' then excluded.modality else series.modality end`),
        seriesDescription: sql.raw(
          `case when series.series_description = '' then excluded.series_description else series.series_description end`,
        ),
        seriesNumber: sql.raw('coalesce(series.series_number, excluded.series_number)'),
      },
    })
    .returning({ id: series.id, isNew: sql<boolean>`(xmax = 0)` });
  if (!seriesRow) throw new Error('series upsert returned no row');

  // The study row is locked by the upsert above: no other ingest of this study runs between here and commit.
  const [previous] = await tx
    .select({ id: instances.id, seriesId: instances.seriesId, sizeBytes: instances.sizeBytes })
    .from(instances)
    .where(and(eq(instances.studyId, study.id), eq(instances.sopInstanceUid, parsed.sopInstanceUid)));

  const row = {
    studyId: study.id,
    seriesId: seriesRow.id,
    sopInstanceUid: parsed.sopInstanceUid,
    sopClassUid: parsed.sopClassUid,
    transferSyntaxUid: parsed.transferSyntaxUid,
    instanceNumber: int32(parsed.index.instanceNumber),
    numberOfFrames: int32(parsed.index.numberOfFrames) ?? 1,
    rows: int32(parsed.index.rows),
    columns: int32(parsed.index.columns),
    blobKey: input.key,
    sizeBytes: input.sizeBytes,
    sha256: input.sha256,
    metadata: JSON.parse(input.metadata) as unknown,
    frames: input.frames,
    source: opts.source,
    callingAet: opts.callingAet ?? null,
    receivedAt: now,
  };
  if (previous) {
    await tx.update(instances).set(row).where(eq(instances.id, previous.id));
    if (previous.seriesId !== seriesRow.id) {
      await tx
        .update(series)
        .set({ instanceCount: sql`${series.instanceCount} - 1` })
        .where(eq(series.id, previous.seriesId));
      await tx
        .update(series)
        .set({ instanceCount: sql`${series.instanceCount} + 1` })
        .where(eq(series.id, seriesRow.id));
    }
  } else {
    await tx.insert(instances).values(row);
    await tx
      .update(series)
      .set({ instanceCount: sql`${series.instanceCount} + 1` })
      .where(eq(series.id, seriesRow.id));
  }
  await tx
    .update(studies)
    .set({
      instanceCount: sql`${studies.instanceCount} + ${previous ? 0 : 1}`,
      seriesCount: sql`${studies.seriesCount} + ${seriesRow.isNew ? 1 : 0}`,
      sizeBytes: sql`${studies.sizeBytes} + ${input.sizeBytes - (previous?.sizeBytes ?? 0)}`,
    })
    .where(eq(studies.id, study.id));

  const reportStatusId = await reportRowFor(tx, { ...input, studyId: study.id });
  return {
    ok: true,
    duplicate: previous !== undefined,
    sopInstanceUid: parsed.sopInstanceUid,
    sopClassUid: parsed.sopClassUid,
    studyInstanceUid: parsed.studyInstanceUid,
    seriesInstanceUid: parsed.seriesInstanceUid,
    studyId: study.id,
    reportStatusId,
  };
}

/**
 * The report-status row the instance belongs to: the one asked for (repointed to this study when
 * it held a study without images, e.g. one created from the website), else the study's first row,
 * else a new one (status CREATED) with its STUDY_CREATED event.
 */
async function reportRowFor(tx: Tx, input: IndexInput & { studyId: number }): Promise<number> {
  const { opts, parsed, studyId } = input;
  if (opts.reportStatusId != null) {
    const [row] = await tx
      .select({
        id: reportStatuses.id,
        groupId: reportStatuses.groupId,
        studyId: reportStatuses.studyId,
        studyUid: studies.studyInstanceUid,
        instanceCount: studies.instanceCount,
      })
      .from(reportStatuses)
      .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
      .where(eq(reportStatuses.id, opts.reportStatusId))
      .for('update', { of: reportStatuses });
    const refusal = attachRefusal(row, opts.reportStatusId, input.groupId, parsed);
    if (refusal || !row) throw new IngestRefusal(refusal ?? fail('REFUSED', 'No such report', parsed));
    if (row.studyId !== studyId) {
      await tx
        .update(reportStatuses)
        .set({ studyId, updatedAt: sql`now()` })
        .where(eq(reportStatuses.id, row.id));
      await tx.insert(studyEvents).values({
        reportStatusId: row.id,
        eventType: 'IMAGES_ATTACHED',
        actorUserId: opts.actorUserId ?? null,
        actorLabel: opts.callingAet ?? null,
        detail: { fromStudyId: row.studyId, toStudyId: studyId, studyInstanceUid: parsed.studyInstanceUid },
      });
      // The imageless study it held is now referenced by nothing: drop it.
      await tx.execute(
        sql`delete from studies s where s.id = ${row.studyId} and s.instance_count = 0
            and not exists (select 1 from report_statuses r where r.study_id = s.id)`,
      );
    }
    return row.id;
  }

  const [existing] = await tx
    .select({ id: reportStatuses.id })
    .from(reportStatuses)
    .where(eq(reportStatuses.studyId, studyId))
    .orderBy(asc(reportStatuses.id))
    .limit(1);
  if (existing) return existing.id;

  const [created] = await tx
    .insert(reportStatuses)
    .values({
      studyId,
      groupId: input.groupId,
      centerId: input.centerId,
      status: 'CREATED',
      studyName: text(parsed.index.studyDescription),
      ...reportPatientFields(studyFields(parsed)),
    })
    .returning({ id: reportStatuses.id });
  if (!created) throw new Error('report-status insert returned no row');
  await tx.insert(studyEvents).values({
    reportStatusId: created.id,
    eventType: 'STUDY_CREATED',
    actorUserId: opts.actorUserId ?? null,
    actorLabel: opts.actorUserId ? null : (opts.callingAet ?? opts.source),
    toStatus: 'CREATED',
    detail: { source: opts.source, studyInstanceUid: parsed.studyInstanceUid },
  });
  return created.id;
}
