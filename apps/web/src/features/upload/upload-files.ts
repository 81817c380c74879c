import {
  RETRY_DELAY_MS,
  RETRY_TRIES,
  ZUploadResponse,
  type TUploadFileResult,
  type TUploadResponse,
} from '@radflow/core';
import { failedRequest, type ApiError } from '../../api/client';
import {
  BATCH_LIMITS,
  splitIntoBatches,
  totalBytes,
  uploadPercent,
  type TBatchLimits,
} from './upload-batches';
import { abortError, postForm } from './xhr-post';

export const UPLOAD_PATH = '/api/dicom-web/upload';

export interface TUploadProgress {
  filesDone: number;
  filesTotal: number;
  bytesSent: number;
  bytesTotal: number;
  /** 0–100, never above. */
  percent: number;
  /** Set while a failed batch waits for its next try (2 or 3). */
  retryingTry?: number;
  /** A batch is sent whole and the server is still checking and storing it. */
  awaitingServer?: boolean;
}

export interface TUploadOptions {
  files: readonly File[];
  /** The center the new studies belong to (group users; a center user's own center is forced). */
  centerId?: number;
  /** Attach every file to this existing study (the upload-study action, right after Create Study). */
  reportStatusId?: number;
  onProgress?: (progress: TUploadProgress) => void;
  signal?: AbortSignal;
  limits?: TBatchLimits;
}

export interface TUploadOutcome {
  filesTotal: number;
  stored: number;
  failed: number;
  /** Every file's result in the order the server gave them. */
  results: TUploadFileResult[];
  /** Results with ok:false, each with its reason. */
  refused: TUploadFileResult[];
  reportStatusIds: number[];
}

/** A failed try is worth repeating only when the server did not answer or broke down. */
function isRetryable(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function buildForm(batch: readonly File[], options: TUploadOptions): FormData {
  const form = new FormData();
  if (options.centerId !== undefined) form.append('centerId', String(options.centerId));
  if (options.reportStatusId !== undefined) form.append('reportStatusId', String(options.reportStatusId));
  // A file from a picked folder keeps its relative path, so refusals name it unambiguously.
  for (const file of batch) form.append('file', file, file.webkitRelativePath || file.name);
  return form;
}

/**
 * Browser upload (issue 3 §3, spec-core §2 upload-study action): the files go to
 * POST /api/dicom-web/upload in batches, one after the other, with byte progress. A batch that fails
 * for want of an answer or with a 5xx is tried again, RETRY_TRIES tries in all, RETRY_DELAY_MS
 * apart (spec-core §9 retry helper); any other failure ends the upload with the server's message.
 * Files the server refuses (not DICOM, truncated, …) are not failures: they come back in `refused`.
 *
 * Rejects with an ApiError (quiet: the caller shows it) or, when `signal` aborts, an AbortError.
 */
export async function uploadFiles(options: TUploadOptions): Promise<TUploadOutcome> {
  const { files, onProgress, signal } = options;
  const batches = splitIntoBatches(files, options.limits ?? BATCH_LIMITS);
  const bytesTotal = totalBytes(files);
  const filesTotal = files.length;
  let filesDone = 0;
  let bytesDone = 0;

  const report = (bytesSent: number, extra: Pick<TUploadProgress, 'retryingTry' | 'awaitingServer'> = {}) =>
    onProgress?.({
      filesDone,
      filesTotal,
      bytesSent,
      bytesTotal,
      percent: uploadPercent(bytesSent, bytesTotal),
      ...extra,
    });

  const outcome: TUploadOutcome = {
    filesTotal,
    stored: 0,
    failed: 0,
    results: [],
    refused: [],
    reportStatusIds: [],
  };
  report(0);

  for (const batch of batches) {
    const batchBytes = totalBytes(batch);
    const answer = await sendWithRetries(
      batch,
      options,
      (fraction) => report(bytesDone + batchBytes * fraction, fraction >= 1 ? { awaitingServer: true } : {}),
      (nextTry) => report(bytesDone, { retryingTry: nextTry }),
    );
    filesDone += batch.length;
    bytesDone += batchBytes;
    outcome.stored += answer.stored;
    outcome.failed += answer.failed;
    outcome.results.push(...answer.files);
    outcome.refused.push(...answer.files.filter((f) => !f.ok));
    for (const id of answer.reportStatusIds) {
      if (!outcome.reportStatusIds.includes(id)) outcome.reportStatusIds.push(id);
    }
    report(bytesDone);
  }
  if (signal?.aborted) throw abortError();
  return outcome;
}

async function sendWithRetries(
  batch: readonly File[],
  options: TUploadOptions,
  onFraction: (fraction: number) => void,
  onRetry: (nextTry: number) => void,
): Promise<TUploadResponse> {
  let lastError: ApiError | undefined;
  for (let attempt = 1; attempt <= RETRY_TRIES; attempt += 1) {
    if (attempt > 1) {
      onRetry(attempt);
      await wait(RETRY_DELAY_MS, options.signal);
    }
    const { status, body } = await postForm(UPLOAD_PATH, buildForm(batch, options), {
      signal: options.signal,
      onProgress: (loaded, total) => onFraction(total > 0 ? Math.min(1, loaded / total) : 0),
    });
    if (status >= 200 && status < 300) {
      const parsed = ZUploadResponse.safeParse(body);
      if (parsed.success) return parsed.data;
      console.error(`Unexpected answer from ${UPLOAD_PATH}`, parsed.error);
      throw failedRequest(status, null, true);
    }
    lastError = failedRequest(status, body, true);
    if (!isRetryable(status)) throw lastError;
    onFraction(0);
  }
  throw lastError ?? failedRequest(0, null, true);
}
