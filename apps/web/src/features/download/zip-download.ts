import { ZZipLinkResponse, formatErrorMessage, type TZipAnonymizationType } from '@radflow/core';
import { ApiError, apiRequest, deviceHeaders, parseBody } from '../../api/client';
import { abortError, isAbortError, throwIfAborted, wait as pageWait, type TWait } from '../jobs/abortable';
import { jobDisplayName } from '../jobs/job-messages';
import { runJob, type JobRegistry, type TForcePrompt, type TJobRunProgress } from '../jobs/run-job';

/** spec-core §8. */
export const downloadFailedMessage = (name: string) => `Failed to download ${name}`;

/** spec-core §4 Zip download, §9: the wait between the downloads of several studies. */
export const BETWEEN_DOWNLOADS_MS = 2_000;

/** How long the saved file's object URL lives after the click (the browser has taken it by then). */
export const OBJECT_URL_LIFETIME_MS = 10_000;

/** The fields of a study row (spec-core §3) a zip download reads. */
export interface TZipStudy {
  /** The report-status id. */
  id: number;
  /** The Study Instance UID. */
  instanceId?: string | null;
  patientName?: string | null;
}

/** A download that went wrong after the job: the spec text, and the reason when one is known. */
export class DownloadError extends Error {
  readonly reason: string | null;
  constructor(name: string, reason: string | null) {
    super(downloadFailedMessage(name));
    this.name = 'DownloadError';
    this.reason = reason;
  }
}

/** Where one study's download stands. */
export type TZipPhase =
  | { step: 'preparing'; percent: number | null; job: TJobRunProgress | null }
  | { step: 'downloading'; percent: number | null; loaded: number; total: number | null };

export interface TZipDownloadOptions {
  /** The failed-previously question (see runJob). */
  confirm: (prompt: TForcePrompt) => Promise<boolean>;
  onPhase?: (phase: TZipPhase) => void;
  signal?: AbortSignal;
  /** The user's proxyUrl (spec-core §3 Current user); when set the link goes through it. */
  proxyUrl?: string | null;
  zipAnonymizationTypeEnum?: TZipAnonymizationType | null;
  recreateZip?: boolean;
  /** Saves the file; default: an object URL clicked through an `<a download>`. */
  save?: (blob: Blob, fileName: string) => void;
  random?: () => number;
  wait?: TWait;
  registry?: JobRegistry;
}

/** Percent of a transfer, whole, never above 100; null when the size is unknown. */
export function downloadPercent(loaded: number, total: number | null | undefined): number | null {
  if (!total || total <= 0) return null;
  return Math.max(0, Math.min(100, Math.floor((loaded / total) * 100)));
}

/** `<study id>_<random number>.zip` (spec-core §4 Zip download). */
export function zipFileName(studyId: number | string, random: () => number = Math.random): string {
  return `${String(studyId)}_${Math.floor(random() * 1_000_000)}.zip`;
}

/**
 * The proxy wrapper of spec-core §4: with the user's proxyUrl set, the link is prefixed with it. A
 * link that is a path ('/api/…') is joined to the proxy with one slash; a full URL is prefixed as it
 * is (proxies of the form 'https://proxy.example/?url=' or 'https://proxy.example/').
 */
export function withProxy(link: string, proxyUrl: string | null | undefined): string {
  const proxy = proxyUrl?.trim();
  if (!proxy) return link;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(link)) return `${proxy}${link}`;
  return `${proxy.replace(/\/+$/, '')}/${link.replace(/^\/+/, '')}`;
}

/** GET /api/dicom-web/zip-v2/complete/studies/link/{id}?withName=true → the signed download link. */
export async function fetchZipLink(
  reportStatusId: number,
  {
    signal,
    zipAnonymizationTypeEnum,
  }: { signal?: AbortSignal; zipAnonymizationTypeEnum?: TZipAnonymizationType | null },
): Promise<string> {
  const query = new URLSearchParams({ withName: 'true' });
  if (zipAnonymizationTypeEnum) query.set('zipAnonymizationTypeEnum', zipAnonymizationTypeEnum);
  const answer = await apiRequest(
    `/api/dicom-web/zip-v2/complete/studies/link/${reportStatusId}?${query.toString()}`,
    { schema: ZZipLinkResponse, signal, quiet: true },
  );
  return answer.data.zipUrl.downloadUrl;
}

function isSameOrigin(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/**
 * Fetches a file as a Blob with XMLHttpRequest (the browser may keep a large answer on disk, and the
 * progress events carry Content-Length as `total`). Same-origin requests carry the device headers;
 * a proxied one goes without (no pre-flight for a third party). Rejects with an AbortError when
 * aborted and with the server's reason (spec-core §8 text; binary error bodies decoded) otherwise.
 */
export function fetchFile(
  url: string,
  {
    signal,
    onProgress,
  }: { signal?: AbortSignal; onProgress?: (loaded: number, total: number | null) => void },
): Promise<Blob> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.open('GET', url);
    xhr.responseType = 'blob';
    if (isSameOrigin(url)) {
      for (const [name, value] of Object.entries(deviceHeaders())) {
        if (name !== 'Accept') xhr.setRequestHeader(name, value);
      }
    }
    xhr.addEventListener('progress', (event) => {
      onProgress?.(event.loaded, event.lengthComputable ? event.total : null);
    });
    xhr.addEventListener('load', () => {
      done();
      const blob = xhr.response instanceof Blob ? xhr.response : new Blob([]);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(blob);
        return;
      }
      void blob
        .text()
        .catch(() => '')
        .then((text) => reject(new Error(formatErrorMessage(parseBody(text)))));
    });
    const noAnswer = () => {
      done();
      reject(new Error('The server could not be reached'));
    };
    xhr.addEventListener('error', noAnswer);
    xhr.addEventListener('timeout', noAnswer);
    xhr.addEventListener('abort', () => {
      done();
      reject(abortError());
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send();
  });
}

/** Saves a Blob as a file: an object URL clicked through a hidden `<a download>`, revoked after. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(href), OBJECT_URL_LIFETIME_MS);
  }
}

/** The `{name}` of a study's job and download messages (see jobDisplayName). */
export const studyDisplayName = (study: TZipStudy) => jobDisplayName(study.patientName, study.id);

/** What became of one study: saved under a file name, or not wanted after the failed-previously question. */
export type TZipResult = { kind: 'saved'; fileName: string } | { kind: 'declined' };

/**
 * spec-core §4 Zip download for one study: the ZIP_STUDY job (runJob: duplicate refusal,
 * failed-previously confirm, poll), then the signed link, then the file with percent progress
 * (capped at 100), saved as `<id>_<random>.zip`. Rejects with:
 * - JobError ('Job still running / failed / timeout {name}');
 * - ApiError when the server refuses the job (spec-core §5 refusals, its message) or the session
 *   is gone (failure kind other than 'message': the caller reports it);
 * - DownloadError 'Failed to download {name}' with the reason when the link or the file fails;
 * - an AbortError when `signal` aborts.
 */
export async function downloadStudyZip(study: TZipStudy, options: TZipDownloadOptions): Promise<TZipResult> {
  const { signal, onPhase } = options;
  const name = studyDisplayName(study);
  onPhase?.({ step: 'preparing', percent: null, job: null });
  const outcome = await runJob(
    {
      jobName: 'ZIP_STUDY',
      studyId: study.instanceId ?? study.id,
      reportStatusId: study.id,
      zipAnonymizationTypeEnum: options.zipAnonymizationTypeEnum ?? null,
      recreateZip: options.recreateZip ?? false,
    },
    {
      confirm: options.confirm,
      signal,
      name,
      wait: options.wait,
      registry: options.registry,
      onProgress: (job) => onPhase?.({ step: 'preparing', percent: job.percent, job }),
    },
  );
  if (outcome === 'DECLINED') return { kind: 'declined' };

  try {
    onPhase?.({ step: 'downloading', percent: 0, loaded: 0, total: null });
    const link = await fetchZipLink(study.id, {
      signal,
      zipAnonymizationTypeEnum: options.zipAnonymizationTypeEnum,
    });
    const blob = await fetchFile(withProxy(link, options.proxyUrl), {
      signal,
      onProgress: (loaded, total) =>
        onPhase?.({ step: 'downloading', percent: downloadPercent(loaded, total), loaded, total }),
    });
    throwIfAborted(signal);
    onPhase?.({ step: 'downloading', percent: 100, loaded: blob.size, total: blob.size });
    const fileName = zipFileName(study.id, options.random);
    (options.save ?? saveBlob)(blob, fileName);
    return { kind: 'saved', fileName };
  } catch (cause) {
    if (isAbortError(cause) || signal?.aborted) throw cause;
    if (cause instanceof ApiError && cause.failure.kind !== 'message') throw cause;
    const reason = cause instanceof Error ? cause.message : null;
    throw new DownloadError(name, reason);
  }
}

export interface TManyZipOptions extends TZipDownloadOptions {
  /** Study `index` (0-based) starts. */
  onStudyStart?: (study: TZipStudy, index: number) => void;
  onStudyDone?: (study: TZipStudy, result: TZipResult) => void;
  /** A study failed; it was logged and the loop goes on. */
  onStudyFailed?: (study: TZipStudy, error: unknown) => void;
  /** The 2-second pause before the next study begins. */
  onPause?: (nextIndex: number) => void;
}

export interface TManyZipOutcome {
  saved: { study: TZipStudy; fileName: string }[];
  declined: TZipStudy[];
  failed: { study: TZipStudy; error: unknown }[];
}

/**
 * spec-core §4 Zip download for several studies: one after another with a 2-second wait between;
 * a failed study is logged and reported (onStudyFailed) and the loop continues. Aborting stops the
 * loop (rejects with an AbortError), and so does a lost session (rejects with that ApiError).
 */
export async function downloadManyZips(
  studies: readonly TZipStudy[],
  options: TManyZipOptions,
): Promise<TManyZipOutcome> {
  const wait = options.wait ?? pageWait;
  const outcome: TManyZipOutcome = { saved: [], declined: [], failed: [] };
  for (const [index, study] of studies.entries()) {
    if (index > 0) {
      options.onPause?.(index);
      await wait(BETWEEN_DOWNLOADS_MS, options.signal);
    }
    options.onStudyStart?.(study, index);
    try {
      const result = await downloadStudyZip(study, options);
      if (result.kind === 'saved') outcome.saved.push({ study, fileName: result.fileName });
      else outcome.declined.push(study);
      options.onStudyDone?.(study, result);
    } catch (error) {
      if (isAbortError(error) || options.signal?.aborted) throw error;
      // The session is gone (login again, device approval): the next studies would fail alike.
      if (error instanceof ApiError && error.failure.kind !== 'message') throw error;
      console.error(`Zip download of study ${study.id} failed`, error);
      outcome.failed.push({ study, error });
      options.onStudyFailed?.(study, error);
    }
  }
  return outcome;
}
