import { ApiError } from '../../api/client';
import { JobError } from '../jobs/run-job';
import { DownloadError, downloadFailedMessage, type TZipPhase } from './zip-download';

/** One study that could not be downloaded, as the dialog and the snackbar show it. */
export interface TZipFailure {
  studyId: number;
  name: string;
  /** The spec-core §8 text ('Job failed {name} {error}', 'Failed to download {name}', …) or the server's refusal. */
  message: string;
  /** More about it when known (the reason of a failed file transfer). */
  detail: string | null;
}

export type TZipDownloadState =
  | { status: 'idle' }
  | {
      status: 'running';
      total: number;
      /** 0-based index of the study in hand. */
      index: number;
      name: string;
      phase: TZipPhase | { step: 'waiting' };
      saved: number;
      failures: TZipFailure[];
    }
  | { status: 'finished'; total: number; saved: number; declined: number; failures: TZipFailure[] }
  | { status: 'cancelled'; total: number; saved: number; failures: TZipFailure[] };

/**
 * What the user reads about a failed study. A refusal of the server (the spec-core §5 texts) shows
 * the server's message; session trouble (a failure kind other than 'message') is the app's to show
 * and reads here as 'Failed to download {name}'.
 */
export function describeZipFailure(error: unknown, studyId: number, name: string): TZipFailure {
  if (error instanceof JobError) return { studyId, name, message: error.message, detail: null };
  if (error instanceof DownloadError) return { studyId, name, message: error.message, detail: error.reason };
  if (error instanceof ApiError && error.failure.kind === 'message') {
    return { studyId, name, message: error.failure.text, detail: null };
  }
  return {
    studyId,
    name,
    message: downloadFailedMessage(name),
    detail: error instanceof ApiError ? null : error instanceof Error ? error.message : null,
  };
}
