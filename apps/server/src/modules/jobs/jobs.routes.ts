import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { JOB_NAMES, ZJobProgress, ZJobRequest, ZJobRunResponse } from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { zipRoutes } from '../zip/zip.routes.js';
import { jobRunnerOf } from './job-registry.js';
import { jobProgress, runJob } from './run-job.js';

/** Jobs (spec-core §4 Job run, §7 POST /batch/run) and the zip downloads they prepare. */
export const jobsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['jobs'];
  const runner = jobRunnerOf(app.ctx, app.log);
  app.addHook('onClose', () => runner.stop());

  app.post(
    '/batch/run',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Runs a job for a study, or answers the status of its current or last run',
        description:
          'jobStatus: QUEUED or RUNNING (in progress: poll GET /batch/progress/{reportStatusId}), COMPLETED (a current zip exists and recreateZip is false), FAILED_PREVIOUSLY (the last run failed less than 30 minutes ago; send forceTrigger to run again).',
        body: ZJobRequest,
        response: { 200: ZJobRunResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => runJob(app.ctx, runner, authOf(request), request.body),
  );

  app.get(
    '/batch/progress/:reportStatusId',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The progress record of the newest run of a job for a study',
        params: z.object({ reportStatusId: z.coerce.number().int().positive() }),
        querystring: z.object({ jobName: z.enum(JOB_NAMES).optional().default('ZIP_STUDY') }),
        response: { 200: ZJobProgress, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => jobProgress(app.ctx, authOf(request), request.query.jobName, request.params.reportStatusId),
  );

  await app.register(zipRoutes);
};
