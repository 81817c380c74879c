import { readFileSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { patientAgeOf } from '@radflow/dicom/ingest';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { instanceIndexOf } from '../../db/client.js';
import { centers, reportStatuses, studies } from '../../db/schema.js';
import { instanceBlobKey } from './dicom-keys.js';
import { BlobNotDurable, type IndexRow, indexWriterOf } from './index-writer.js';
import { phaseClock } from './ingest-phases.js';
import { type Admission, journalIndexerOf } from './journal-indexer.js';
import { ingestPool, ingestWorkersFor } from './ingest-pool.js';
import { ingestsInFlight } from './ingests-in-flight.js';
import {
  type Digest,
  type IngestFailure,
  type PreparedInstance,
  digest,
  fail,
  parseForIngest,
  withoutNul,
} from './ingest-prepare.js';

/**
 * Ingest of one DICOM instance, whichever way it came in (STOW-RS, C-STORE, browser upload, router).
 *
 * Order of writes, and what a crash leaves:
 * 1. the bytes go to the blob store under a name of their own (dicom-keys.ts: group, study UID,
 *    SOP UID and a random part), by a hard link that never replaces a name: a stored file is never
 *    touched by a later copy, whoever sends it;
 * 2. one transaction upserts study, series and instance rows, the counts, and for a study new to
 *    the group its report-status row and STUDY_CREATED event. Its statements may run while the blob
 *    is being synced; it commits only once the blob is durable (index-writer.ts), together with
 *    the other instances that arrived meanwhile, and only then is the instance acknowledged.
 * With INGEST_ACK=journal (journal-indexer.ts), step 2 for a new C-STORE or STOW-RS instance is a
 * journal record synced beside the blob; the answer follows both, and the index within a second
 * (replayed on start after a crash). What the index will decide is decided before that answer.
 * A crash before the commit leaves at most an orphan blob (no index row points at it): never a
 * visible half instance. The orphan sweep (orphan-sweep.ts) deletes blobs under `dicom/` older
 * than a day that no `instances.blob_key` names.
 *
 * Ownership (DECISIONS.md "instance ownership"): the index write decides whether the copy becomes
 * the instance. A study belongs to the center that first stored it: another center's instance of
 * it is refused (FOREIGN_STUDY) and audited; a SOP instance already stored keeps its first copy
 * (`duplicate`, and `keptFirst` when the bytes differ). A copy not taken is deleted at once.
 *
 * Concurrency: the study upsert (ON CONFLICT on group + Study Instance UID) locks the study row for
 * the rest of the transaction, so ingests of one study are serialised there: counts are incremented
 * only when a row is new, and a new study gets exactly one report-status row. Each instance is two
 * statements (db/instance-index.ts): the upsert, then everything else in one, whose snapshot is taken
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
  /**
   * The caller's answer needs no index row (C-STORE, STOW-RS): with the ingest journal
   * (INGEST_ACK=journal) the instance is acknowledged once its blob and journal record are
   * durable, and indexed within a second (journal-indexer.ts). The result then has no row ids.
   */
  acknowledgeDurable?: boolean;
}

export type { IngestFailureCode } from './ingest-prepare.js';

/**
 * The answers of the ownership rule (DECISIONS.md "instance ownership"). Short enough for a
 * C-STORE Error Comment (64 characters), and naming no other center.
 */
export const FOREIGN_STUDY_REASON = 'The study belongs to another center: instance not stored';
export const KEPT_FIRST_REASON = 'Already stored with other content: first version kept';
export const joinedReason = (reportStatusId: number) =>
  `Joined the existing study (row ${reportStatusId}): its details were kept`;

/** An instance taken: durable, and indexed or about to be (IngestOptions.acknowledgeDurable). */
export interface IngestAcknowledged {
  ok: true;
  /** The SOP instance was stored already: nothing changed. */
  duplicate: boolean;
  /** ... with other bytes than these, which were not taken (the answer says so: KEPT_FIRST_REASON). */
  keptFirst: boolean;
  sopInstanceUid: string;
  sopClassUid: string;
  studyInstanceUid: string;
  seriesInstanceUid: string;
}

export type IngestAckResult = IngestAcknowledged | IngestFailure;

export type IngestResult =
  | (IngestAcknowledged & {
      /**
       * The files were sent for another row (Create Study's new row) but their study has a row
       * already: they joined that one (DECISIONS.md "one row per study"); JOINED_REASON says so.
       */
      joinedExisting?: boolean;
      studyId: number;
      reportStatusId: number;
    })
  | IngestFailure;

const text = (value: string | null | undefined) => withoutNul(value ?? '').trim();
const int32 = (value: number | null | undefined) =>
  value !== null && value !== undefined && Number.isInteger(value) && Math.abs(value) <= 2 ** 31 - 1
    ? value
    : null;

/** The worklist fields an instance brings to its study (spec-core §3 study row). */
function studyFields(parsed: PreparedInstance) {
  const index = parsed.index;
  const age = patientAgeOf(index) ?? '';
  return {
    patientName: text(index.patientName),
    patientId: text(index.patientId),
    issuerOfPatientId: text(index.issuerOfPatientId),
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

/** Files up to this size are read in one blocking call: one syscall instead of four thread-pool hops. */
const SYNC_READ_MAX_BYTES = 4 * 2 ** 20;

/**
 * A received file, whole. A C-STORE association waits for each instance's answer, so its latency
 * is the throughput: a page-cached 0.5 MB slice is read faster in place than through the pool.
 */
async function readWhole(filePath: string): Promise<Uint8Array> {
  if (statSync(filePath).size <= SYNC_READ_MAX_BYTES) return readFileSync(filePath);
  return fs.readFile(filePath);
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

const workersByDb = new WeakMap<AppContext['db'], boolean>();
function workersFor(ctx: AppContext): boolean {
  let use = workersByDb.get(ctx.db);
  if (use === undefined)
    workersByDb.set(ctx.db, (use = ingestWorkersFor(instanceIndexOf(ctx.db).ingestWorkersByDefault)));
  return use;
}

/**
 * Whether the C-STORE SCP should hash an instance on this thread as its bytes arrive (they then
 * overlap the wait for the network): yes unless the ingest workers would do it off this thread,
 * i.e. when other ingests are under way on a database that uses them.
 */
export function hashWhileReceiving(ctx: AppContext): boolean {
  return ingestsInFlight.count === 0 || !workersFor(ctx);
}

/** An instance parsed, and its bytes when this thread has them; the digest when already made. */
interface Prepared {
  prepared: PreparedInstance;
  bytes?: Uint8Array;
  digest?: Digest;
  /** Inline only: hashes and converts (after the blob write started, so the sync overlaps it). */
  makeDigest?: () => Digest;
}

/**
 * Parse, hash and convert, in an ingest worker when another ingest is under way (then this thread
 * is what limits: ARCHIVE.md "ingest workers"), else here. A worker reads a received file itself.
 */
async function prepare(
  ctx: AppContext,
  input: IngestInput,
  opts: IngestOptions,
): Promise<Prepared | IngestFailure> {
  const clock = phaseClock;
  let mark = clock ? performance.now() : 0;
  let offThread: ReturnType<typeof ingestPool.prepare> = null;
  if (workersFor(ctx)) {
    offThread =
      ingestsInFlight.count > 1
        ? ingestPool.prepare({
            ...(input.bytes ? { bytes: input.bytes } : { filePath: input.filePath! }),
            ...(input.sha256 ? { sha256: input.sha256 } : {}),
            requireStudyInstanceUid: opts.requireStudyInstanceUid ?? null,
          })
        : (ingestPool.warm(), null);
  }
  if (offThread) {
    try {
      const answer = await offThread;
      clock?.add('worker', performance.now() - mark);
      const { preparation } = answer;
      if ('ok' in preparation) return preparation;
      return {
        prepared: preparation.prepared,
        digest: preparation.digest,
        bytes: answer.bytes ?? input.bytes,
      };
    } catch (error) {
      // A worker died with the request: shared bytes and a file are still here, transferred
      // bytes are gone.
      const bytesKept = input.bytes?.buffer instanceof SharedArrayBuffer;
      if (!bytesKept && input.filePath === undefined)
        return fail('STORAGE', `The instance could not be prepared: ${(error as Error).message}`);
      if (!bytesKept) input = { filePath: input.filePath };
    }
  }
  let bytes: Uint8Array;
  try {
    // A file's bytes may come along (the SCP received them in memory): then it is not read back.
    bytes = input.bytes ?? (await readWhole(input.filePath!));
  } catch (error) {
    return fail('STORAGE', `The received file cannot be read: ${(error as Error).message}`);
  }
  if (clock) {
    clock.add('read', performance.now() - mark);
    mark = performance.now();
  }
  const parsed = parseForIngest(bytes);
  clock?.add('parse', performance.now() - mark);
  if ('ok' in parsed) return parsed;
  return { prepared: parsed.prepared, bytes, makeDigest: () => digest(parsed.parsed, bytes, input.sha256) };
}

/**
 * Stores one instance byte-for-byte and indexes it for `opts.centerId`'s group. Never throws for
 * bad input: a file that is not usable DICOM, or that may not go where asked, is `ok: false` with
 * a reason. A file under `ctx.blobs.tempDir()` is moved into the store (it is ours); any other file
 * is copied and left in place. Bytes handed in may be transferred to an ingest worker: the caller
 * must not use them afterwards.
 */
type IngestInputArg =
  | { filePath: string; bytes?: Uint8Array; sha256?: string }
  | { bytes: Uint8Array; filePath?: undefined; sha256?: string };
export async function ingestInstance(
  ctx: AppContext,
  input: IngestInputArg,
  opts: IngestOptions & { acknowledgeDurable: true },
): Promise<IngestAckResult>;
export async function ingestInstance(
  ctx: AppContext,
  input: IngestInputArg,
  opts: IngestOptions & { acknowledgeDurable?: false },
): Promise<IngestResult>;
export async function ingestInstance(
  ctx: AppContext,
  input: IngestInputArg,
  opts: IngestOptions,
): Promise<IngestResult | IngestAckResult> {
  ingestsInFlight.enter();
  try {
    return await ingestPrepared(ctx, input, opts);
  } finally {
    ingestsInFlight.leave();
  }
}

/**
 * `sha256`, when given, is the hash of the instance's bytes (`bytes`, or the file's): the C-STORE
 * SCP makes it as they arrive.
 */
interface IngestInput {
  filePath?: string;
  bytes?: Uint8Array;
  sha256?: string;
}

async function ingestPrepared(
  ctx: AppContext,
  input: IngestInput,
  opts: IngestOptions,
): Promise<IngestResult | IngestAckResult> {
  const clock = phaseClock;
  const started = clock ? performance.now() : 0;
  const preparation = await prepare(ctx, input, opts);
  if ('ok' in preparation) return preparation;
  const { prepared } = preparation;
  if (opts.requireStudyInstanceUid && prepared.studyInstanceUid !== opts.requireStudyInstanceUid) {
    return fail(
      'REFUSED',
      `The instance is of study ${prepared.studyInstanceUid}, not of ${opts.requireStudyInstanceUid}`,
      prepared,
    );
  }
  // A data set the worker could not convert is refused before anything is written.
  if (preparation.digest && 'ok' in preparation.digest) return preparation.digest;

  const center = await centerOf(ctx, opts.centerId);
  if (!center) return fail('REFUSED', `Center ${opts.centerId} does not exist`, prepared);

  // The upload-study action: check before storing anything that the files may join that report.
  if (opts.reportStatusId != null) {
    const refusal = await checkAttachTarget(ctx, opts.reportStatusId, center.groupId, prepared);
    if (refusal) return refusal;
  }

  const key = instanceBlobKey(center.groupId, prepared.studyInstanceUid, prepared.sopInstanceUid);
  let mark = clock ? performance.now() : 0;
  const lap = (phase: Parameters<NonNullable<typeof clock>['add']>[0]) => {
    if (!clock) return;
    const now = performance.now();
    clock.add(phase, now - mark);
    mark = now;
  };
  let made: Digest;
  /** Settles when the blob is durable; the index commit waits for it, its statements do not. */
  let durable: Promise<unknown>;
  try {
    const isOurTemp =
      input.filePath !== undefined &&
      path.resolve(path.dirname(input.filePath)) === path.resolve(ctx.blobs.tempDir());
    // Bytes alone (the SCP received the instance in memory and wrote no file): the store writes
    // them itself, the same way as a moved file.
    const putBytes = input.filePath === undefined ? ctx.blobs.putBytes?.bind(ctx.blobs) : undefined;
    if (isOurTemp || (putBytes && preparation.bytes)) {
      // The syncs (file, directory) run in the thread pool while this thread hashes and converts
      // (a lone ingest), and while the index statements run: only the commit waits for them.
      durable = isOurTemp ? ctx.blobs.putFile(key, input.filePath!) : putBytes!(key, preparation.bytes!);
      durable.catch(() => undefined);
      if (clock) {
        const writeStarted = mark;
        void durable.then(
          () => clock.add('blobDurable', performance.now() - writeStarted),
          () => undefined,
        );
      }
      lap('blobWrite');
      made = preparation.digest ?? preparation.makeDigest!();
      // The parsed data set (hundreds of small objects) is not needed past here: let it die young
      // instead of surviving into the old generation while the commit is awaited.
      preparation.makeDigest = undefined;
      lap('digest');
      if ('ok' in made) await durable;
    } else {
      made = preparation.digest ?? preparation.makeDigest!();
      preparation.makeDigest = undefined;
      if (!('ok' in made)) {
        // put hashes what it writes; the file (not one of ours) is copied, never moved.
        const body = preparation.bytes ?? (await readWhole(input.filePath!));
        ({ sha256: made.sha256 } = await ctx.blobs.put(key, body));
      }
      durable = Promise.resolve();
    }
  } catch (error) {
    return fail('STORAGE', `The instance could not be stored: ${(error as Error).message}`, prepared);
  }
  if ('ok' in made) return made;

  const index: IndexInput = {
    parsed: prepared,
    groupId: center.groupId,
    centerId: center.id,
    key,
    sizeBytes: prepared.sizeBytes,
    sha256: made.sha256,
    metadata: made.metadata,
    frames: prepared.frames,
    opts,
  };
  const row = indexRow(ctx.now(), index);
  const journal = journalIndexerOf(ctx.db);
  // With the journal: what the index will do is decided now (while the blob is synced), and a
  // new instance is answered once its record is durable too (journal-indexer.ts).
  let admission: Admission | undefined;
  let handedToJournal = false;
  try {
    admission = journal ? await journal.admit(row) : undefined;
    if (journal && admission?.journal && opts.acknowledgeDurable) {
      // The record is synced while the blob is: one disk wait for both (replay checks the blob).
      try {
        await journal.append(row, admission, durable);
      } catch (error) {
        return fail('STORAGE', `The instance could not be stored: ${(error as Error).message}`, prepared);
      }
      handedToJournal = true;
      if (clock) {
        clock.add('total', performance.now() - started);
        clock.done();
      }
      return {
        ok: true,
        duplicate: false,
        keptFirst: false,
        sopInstanceUid: prepared.sopInstanceUid,
        sopClassUid: prepared.sopClassUid,
        studyInstanceUid: prepared.studyInstanceUid,
        seriesInstanceUid: prepared.seriesInstanceUid,
      };
    }
    // Committed once the blob is durable, together with what else arrived meanwhile.
    const written = await indexWriterOf(ctx).write(row, durable);
    if (clock) {
      clock.add('total', performance.now() - started);
      clock.done();
    }
    if (written.disposition !== 'STORED') dropCopy(ctx, key);
    if (written.disposition === 'NO_SUCH_REPORT' || written.disposition === 'OTHER_STUDY')
      return attachRefused(written.disposition, opts.reportStatusId!, prepared);
    if (written.disposition === 'FOREIGN' || written.reportStatusId === null || written.studyId === null)
      return fail('FOREIGN_STUDY', FOREIGN_STUDY_REASON, prepared);
    return {
      ok: true,
      duplicate: written.disposition !== 'STORED',
      keptFirst: written.disposition === 'KEPT_FIRST',
      ...(opts.reportStatusId != null ? { joinedExisting: written.joinedExisting } : {}),
      sopInstanceUid: prepared.sopInstanceUid,
      sopClassUid: prepared.sopClassUid,
      studyInstanceUid: prepared.studyInstanceUid,
      seriesInstanceUid: prepared.seriesInstanceUid,
      studyId: written.studyId,
      reportStatusId: written.reportStatusId,
    };
  } catch (error) {
    if (error instanceof BlobNotDurable)
      return fail('STORAGE', `The instance could not be stored: ${error.message}`, prepared);
    return fail('STORAGE', `The instance could not be indexed: ${(error as Error).message}`, prepared);
  } finally {
    if (!handedToJournal) admission?.release();
  }
}

/**
 * A copy the index did not take (a re-send, a refusal) is deleted; should that fail, the orphan
 * sweep takes it a day later. Its name is its own (dicom-keys.ts), so nothing else is touched.
 */
function dropCopy(ctx: AppContext, key: string): void {
  void ctx.blobs.delete(key).catch(() => undefined);
}

/**
 * The upload-study action, before anything is stored: may the file join that report row (of the
 * group; its study is the file's, or has no images yet)? The index checks it again under the
 * row's lock.
 */
async function checkAttachTarget(
  ctx: AppContext,
  reportStatusId: number,
  groupId: number,
  parsed: PreparedInstance,
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
  if (!row || row.groupId !== groupId) return attachRefused('NO_SUCH_REPORT', reportStatusId, parsed);
  if (row.studyUid !== parsed.studyInstanceUid && row.instanceCount > 0)
    return attachRefused('OTHER_STUDY', reportStatusId, parsed);
  return null;
}

function attachRefused(
  reason: 'NO_SUCH_REPORT' | 'OTHER_STUDY',
  reportStatusId: number,
  parsed: PreparedInstance,
): IngestFailure {
  return reason === 'NO_SUCH_REPORT'
    ? fail('REFUSED', `Report ${reportStatusId} does not exist`, parsed)
    : fail(
        'REFUSED',
        `The file belongs to study ${parsed.studyInstanceUid}, not to the study of report ${reportStatusId}`,
        parsed,
      );
}

interface IndexInput {
  parsed: PreparedInstance;
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

/** The plain values the index binds to its statements. */
function indexRow(now: Date, input: IndexInput): IndexRow {
  const { parsed, opts } = input;
  const index = parsed.index;
  const study = studyFields(parsed);
  return {
    groupId: input.groupId,
    centerId: input.centerId,
    studyInstanceUid: withoutNul(parsed.studyInstanceUid),
    seriesInstanceUid: withoutNul(parsed.seriesInstanceUid),
    sopInstanceUid: withoutNul(parsed.sopInstanceUid),
    sopClassUid: withoutNul(parsed.sopClassUid),
    transferSyntaxUid: withoutNul(parsed.transferSyntaxUid),
    study,
    modality: text(index.modality),
    seriesDescription: text(index.seriesDescription),
    seriesNumber: int32(index.seriesNumber),
    bodyPartExamined: text(index.bodyPartExamined),
    instanceNumber: int32(index.instanceNumber),
    numberOfFrames: int32(index.numberOfFrames) ?? 1,
    rows: int32(index.rows),
    columns: int32(index.columns),
    blobKey: input.key,
    sizeBytes: input.sizeBytes,
    sha256: input.sha256,
    metadata: input.metadata,
    frames: input.frames,
    source: opts.source,
    callingAet: opts.callingAet ?? null,
    actorUserId: opts.actorUserId ?? null,
    receivedAt: now,
    reportStatusId: opts.reportStatusId ?? null,
  };
}
