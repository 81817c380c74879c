/**
 * The router's durable queue (issue 27 §1): every instance the router accepts — from a modality by
 * C-STORE, or from the browser by upload-file / upload-zip — is a file in the spool and a record in
 * the journal before it is acknowledged; it is marked sent only when the cloud confirmed it. The
 * local API (pending cases, retry, delete uploaded study, `/events`) reads and drives it through
 * this class. Crash-consistency argument: ROUTER.md § "Crash consistency".
 *
 * Layout under `<dataDir>/spool`:
 *   objects/<key>.dcm  one file per instance, key = sha256(SOP Instance UID) (first 32 hex digits)
 *   tmp/               files being written (removed at start-up)
 *   journal.log        append-only records (journal.ts): Q queued, S sent, E error, R retry, D deleted
 */
import { createHash, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdir, readdir, readFile, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { parseInstance, patientAgeOf } from '@radflow/dicom/ingest';
import { moveFileDurably, writeFileDurably } from './fs-durable.js';
import { Journal } from './journal.js';

/** Where an instance came from. */
export type TQueueSource = 'dimse' | 'upload';

/** One instance of a pending upload case (spec-core §3 'Pending upload case': instances with a sent flag). */
export interface TPendingInstance {
  readonly sopInstanceUid: string;
  readonly seriesInstanceUid: string;
  readonly sent: boolean;
  /** The last failure's reason while not sent (a transient one is retried by itself). */
  readonly error?: string;
}

/**
 * A study's upload state: QUEUED (waiting its turn or the upload hours), UPLOADING (a batch in
 * flight), WAITING (a transient failure, retried at `retryAt`), FAILED (the cloud refused an
 * instance: held until a retry), DONE (every instance confirmed).
 */
export type TStudyUploadState = 'QUEUED' | 'UPLOADING' | 'WAITING' | 'FAILED' | 'DONE';

/** spec-core §3 'Pending upload case': instances, total, sent — with what the screen shows of the study. */
export interface TPendingCase {
  readonly studyInstanceUid: string;
  readonly patientName: string | null;
  readonly patientId: string | null;
  readonly patientSex: string | null;
  /** Patient's Age as DICOM writes it (AS: '045Y'), carried or computed from the birth date. */
  readonly patientAge: string | null;
  readonly modality: string | null;
  readonly studyDate: string | null;
  readonly studyDescription: string | null;
  readonly urgent: boolean;
  /** ISO time the first instance was queued. */
  readonly queuedAt: string;
  readonly state: TStudyUploadState;
  readonly instances: readonly TPendingInstance[];
  readonly total: number;
  readonly sent: number;
}

export interface TStudyProgress {
  readonly studyInstanceUid: string;
  readonly state: TStudyUploadState;
  readonly total: number;
  readonly sent: number;
  readonly failed: number;
  readonly bytesTotal: number;
  readonly bytesSent: number;
  /** ISO time of the next automatic attempt while WAITING. */
  readonly retryAt?: string;
}

export interface TQueueError {
  readonly studyInstanceUid: string;
  readonly sopInstanceUid: string;
  readonly reason: string;
  /** ISO time of the failure. */
  readonly at: string;
  /** true: the cloud refused it; held until `retryStudy`. false: a transient failure, retried by itself. */
  readonly permanent: boolean;
}

export type TEnqueueResult =
  | { readonly status: 'queued'; readonly sopInstanceUid: string; readonly studyInstanceUid: string }
  /** The same SOP Instance UID is already in the queue (the first copy wins, like the cloud's ingest). */
  | { readonly status: 'duplicate'; readonly sopInstanceUid: string; readonly studyInstanceUid: string }
  /** Not accepted; `reason` says why (not DICOM, disk quota full). */
  | { readonly status: 'refused'; readonly reason: string; readonly quotaFull: boolean };

export interface TDiskUsage {
  readonly usedBytes: number;
  readonly quotaBytes: number;
  /** Past the alarm threshold: the center is warned before the disk fills. */
  readonly alarm: boolean;
  /**
   * At the quota, or an instance was refused for lack of room since room was last freed: new
   * associations and files are refused.
   */
  readonly full: boolean;
}

/** The events the local API's `/events` stream forwards. */
export interface TQueueEvents {
  'instance-queued': [{ studyInstanceUid: string; sopInstanceUid: string; source: TQueueSource }];
  'instance-sent': [{ studyInstanceUid: string; sopInstanceUid: string }];
  'instance-failed': [
    { studyInstanceUid: string; sopInstanceUid: string; reason: string; permanent: boolean },
  ];
  'study-done': [{ studyInstanceUid: string; total: number }];
  'disk-alarm': [TDiskUsage];
  /** A study's held instances were released (`retryStudy`): the uploader wakes up. */
  'study-retry': [{ studyInstanceUid: string }];
}

export interface TQueueOptions {
  /** The router's data directory; the spool is `<dataDir>/spool`. */
  readonly dataDir: string;
  /** Disk quota for the spool in bytes (0: no quota). */
  readonly quotaBytes?: number;
  /** Fraction of the quota at which `disk-alarm` is raised (default 0.9). */
  readonly alarmRatio?: number;
  /** Decides urgency from the instance's header and the AE it came from (default: the priority tags). */
  readonly isUrgent?: (header: TInstanceHeader) => boolean;
}

/** What the queue reads from an instance's header. */
export interface TInstanceHeader {
  readonly sopInstanceUid: string;
  readonly studyInstanceUid: string;
  readonly seriesInstanceUid: string;
  readonly patientName: string | null;
  readonly patientId: string | null;
  readonly patientSex: string | null;
  readonly patientAge: string | null;
  readonly modality: string | null;
  readonly studyDate: string | null;
  readonly studyDescription: string | null;
  /** Requested Procedure Priority (0040,1003) or Scheduled Procedure Step Priority (0040,0009) read from the header. */
  readonly priority: string | null;
  readonly callingAet: string | null;
}

/** An instance the uploader sends: its file and what it needs to confirm it. */
export interface TQueuedFile {
  readonly key: string;
  readonly path: string;
  readonly sopInstanceUid: string;
  readonly studyInstanceUid: string;
  readonly sha256: string;
  readonly size: number;
}

interface QRecord {
  op: 'Q';
  key: string;
  sop: string;
  study: string;
  series: string;
  sha256: string;
  size: number;
  urgent: boolean;
  at: string;
  source: TQueueSource;
  ae: string | null;
  pn: string | null;
  pid: string | null;
  mod: string | null;
  date: string | null;
  desc: string | null;
  /** Patient's Sex and Age: absent from records written before the router kept them. */
  sex?: string | null;
  age?: string | null;
}
type JournalRecord =
  | QRecord
  | { op: 'S'; key: string; at: string }
  | { op: 'E'; key: string; reason: string; at: string }
  | { op: 'R'; study: string; at: string }
  | { op: 'D'; key: string; at: string };

interface Entry {
  readonly q: QRecord;
  sent: boolean;
  /** A permanent error holds the instance until `retryStudy`. */
  held: boolean;
  error?: { reason: string; at: string; permanent: boolean };
  inFlight: boolean;
}

interface StudyState {
  readonly uid: string;
  readonly entries: Map<string, Entry>;
  urgent: boolean;
  queuedAt: string;
  /** Transient failure: not before this time (ms since epoch). */
  retryAt?: number;
}

/** Priority values that make a study urgent (PS3.3 C.4.11 / C.4.10: STAT and HIGH). */
export const URGENT_PRIORITIES: ReadonlySet<string> = new Set(['STAT', 'HIGH']);

export function defaultIsUrgent(header: TInstanceHeader): boolean {
  return header.priority !== null && URGENT_PRIORITIES.has(header.priority.trim().toUpperCase());
}

export function keyOfSopInstanceUid(sopInstanceUid: string): string {
  return createHash('sha256').update(sopInstanceUid).digest('hex').slice(0, 32);
}

/** Reads what the queue needs from a Part 10 instance's bytes; throws a clear error if it is not DICOM. */
export function readInstanceHeader(bytes: Uint8Array, callingAet: string | null): TInstanceHeader {
  const parsed = parseInstance(bytes, { requireUids: true });
  const text = (tag: string): string | null => {
    const value = parsed.dataSet.string(tag);
    return value === undefined || value.trim() === '' ? null : value.trim();
  };
  return {
    sopInstanceUid: parsed.sopInstanceUid,
    studyInstanceUid: parsed.studyInstanceUid,
    seriesInstanceUid: parsed.seriesInstanceUid,
    patientName: parsed.index.patientName,
    patientId: parsed.index.patientId,
    patientSex: parsed.index.patientSex,
    patientAge: patientAgeOf(parsed.index),
    modality: parsed.index.modality,
    studyDate: parsed.index.studyDate,
    studyDescription: parsed.index.studyDescription,
    priority: text('x00401003') ?? text('x00400009'),
    callingAet,
  };
}

/** What a queue record keeps of the study and patient an instance belongs to (the lists show it). */
function describedBy(
  header: TInstanceHeader,
): Pick<QRecord, 'pn' | 'pid' | 'mod' | 'date' | 'desc' | 'sex' | 'age'> {
  return {
    pn: header.patientName,
    pid: header.patientId,
    mod: header.modality,
    date: header.studyDate,
    desc: header.studyDescription,
    sex: header.patientSex,
    age: header.patientAge,
  };
}

/** Above this many dead records (sent-and-deleted, superseded errors) the journal is compacted. */
const COMPACT_AFTER_RECORDS = 20_000;

export class InstanceQueue extends EventEmitter<TQueueEvents> {
  private readonly studies = new Map<string, StudyState>();
  private readonly byKey = new Map<string, StudyState>();
  private usedBytes = 0;
  /** Bytes of instances being written (counted against the quota before their record exists). */
  private reservedBytes = 0;
  /** An instance was refused for the quota since room was last freed. */
  private quotaRefused = false;
  /** Instances being written, by key: a concurrent copy of one waits for the first. */
  private readonly accepting = new Map<string, Promise<TEnqueueResult>>();
  private alarmRaised = false;
  private recordCount = 0;
  private readonly objectsDir: string;
  private readonly tmpDir: string;

  private constructor(
    private readonly options: TQueueOptions,
    private readonly journal: Journal,
  ) {
    super();
    this.objectsDir = join(options.dataDir, 'spool', 'objects');
    this.tmpDir = join(options.dataDir, 'spool', 'tmp');
  }

  /**
   * Opens the queue: replays the journal (cutting a torn last record), removes half-written temp
   * files, adopts an instance file whose record never made it (written and renamed, then a crash
   * before its record: never acknowledged, but sending it is harmless) and reports unsent instances
   * whose file is missing as errors.
   */
  static async open(options: TQueueOptions): Promise<InstanceQueue> {
    const spool = join(options.dataDir, 'spool');
    await mkdir(join(spool, 'objects'), { recursive: true });
    await rm(join(spool, 'tmp'), { recursive: true, force: true });
    await mkdir(join(spool, 'tmp'), { recursive: true });
    const { journal, read } = await Journal.open<JournalRecord>(join(spool, 'journal.log'));
    const queue = new InstanceQueue(options, journal);
    for (const record of read.records) queue.apply(record);
    queue.recordCount = read.records.length;
    await queue.reconcileFiles();
    return queue;
  }

  /** The directory the SCP writes its temp files into (same file system as the spool: rename works). */
  get tempDir(): string {
    return this.tmpDir;
  }

  // ---- for the local API -------------------------------------------------------------------

  /** Studies with at least one unsent instance, urgent first, then oldest first. */
  pendingCases(): TPendingCase[] {
    return this.orderedStudies()
      .filter((s) => [...s.entries.values()].some((e) => !e.sent))
      .map((s) => this.caseOf(s));
  }

  /** Every study still in the spool, sent or not (for the screen's queue with progress). */
  allCases(): TPendingCase[] {
    return this.orderedStudies().map((s) => this.caseOf(s));
  }

  /**
   * The spool files of a study's instances (sent or not), for a forward to a PACS (forward/); an
   * unknown study: undefined. A file may be deleted after this answers (delete-uploaded-study), so a
   * reader links or copies them first (local-study-source.ts).
   */
  studyFiles(studyInstanceUid: string): string[] | undefined {
    const study = this.studies.get(studyInstanceUid);
    if (!study) return undefined;
    return [...study.entries.values()].map((e) => this.pathOf(e.q.key));
  }

  /** Whether the spool holds the study (uploaded or not, until deleted). */
  holds(studyInstanceUid: string): boolean {
    return this.studies.has(studyInstanceUid);
  }

  studyProgress(studyInstanceUid: string): TStudyProgress | undefined {
    const study = this.studies.get(studyInstanceUid);
    if (!study) return undefined;
    const entries = [...study.entries.values()];
    const sent = entries.filter((e) => e.sent);
    return {
      studyInstanceUid,
      state: this.stateOf(study),
      total: entries.length,
      sent: sent.length,
      failed: entries.filter((e) => !e.sent && e.held).length,
      bytesTotal: entries.reduce((n, e) => n + e.q.size, 0),
      bytesSent: sent.reduce((n, e) => n + e.q.size, 0),
      ...(study.retryAt !== undefined && study.retryAt > Date.now()
        ? { retryAt: new Date(study.retryAt).toISOString() }
        : {}),
    };
  }

  /** The unsent instances' last failures, newest first. */
  errors(): TQueueError[] {
    const out: TQueueError[] = [];
    for (const study of this.studies.values()) {
      for (const e of study.entries.values()) {
        if (e.sent || !e.error) continue;
        out.push({
          studyInstanceUid: study.uid,
          sopInstanceUid: e.q.sop,
          reason: e.error.reason,
          at: e.error.at,
          permanent: e.error.permanent,
        });
      }
    }
    return out.sort((a, b) => b.at.localeCompare(a.at));
  }

  /** Releases a study's held (refused) instances and its backoff; false if the study is unknown. */
  async retryStudy(studyInstanceUid: string): Promise<boolean> {
    const study = this.studies.get(studyInstanceUid);
    if (!study) return false;
    await this.append({ op: 'R', study: studyInstanceUid, at: new Date().toISOString() });
    this.apply({ op: 'R', study: studyInstanceUid, at: '' });
    this.emit('study-retry', { studyInstanceUid });
    return true;
  }

  /**
   * Removes an uploaded study's files from the router. 'not-uploaded': some instance is not yet
   * confirmed by the cloud — never dropped (it was acknowledged to the modality).
   */
  async deleteUploadedStudy(studyInstanceUid: string): Promise<'deleted' | 'not-found' | 'not-uploaded'> {
    const study = this.studies.get(studyInstanceUid);
    if (!study) return 'not-found';
    if ([...study.entries.values()].some((e) => !e.sent)) return 'not-uploaded';
    for (const entry of [...study.entries.values()]) await this.removeEntry(study, entry);
    return 'deleted';
  }

  /** Queues one Part 10 file from the browser (upload-file; upload-zip calls it per file in the zip). */
  async enqueueFile(bytes: Uint8Array, options: { callingAet?: string } = {}): Promise<TEnqueueResult> {
    let header: TInstanceHeader;
    try {
      header = readInstanceHeader(bytes, options.callingAet ?? null);
    } catch (error) {
      return {
        status: 'refused',
        reason: `Not a DICOM file: ${error instanceof Error ? error.message : String(error)}`,
        quotaFull: false,
      };
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    return this.accept(header, { bytes }, sha256, bytes.length, 'upload');
  }

  diskUsage(): TDiskUsage {
    const quotaBytes = this.options.quotaBytes ?? 0;
    return {
      usedBytes: this.usedBytes,
      quotaBytes,
      alarm: quotaBytes > 0 && this.usedBytes >= quotaBytes * (this.options.alarmRatio ?? 0.9),
      full: quotaBytes > 0 && (this.quotaRefused || this.usedBytes >= quotaBytes),
    };
  }

  // ---- for the receiver --------------------------------------------------------------------

  /** Whether `size` more bytes fit in the quota. */
  hasRoomFor(size: number): boolean {
    const quota = this.options.quotaBytes ?? 0;
    return quota === 0 || this.usedBytes + this.reservedBytes + size <= quota;
  }

  /**
   * Queues an instance received by C-STORE; resolves once its file and its record are fsynced —
   * only then may the SCP answer Success. `file` is the SCP's temp file (moved in) or its bytes.
   */
  async accept(
    header: TInstanceHeader,
    file: { path: string } | { bytes: Uint8Array },
    sha256: string,
    size: number,
    source: TQueueSource,
  ): Promise<TEnqueueResult> {
    const key = keyOfSopInstanceUid(header.sopInstanceUid);
    const inProgress = this.accepting.get(key);
    if (inProgress) {
      const first = await inProgress.catch(() => undefined);
      if (first?.status === 'queued' || first?.status === 'duplicate')
        return { ...first, status: 'duplicate' };
    }
    const work = this.acceptOnce(key, header, file, sha256, size, source);
    this.accepting.set(key, work);
    try {
      return await work;
    } finally {
      if (this.accepting.get(key) === work) this.accepting.delete(key);
    }
  }

  private async acceptOnce(
    key: string,
    header: TInstanceHeader,
    file: { path: string } | { bytes: Uint8Array },
    sha256: string,
    size: number,
    source: TQueueSource,
  ): Promise<TEnqueueResult> {
    const existing = this.byKey.get(key);
    if (existing) {
      // The first copy wins (as in the cloud); a modality's resend of an instance is acknowledged.
      return { status: 'duplicate', sopInstanceUid: header.sopInstanceUid, studyInstanceUid: existing.uid };
    }
    if (!this.hasRoomFor(size)) {
      // Full from now until room is freed: new associations are refused at once (dicom-receiver.ts).
      this.quotaRefused = true;
      return {
        status: 'refused',
        reason: 'The router disk quota is full',
        quotaFull: true,
      };
    }
    const finalPath = this.pathOf(key);
    this.reservedBytes += size;
    try {
      if ('path' in file) await moveFileDurably(file.path, finalPath, this.objectsDir);
      else await writeFileDurably(finalPath, file.bytes, join(this.tmpDir, `${key}.${randomUUID()}`));
      return await this.record(header, key, sha256, size, source);
    } finally {
      this.reservedBytes -= size;
    }
  }

  private async record(
    header: TInstanceHeader,
    key: string,
    sha256: string,
    size: number,
    source: TQueueSource,
  ): Promise<TEnqueueResult> {
    const study = this.studies.get(header.studyInstanceUid);
    const record: QRecord = {
      op: 'Q',
      key,
      sop: header.sopInstanceUid,
      study: header.studyInstanceUid,
      series: header.seriesInstanceUid,
      sha256,
      size,
      urgent: (this.options.isUrgent ?? defaultIsUrgent)(header) || (study?.urgent ?? false),
      at: new Date().toISOString(),
      source,
      ae: header.callingAet,
      ...describedBy(header),
    };
    await this.append(record);
    this.apply(record);
    this.emit('instance-queued', {
      studyInstanceUid: header.studyInstanceUid,
      sopInstanceUid: header.sopInstanceUid,
      source,
    });
    this.checkAlarm();
    return {
      status: 'queued',
      sopInstanceUid: header.sopInstanceUid,
      studyInstanceUid: header.studyInstanceUid,
    };
  }

  // ---- for the uploader --------------------------------------------------------------------

  /**
   * The next batch to send: unsent, not held, not in flight instances of one study — the most
   * urgent, then the oldest study whose backoff is over — up to `maxBytes` (at least one
   * instance) and `maxCount`. Marks them in flight. Empty when nothing is ready.
   */
  takeBatch(maxBytes: number, maxCount: number, now = Date.now()): TQueuedFile[] {
    for (const study of this.orderedStudies()) {
      if (study.retryAt !== undefined && study.retryAt > now) continue;
      const batch: TQueuedFile[] = [];
      let bytes = 0;
      for (const e of study.entries.values()) {
        if (e.sent || e.held || e.inFlight) continue;
        if (batch.length > 0 && (bytes + e.q.size > maxBytes || batch.length >= maxCount)) break;
        batch.push(this.fileOf(e));
        bytes += e.q.size;
      }
      if (batch.length === 0) continue;
      for (const f of batch) study.entries.get(f.key)!.inFlight = true;
      return batch;
    }
    return [];
  }

  /** When the next study's backoff ends (ms since epoch), if some study is only waiting for it. */
  nextRetryAt(): number | undefined {
    let next: number | undefined;
    for (const s of this.studies.values()) {
      if (s.retryAt === undefined) continue;
      if ([...s.entries.values()].some((e) => !e.sent && !e.held && !e.inFlight)) {
        next = next === undefined ? s.retryAt : Math.min(next, s.retryAt);
      }
    }
    return next;
  }

  /** The cloud confirmed these instances (checksums matched): recorded, then announced. */
  async markSent(keys: readonly string[]): Promise<void> {
    const at = new Date().toISOString();
    await Promise.all(keys.map((key) => this.append({ op: 'S', key, at })));
    const touched = new Set<StudyState>();
    for (const key of keys) {
      const study = this.byKey.get(key);
      const entry = study?.entries.get(key);
      if (!study || !entry) continue;
      this.apply({ op: 'S', key, at });
      entry.inFlight = false;
      touched.add(study);
      this.emit('instance-sent', { studyInstanceUid: study.uid, sopInstanceUid: entry.q.sop });
    }
    for (const study of touched) {
      study.retryAt = undefined;
      const entries = [...study.entries.values()];
      if (entries.every((e) => e.sent)) {
        this.emit('study-done', { studyInstanceUid: study.uid, total: entries.length });
      }
    }
  }

  /**
   * A failure: `permanent` (the cloud refused the instance) holds it until `retryStudy`; a
   * transient one (network, 5xx, quota) puts the study in backoff until `retryAt`.
   */
  async markFailed(
    keys: readonly string[],
    reason: string,
    options: { permanent: boolean; retryAt?: number },
  ): Promise<void> {
    const at = new Date().toISOString();
    if (options.permanent) await Promise.all(keys.map((key) => this.append({ op: 'E', key, reason, at })));
    for (const key of keys) {
      const study = this.byKey.get(key);
      const entry = study?.entries.get(key);
      if (!study || !entry) continue;
      entry.inFlight = false;
      entry.error = { reason, at, permanent: options.permanent };
      if (options.permanent) entry.held = true;
      if (options.retryAt !== undefined) study.retryAt = options.retryAt;
      this.emit('instance-failed', {
        studyInstanceUid: study.uid,
        sopInstanceUid: entry.q.sop,
        reason,
        permanent: options.permanent,
      });
    }
  }

  /** Gives back instances taken but neither sent nor failed (e.g. outside upload hours on stop). */
  release(keys: readonly string[]): void {
    for (const key of keys) {
      const entry = this.byKey.get(key)?.entries.get(key);
      if (entry) entry.inFlight = false;
    }
  }

  /** Instances not yet confirmed by the cloud. */
  unsentCount(): number {
    let n = 0;
    for (const s of this.studies.values()) for (const e of s.entries.values()) if (!e.sent) n++;
    return n;
  }

  async close(): Promise<void> {
    await this.journal.close();
  }

  /** Rewrites the journal with the live state only, when it has grown enough to be worth it. */
  async compactIfLarge(): Promise<void> {
    const live = [...this.studies.values()].flatMap((s) => [...s.entries.values()]);
    if (this.recordCount < COMPACT_AFTER_RECORDS || this.recordCount < live.length * 3) return;
    const records: JournalRecord[] = [];
    for (const e of live) {
      records.push(e.q);
      if (e.sent) records.push({ op: 'S', key: e.q.key, at: e.q.at });
      else if (e.held && e.error)
        records.push({ op: 'E', key: e.q.key, reason: e.error.reason, at: e.error.at });
    }
    await this.journal.rewrite(records);
    this.recordCount = records.length;
  }

  // ---- internals ---------------------------------------------------------------------------

  private async append(record: JournalRecord): Promise<void> {
    await this.journal.append(record);
    this.recordCount++;
  }

  private apply(record: JournalRecord): void {
    switch (record.op) {
      case 'Q': {
        if (this.byKey.has(record.key)) return;
        let study = this.studies.get(record.study);
        if (!study) {
          study = { uid: record.study, entries: new Map(), urgent: false, queuedAt: record.at };
          this.studies.set(record.study, study);
        }
        study.urgent ||= record.urgent;
        study.entries.set(record.key, { q: record, sent: false, held: false, inFlight: false });
        this.byKey.set(record.key, study);
        this.usedBytes += record.size;
        return;
      }
      case 'S': {
        const entry = this.byKey.get(record.key)?.entries.get(record.key);
        if (!entry) return;
        entry.sent = true;
        entry.held = false;
        entry.error = undefined;
        return;
      }
      case 'E': {
        const entry = this.byKey.get(record.key)?.entries.get(record.key);
        if (!entry || entry.sent) return;
        entry.held = true;
        entry.error = { reason: record.reason, at: record.at, permanent: true };
        return;
      }
      case 'R': {
        const study = this.studies.get(record.study);
        if (!study) return;
        study.retryAt = undefined;
        for (const e of study.entries.values()) {
          e.held = false;
          e.error = undefined;
        }
        return;
      }
      case 'D': {
        const study = this.byKey.get(record.key);
        const entry = study?.entries.get(record.key);
        if (!study || !entry) return;
        study.entries.delete(record.key);
        this.byKey.delete(record.key);
        this.usedBytes -= entry.q.size;
        this.quotaRefused = false;
        if (study.entries.size === 0) this.studies.delete(study.uid);
        return;
      }
    }
  }

  /**
   * Unlink first, record after: a crash in between leaves a sent record without its file, which
   * start-up drops; the other order would leave a file without a record, which start-up would
   * adopt and send again.
   */
  private async removeEntry(study: StudyState, entry: Entry): Promise<void> {
    await unlink(this.pathOf(entry.q.key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    const record: JournalRecord = { op: 'D', key: entry.q.key, at: new Date().toISOString() };
    await this.append(record);
    this.apply(record);
    void study;
  }

  private async reconcileFiles(): Promise<void> {
    const names = new Set((await readdir(this.objectsDir)).filter((n) => n.endsWith('.dcm')));
    for (const study of [...this.studies.values()]) {
      for (const entry of [...study.entries.values()]) {
        const name = `${entry.q.key}.dcm`;
        if (names.delete(name)) continue;
        if (entry.sent) {
          const record: JournalRecord = { op: 'D', key: entry.q.key, at: new Date().toISOString() };
          await this.append(record);
          this.apply(record);
        } else {
          entry.held = true;
          entry.error = {
            reason: 'The instance file is missing from the router spool',
            at: new Date().toISOString(),
            permanent: true,
          };
        }
      }
    }
    for (const name of names) {
      const path = join(this.objectsDir, name);
      try {
        const bytes = await readFile(path);
        const header = readInstanceHeader(bytes, null);
        if (`${keyOfSopInstanceUid(header.sopInstanceUid)}.dcm` !== name) throw new Error('name mismatch');
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        const record: QRecord = {
          op: 'Q',
          key: keyOfSopInstanceUid(header.sopInstanceUid),
          sop: header.sopInstanceUid,
          study: header.studyInstanceUid,
          series: header.seriesInstanceUid,
          sha256,
          size: (await stat(path)).size,
          urgent: (this.options.isUrgent ?? defaultIsUrgent)(header),
          at: new Date().toISOString(),
          source: 'dimse',
          ae: null,
          ...describedBy(header),
        };
        await this.append(record);
        this.apply(record);
      } catch {
        // Not an instance we can name: leave it, never delete what might be someone's image.
      }
    }
  }

  private checkAlarm(): void {
    const usage = this.diskUsage();
    if (usage.alarm && !this.alarmRaised) {
      this.alarmRaised = true;
      this.emit('disk-alarm', usage);
    } else if (!usage.alarm) {
      this.alarmRaised = false;
    }
  }

  private orderedStudies(): StudyState[] {
    return [...this.studies.values()].sort(
      (a, b) => Number(b.urgent) - Number(a.urgent) || a.queuedAt.localeCompare(b.queuedAt),
    );
  }

  private stateOf(study: StudyState): TStudyUploadState {
    const entries = [...study.entries.values()];
    if (entries.every((e) => e.sent)) return 'DONE';
    if (entries.some((e) => e.inFlight)) return 'UPLOADING';
    if (entries.some((e) => !e.sent && e.held)) return 'FAILED';
    if (study.retryAt !== undefined && study.retryAt > Date.now()) return 'WAITING';
    return 'QUEUED';
  }

  private caseOf(study: StudyState): TPendingCase {
    const entries = [...study.entries.values()];
    const first = entries[0]!.q;
    return {
      studyInstanceUid: study.uid,
      patientName: first.pn,
      patientId: first.pid,
      patientSex: first.sex ?? null,
      patientAge: first.age ?? null,
      modality: first.mod,
      studyDate: first.date,
      studyDescription: first.desc,
      urgent: study.urgent,
      queuedAt: study.queuedAt,
      state: this.stateOf(study),
      instances: entries.map((e) => ({
        sopInstanceUid: e.q.sop,
        seriesInstanceUid: e.q.series,
        sent: e.sent,
        ...(e.error && !e.sent ? { error: e.error.reason } : {}),
      })),
      total: entries.length,
      sent: entries.filter((e) => e.sent).length,
    };
  }

  private pathOf(key: string): string {
    return join(this.objectsDir, `${key}.dcm`);
  }

  private fileOf(e: Entry): TQueuedFile {
    return {
      key: e.q.key,
      path: this.pathOf(e.q.key),
      sopInstanceUid: e.q.sop,
      studyInstanceUid: e.q.study,
      sha256: e.q.sha256,
      size: e.q.size,
    };
  }
}
