import {
  JOB_POLL_INTERVAL_MS,
  JOB_POLL_MAX_TRIES,
  type TJobProgress,
  type TJobRequest,
  type TJobStatus,
} from '@radflow/core';
import { ApiError } from '../../api/client';
import { throwIfAborted, wait as pageWait, type TWait } from './abortable';
import { JOB_MESSAGES, jobDisplayName } from './job-messages';
import { fetchJobProgress, postJob } from './jobs-api';

export type TJobErrorKind = 'running' | 'failed' | 'timeout';

/** A job that could not finish, with the spec-core §8 text as its message. */
export class JobError extends Error {
  readonly kind: TJobErrorKind;
  /** The job's human name ({name} of the messages). */
  readonly jobName: string;
  /** The server's reason of a failed run, if any. */
  readonly reason: string | null;
  constructor(kind: TJobErrorKind, jobName: string, reason: string | null = null) {
    super(
      kind === 'running'
        ? JOB_MESSAGES.stillRunning(jobName)
        : kind === 'failed'
          ? JOB_MESSAGES.failed(jobName, reason)
          : JOB_MESSAGES.timeout(jobName),
    );
    this.name = 'JobError';
    this.kind = kind;
    this.jobName = jobName;
    this.reason = reason;
  }
}

/**
 * The jobs this page has running, by job name and study. A second run of the same job for the same
 * study is refused while the first is polled (spec-core §4: 'Job still running {name}'). Per tab: a
 * run started in another tab is the server's to coordinate (it answers the running job's status
 * rather than starting a second one, so both tabs follow the same run).
 */
export class JobRegistry {
  private readonly running = new Set<string>();
  private key(payload: Pick<TJobRequest, 'jobName' | 'reportStatusId'>) {
    return `${payload.jobName}:${String(payload.reportStatusId)}`;
  }
  has(payload: Pick<TJobRequest, 'jobName' | 'reportStatusId'>): boolean {
    return this.running.has(this.key(payload));
  }
  /** Claims the job; false when it is running already. */
  claim(payload: Pick<TJobRequest, 'jobName' | 'reportStatusId'>): boolean {
    const key = this.key(payload);
    if (this.running.has(key)) return false;
    this.running.add(key);
    return true;
  }
  release(payload: Pick<TJobRequest, 'jobName' | 'reportStatusId'>): void {
    this.running.delete(this.key(payload));
  }
}

/** The page's registry (one per tab). */
export const runningJobs = new JobRegistry();

/** What the user is asked when the server answers FAILED_PREVIOUSLY: the spec text and the error. */
export interface TForcePrompt {
  message: string;
  error: string | null;
  /** The job's human name. */
  name: string;
}

/** Where a running job stands, for a progress display. */
export interface TJobRunProgress {
  jobStatus: TJobStatus;
  /** The progress record's percent (0–100) when the server has one. */
  percent: number | null;
  record: TJobProgress | null;
  /** Polls done so far (0 before the first). */
  tries: number;
}

export interface TRunJobOptions {
  /** Answers the failed-previously question: true force-triggers the job again. */
  confirm: (prompt: TForcePrompt) => Promise<boolean>;
  onProgress?: (progress: TJobRunProgress) => void;
  signal?: AbortSignal;
  /**
   * The job's human name for the messages; default: the patient name of the progress record with the
   * study id, or 'study {id}' (see jobDisplayName).
   */
  name?: string;
  /** Timers (tests use vi.useFakeTimers with the default). */
  wait?: TWait;
  registry?: JobRegistry;
  pollIntervalMs?: number;
  maxTries?: number;
}

/** COMPLETED, or DECLINED when the user did not force-trigger a job that failed previously. */
export type TJobOutcome = 'COMPLETED' | 'DECLINED';

const IN_PROGRESS: ReadonlySet<TJobStatus> = new Set(['QUEUED', 'RUNNING']);

/** A poll that got no answer (network, gateway) is worth another try rather than a failure. */
function isTransient(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 0 || error.status === 502 || error.status === 503 || error.status === 504)
  );
}

/**
 * spec-core §4 Job run. Posts the job to POST /api/batch/run and follows it:
 * - the same job for the same study already running in this tab → JobError 'Job still running {name}';
 * - FAILED_PREVIOUSLY → `confirm` with the spec's text and the error; yes posts again with
 *   forceTrigger, no resolves 'DECLINED';
 * - COMPLETED → resolves 'COMPLETED';
 * - QUEUED / RUNNING → polls every JOB_POLL_INTERVAL_MS (4 s), at most JOB_POLL_MAX_TRIES (200)
 *   times: COMPLETED resolves; FAILED or FAILED_PREVIOUSLY rejects 'Job failed {name} {error}';
 *   exhaustion rejects 'Job timeout {name}'.
 *
 * The poll reads GET /api/batch/progress/{reportStatusId} (status, percent and patient name). Where
 * that route answers 404 it asks POST /api/batch/run again with forceTrigger and recreateZip off,
 * which answers the running job's status without ever starting another run. A poll without an
 * answer (network down, 502–504) counts as a try and the poll goes on; any other refusal (the
 * spec-core §5 ones among them) rejects with the server's ApiError. Aborting `signal` rejects with an
 * AbortError (the server's job goes on).
 */
export async function runJob(payload: TJobRequest, options: TRunJobOptions): Promise<TJobOutcome> {
  const {
    confirm,
    onProgress,
    signal,
    wait = pageWait,
    registry = runningJobs,
    pollIntervalMs = JOB_POLL_INTERVAL_MS,
    maxTries = JOB_POLL_MAX_TRIES,
  } = options;
  const reportStatusId = Number(payload.reportStatusId);
  let name = options.name ?? jobDisplayName(null, reportStatusId);

  if (!registry.claim(payload)) throw new JobError('running', name);
  try {
    throwIfAborted(signal);
    let answer = await postJob(payload, signal);
    if (answer.jobStatus === 'FAILED_PREVIOUSLY') {
      const force = await confirm({ message: JOB_MESSAGES.failedPreviously, error: answer.error, name });
      throwIfAborted(signal);
      if (!force) return 'DECLINED';
      answer = await postJob({ ...payload, forceTrigger: true }, signal);
    }
    onProgress?.({ jobStatus: answer.jobStatus, percent: null, record: null, tries: 0 });

    let status = answer.jobStatus;
    let error = answer.error;
    let tries = 0;
    // A poll answer that is neither a record nor a status (a transient failure) keeps the last one.
    while (IN_PROGRESS.has(status)) {
      if (tries >= maxTries) throw new JobError('timeout', name);
      await wait(pollIntervalMs, signal);
      tries += 1;
      let polled: { status: TJobStatus; error: string | null; record: TJobProgress | null };
      try {
        polled = await poll(payload, reportStatusId, signal);
      } catch (cause) {
        throwIfAborted(signal);
        if (!isTransient(cause)) throw cause;
        console.warn(`Job poll ${tries} of ${name} got no answer`, cause);
        continue;
      }
      status = polled.status;
      error = polled.error;
      if (!options.name && polled.record?.patientName) {
        name = jobDisplayName(polled.record.patientName, reportStatusId);
      }
      onProgress?.({
        jobStatus: status,
        percent: polled.record ? Math.min(100, Math.max(0, polled.record.progress)) : null,
        record: polled.record,
        tries,
      });
    }
    if (status === 'COMPLETED') return 'COMPLETED';
    throw new JobError('failed', name, error);
  } finally {
    registry.release(payload);
  }
}

async function poll(payload: TJobRequest, reportStatusId: number, signal: AbortSignal | undefined) {
  try {
    const record = await fetchJobProgress(reportStatusId, payload.jobName, signal);
    return { status: record.jobStatus as TJobStatus, error: record.error, record };
  } catch (cause) {
    if (!(cause instanceof ApiError) || cause.status !== 404) throw cause;
  }
  const answer = await postJob({ ...payload, forceTrigger: false, recreateZip: false }, signal);
  return { status: answer.jobStatus, error: answer.error, record: null };
}
