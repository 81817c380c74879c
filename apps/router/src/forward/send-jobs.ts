import { randomUUID } from 'node:crypto';
import { formatForwardFailure, sendPercentage } from '@radflow/core';
import { type CStoreInstanceResult, cStore, isDimseError, readStoreFileHeader } from '@radflow/dicom/dimse';
import { z } from 'zod';
import { type DestinationPolicy, DestinationError, checkDestination } from './destination.js';
import { type InstanceSendStatus, type RouterSendRecord, SendRecordStore } from './send-store.js';
import { type StudySource, StudyNotFoundError, isUid } from './study-source.js';

/**
 * `send-job` (spec-core §7 Local router: `POST /send-job/get {studyIds}`, `POST /send-job/run
 * {studyId, reportStatusId, aeTitle, destination, createdAt, userEmail}`): the router C-STOREs a
 * study to a PACS on the center's network and keeps the spec's Router-send record with a status per
 * instance, as the cloud's forwarding does (apps/server/src/modules/forwarding). See FORWARD.md.
 */

export const SEND_JOB_MESSAGES = {
  studyId: 'studyId must be a Study Instance UID',
  reportStatusId: 'reportStatusId must be a positive whole number',
  notFound: 'Send job not found',
  nothingToRetry: 'No failed instance to resend',
} as const;

/** The body of `POST /send-job/run`. */
export const ZSendJobRun = z.object({
  studyId: z.string({ error: SEND_JOB_MESSAGES.studyId }).trim().refine(isUid, SEND_JOB_MESSAGES.studyId),
  reportStatusId: z.coerce
    .number({ error: SEND_JOB_MESSAGES.reportStatusId })
    .int(SEND_JOB_MESSAGES.reportStatusId)
    .positive(SEND_JOB_MESSAGES.reportStatusId)
    .nullish(),
  aeTitle: z.string({ error: 'aeTitle is required' }),
  destination: z.string({ error: 'destination is required' }),
  createdAt: z.union([z.string(), z.number()]).nullish(),
  userEmail: z.string().max(320).nullish(),
});
export type TSendJobRun = z.input<typeof ZSendJobRun>;

/** Bad input to `run` (a 400 for the API), its message naming the problem. */
export class SendJobInputError extends Error {
  override readonly name = 'SendJobInputError';
}
/** `retry` of a record that does not exist (404) or has nothing failed (409). */
export class SendJobStateError extends Error {
  override readonly name = 'SendJobStateError';
  constructor(
    message: string,
    readonly code: 'NOT_FOUND' | 'CONFLICT',
  ) {
    super(message);
  }
}

export interface SendJobsOptions {
  /** The router's data dir (ROUTER_DATA_DIR): records go to `<dataDir>/send-jobs/`. */
  readonly dataDir: string;
  readonly source: StudySource;
  /** Our AE title towards the PACS. */
  readonly callingAet: string;
  readonly policy?: DestinationPolicy;
  /**
   * Waits before the 2nd, 3rd … attempt of instances that failed; its length + 1 is the number of
   * attempts before the record is FAILED (default 10 s, then 60 s: three attempts).
   */
  readonly retryDelaysMs?: readonly number[];
  /** Instances per association (the cloud's forwarding uses 200 too). */
  readonly batchSize?: number;
  /** DIMSE timeout per PDU (default 120 s, the SCU's). */
  readonly timeoutMs?: number;
  /** Records kept; the oldest finished ones beyond it are deleted (default 1000). */
  readonly maxRecords?: number;
  readonly now?: () => Date;
}

export const DEFAULT_RETRY_DELAYS_MS = [10_000, 60_000] as const;

const destinationKey = (r: { aeTitle: string; destination: string }) => `${r.aeTitle}@${r.destination}`;

export class SendJobs {
  private readonly records = new Map<string, RouterSendRecord>();
  private readonly store: SendRecordStore;
  /** One send at a time per destination: a PACS is not flooded with associations by one router. */
  private readonly lanes = new Map<string, Promise<void>>();
  private readonly running = new Map<string, Promise<RouterSendRecordView>>();
  private readonly writes = new Map<string, Promise<void>>();
  private readonly timers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private closed = false;

  private constructor(private readonly options: SendJobsOptions) {
    this.store = new SendRecordStore(options.dataDir);
  }

  /** Loads the past records and resumes the sends a stop interrupted (IN_PROGRESS). */
  static async open(options: SendJobsOptions): Promise<SendJobs> {
    const jobs = new SendJobs(options);
    for (const record of await jobs.store.loadAll()) jobs.records.set(record.id, record);
    for (const record of jobs.records.values()) if (record.status === 'IN_PROGRESS') jobs.start(record);
    return jobs;
  }

  /** `send-job/get`: the records of these studies (by Study Instance UID), newest first. */
  get(studyIds: readonly string[]): RouterSendRecordView[] {
    const wanted = new Set(studyIds);
    return this.list().filter((r) => wanted.has(r.studyInstanceId));
  }

  /** Every record, newest first (the router's own screen). */
  list(): RouterSendRecordView[] {
    return [...this.records.values()]
      .sort((a, b) => (a.createdAt === b.createdAt ? 0 : a.createdAt < b.createdAt ? 1 : -1))
      .map((r) => toView(r));
  }

  /**
   * `send-job/run`: validates the input and destination, then starts the send and answers its record
   * at once (IN_PROGRESS; the browser follows it with `get`). The same study to the same destination
   * again: a running send is answered as it is, a FAILED one is retried, a finished one is sent anew.
   */
  async run(input: TSendJobRun): Promise<RouterSendRecordView> {
    const parsed = ZSendJobRun.safeParse(input);
    if (!parsed.success) throw new SendJobInputError(parsed.error.issues[0]?.message ?? 'Invalid send job');
    let destination;
    try {
      destination = checkDestination(parsed.data, this.options.policy);
    } catch (error) {
      if (error instanceof DestinationError) throw new SendJobInputError(error.message);
      throw error;
    }
    const { studyId } = parsed.data;
    const destinationText = `${destination.host}:${destination.port}`;
    const previous = this.list().find(
      (r) =>
        r.studyInstanceId === studyId &&
        destinationKey(r) === destinationKey({ aeTitle: destination.aeTitle, destination: destinationText }),
    );
    if (previous?.status === 'IN_PROGRESS') return previous;
    if (previous?.status === 'FAILED') return this.retry(previous.id);
    const now = this.now().toISOString();
    const record: RouterSendRecord = {
      id: randomUUID(),
      studyId,
      studyInstanceId: studyId,
      reportStatusId: parsed.data.reportStatusId ?? null,
      status: 'IN_PROGRESS',
      aeTitle: destination.aeTitle,
      destination: destinationText,
      userEmail: parsed.data.userEmail?.trim() || null,
      createdAt: toIso(parsed.data.createdAt) ?? now,
      updatedAt: now,
      lastError: null,
      instanceSendStatuses: [],
    };
    this.records.set(record.id, record);
    await this.persist(record);
    await this.prune();
    this.start(record);
    return toView(record);
  }

  /** Failed instances (or a study that could not be read) go again, with fresh attempts. */
  async retry(id: string): Promise<RouterSendRecordView> {
    const record = this.records.get(id);
    if (!record) throw new SendJobStateError(SEND_JOB_MESSAGES.notFound, 'NOT_FOUND');
    if (record.status !== 'FAILED') throw new SendJobStateError(SEND_JOB_MESSAGES.nothingToRetry, 'CONFLICT');
    for (const instance of record.instanceSendStatuses) {
      if (instance.status === 'FAILED')
        Object.assign(instance, { status: 'PENDING', attempts: 0, error: null });
    }
    record.status = 'IN_PROGRESS';
    record.lastError = null;
    record.updatedAt = this.now().toISOString();
    await this.persist(record);
    this.start(record);
    return toView(record);
  }

  /** Resolves with the record once its send has finished (now, if it is not running). */
  async settled(id: string): Promise<RouterSendRecordView> {
    const running = this.running.get(id);
    if (running) await running;
    const record = this.records.get(id);
    if (!record) throw new SendJobStateError(SEND_JOB_MESSAGES.notFound, 'NOT_FOUND');
    return toView(record);
  }

  /**
   * Stops: waits between retries end at once and the sends under way finish their association;
   * records still IN_PROGRESS are resumed by the next `open`.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const wait of this.timers) {
      clearTimeout(wait.timer);
      wait.resolve();
    }
    await Promise.allSettled([...this.running.values()]);
    await Promise.allSettled([...this.writes.values()]);
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private start(record: RouterSendRecord): void {
    const lane = destinationKey(record);
    const previous = this.lanes.get(lane) ?? Promise.resolve();
    const job = previous.then(() => this.send(record));
    const done = job.then(
      () => undefined,
      () => undefined,
    );
    this.lanes.set(lane, done);
    const settled = job.then(
      () => toView(record),
      () => toView(record),
    );
    this.running.set(record.id, settled);
    void settled.finally(() => {
      if (this.running.get(record.id) === settled) this.running.delete(record.id);
      if (this.lanes.get(lane) === done) this.lanes.delete(lane);
    });
  }

  private async send(record: RouterSendRecord): Promise<void> {
    if (this.closed) return;
    const delays = this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    const maxAttempts = delays.length + 1;
    let study;
    // The cloud over the center's link may be away for a while: opening is retried like a send,
    // except for a study the source does not have.
    for (let attempt = 1; !study; attempt++) {
      try {
        study = await this.options.source.open(record.studyInstanceId);
      } catch (error) {
        if (error instanceof StudyNotFoundError || attempt >= maxAttempts) {
          await this.finish(record, `The study could not be read: ${messageOf(error)}`);
          return;
        }
        await this.wait(delays[attempt - 1] ?? 0);
        if (this.closed) return;
      }
    }
    try {
      const files = await this.listInstances(record, study.files);
      for (;;) {
        const due = record.instanceSendStatuses.filter(
          (i) => i.status !== 'SEND' && i.attempts < maxAttempts && files.has(i.sopInstanceUid),
        );
        if (due.length === 0 || this.closed) break;
        const batchSize = this.options.batchSize ?? 200;
        for (let at = 0; at < due.length && !this.closed; at += batchSize) {
          await this.sendBatch(record, due.slice(at, at + batchSize), files);
        }
        const again = record.instanceSendStatuses.some(
          (i) => i.status === 'FAILED' && i.attempts < maxAttempts && files.has(i.sopInstanceUid),
        );
        if (!again || this.closed) break;
        const attemptsMade = Math.min(...due.map((i) => i.attempts));
        await this.wait(delays[attemptsMade - 1] ?? delays.at(-1) ?? 0);
      }
      // Stopped mid-way: the record stays IN_PROGRESS on disk and the next start resumes it.
      if (this.closed && record.instanceSendStatuses.some((i) => i.status !== 'SEND')) return;
      const failed = record.instanceSendStatuses.filter((i) => i.status !== 'SEND');
      await this.finish(
        record,
        failed.length === 0
          ? null
          : `${failed.length} of ${record.instanceSendStatuses.length} instances failed: ${failed[0]?.error ?? 'not sent'}`,
      );
    } catch (error) {
      await this.finish(record, messageOf(error));
    } finally {
      await study.release().catch(() => undefined);
    }
  }

  /**
   * The study's instances by SOP Instance UID (the first file of a UID wins); new ones join the
   * record as PENDING, and those the study no longer has are FAILED.
   */
  private async listInstances(
    record: RouterSendRecord,
    paths: readonly string[],
  ): Promise<Map<string, string>> {
    const files = new Map<string, string>();
    const unreadable: string[] = [];
    for (const file of paths) {
      try {
        const header = await readStoreFileHeader(file);
        if (!files.has(header.sopInstanceUid)) files.set(header.sopInstanceUid, file);
      } catch (error) {
        unreadable.push(messageOf(error));
      }
    }
    const known = new Set(record.instanceSendStatuses.map((i) => i.sopInstanceUid));
    for (const sopInstanceUid of files.keys()) {
      if (!known.has(sopInstanceUid))
        record.instanceSendStatuses.push({ sopInstanceUid, status: 'PENDING', attempts: 0, error: null });
    }
    for (const instance of record.instanceSendStatuses) {
      if (instance.status !== 'SEND' && !files.has(instance.sopInstanceUid))
        Object.assign(instance, { status: 'FAILED', error: 'The instance is no longer in the study' });
    }
    if (files.size === 0)
      throw new Error(`The study has no instance to send${unreadable[0] ? ` (${unreadable[0]})` : ''}`);
    record.updatedAt = this.now().toISOString();
    await this.persist(record);
    return files;
  }

  private async sendBatch(
    record: RouterSendRecord,
    batch: InstanceSendStatus[],
    files: Map<string, string>,
  ): Promise<void> {
    const [host = '', port = '0'] = record.destination.split(':');
    const byPath = new Map(batch.map((i) => [files.get(i.sopInstanceUid)!, i]));
    for (const instance of batch) instance.attempts++;
    const apply = (result: CStoreInstanceResult) => {
      const instance = byPath.get(result.filePath);
      if (!instance) return;
      instance.status = result.status;
      instance.error = result.status === 'SEND' ? null : (result.error ?? 'Not sent');
    };
    let lastSaved = Date.now();
    try {
      const outcome = await cStore({
        host,
        port: Number(port),
        callingAet: this.options.callingAet,
        calledAet: record.aeTitle,
        files: [...byPath.keys()],
        ...(this.options.timeoutMs ? { timeoutMs: this.options.timeoutMs } : {}),
        onProgress: ({ result }) => {
          apply(result);
          // The browser follows the progress: the record on disk is at most a second behind.
          if (Date.now() - lastSaved > 1000) {
            lastSaved = Date.now();
            record.updatedAt = this.now().toISOString();
            // A failed write here is retried by the next one (the batch's end writes it anyway).
            this.persist(record).catch(() => undefined);
          }
        },
      });
      for (const result of outcome.results) apply(result);
    } catch (error) {
      // No association (refused, rejected, timed out): every instance of the batch failed for that.
      if (!isDimseError(error)) throw error;
      for (const instance of batch) Object.assign(instance, { status: 'FAILED', error: error.message });
    }
    record.updatedAt = this.now().toISOString();
    await this.persist(record);
  }

  private async finish(record: RouterSendRecord, failure: string | null): Promise<void> {
    record.status = failure === null ? 'SEND' : 'FAILED';
    record.lastError = failure;
    record.updatedAt = this.now().toISOString();
    await this.persist(record);
  }

  /** Writes of one record in order (each a whole-file replace), so the last state is the one on disk. */
  private persist(record: RouterSendRecord): Promise<void> {
    const snapshot = structuredClone(record);
    const write = (this.writes.get(record.id) ?? Promise.resolve()).then(() => this.store.save(snapshot));
    const tracked = write.catch(() => undefined);
    this.writes.set(record.id, tracked);
    void tracked.finally(() => {
      if (this.writes.get(record.id) === tracked) this.writes.delete(record.id);
    });
    return write;
  }

  private async prune(): Promise<void> {
    const max = this.options.maxRecords ?? 1000;
    const finished = this.list().filter((r) => r.status !== 'IN_PROGRESS');
    const excess = this.records.size - max;
    if (excess <= 0) return;
    for (const old of finished.slice(-excess)) {
      this.records.delete(old.id);
      await this.store.remove(old.id);
    }
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = {
        resolve,
        timer: setTimeout(() => {
          this.timers.delete(entry);
          resolve();
        }, ms),
      };
      this.timers.add(entry);
    });
  }
}

/**
 * A record as the API answers it: the stored record with its counts, percentage and the spec's
 * failure text (spec-core §8 'Report Id: {id} | {message}'), as the cloud's forwarding record has them
 * (core `sendPercentage`, `formatForwardFailure`), so the web draws both alike.
 */
export interface RouterSendRecordView extends RouterSendRecord {
  total: number;
  pending: number;
  success: number;
  failed: number;
  percentage: number;
  failureMessage: string | null;
}

function toView(record: RouterSendRecord): RouterSendRecordView {
  const copy = structuredClone(record);
  const count = (status: InstanceSendStatus['status']) =>
    copy.instanceSendStatuses.filter((i) => i.status === status).length;
  const total = copy.instanceSendStatuses.length;
  const success = count('SEND');
  const message = copy.lastError ?? 'not sent';
  return {
    ...copy,
    total,
    pending: count('PENDING'),
    success,
    failed: count('FAILED'),
    percentage: sendPercentage(success, total),
    failureMessage:
      copy.status !== 'FAILED'
        ? null
        : copy.reportStatusId === null
          ? message
          : formatForwardFailure(copy.reportStatusId, message),
  };
}

function toIso(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  const date = new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
