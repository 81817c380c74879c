import {
  ZJobProgress,
  ZJobRunResponse,
  type TJobName,
  type TJobProgress,
  type TJobRequest,
  type TJobRunResponse,
} from '@radflow/core';
import { apiRequest } from '../../api/client';

/** The job calls of spec-core §7 "Jobs and downloads". Quiet: the caller shows what went wrong. */

export const JOB_RUN_PATH = '/api/batch/run';
export const jobProgressPath = (reportStatusId: number, jobName: TJobName) =>
  `/api/batch/progress/${reportStatusId}?jobName=${encodeURIComponent(jobName)}`;

/** POST /api/batch/run: starts the job, or answers the status of its current or last run. */
export function postJob(payload: TJobRequest, signal?: AbortSignal): Promise<TJobRunResponse> {
  return apiRequest(JOB_RUN_PATH, { json: payload, schema: ZJobRunResponse, signal, quiet: true });
}

/** GET /api/batch/progress/{reportStatusId}: the progress record of the job's newest run. */
export function fetchJobProgress(
  reportStatusId: number,
  jobName: TJobName,
  signal?: AbortSignal,
): Promise<TJobProgress> {
  return apiRequest(jobProgressPath(reportStatusId, jobName), {
    schema: ZJobProgress,
    signal,
    quiet: true,
  });
}
