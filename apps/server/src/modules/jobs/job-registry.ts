import type { FastifyBaseLogger } from 'fastify';
import type { TJobName } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { runZipJob } from '../zip/zip-job.js';
import { JobRunner, type TJobHandler } from './job-runner.js';

/** What each job name runs. */
export const JOB_HANDLERS: Record<TJobName, TJobHandler> = {
  ZIP_STUDY: runZipJob,
};

const runners = new WeakMap<AppContext, JobRunner>();

/**
 * The job runner of an app (one per AppContext, made on first use). The jobs routes send to it;
 * main.ts starts its workers and the routes' onClose hook stops it.
 */
export function jobRunnerOf(ctx: AppContext, log: FastifyBaseLogger): JobRunner {
  let runner = runners.get(ctx);
  if (!runner) runners.set(ctx, (runner = new JobRunner(ctx, JOB_HANDLERS, log)));
  return runner;
}
