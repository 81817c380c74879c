import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AppError,
  CRITICAL_RESULT_MESSAGES as M,
  type TRole,
  ZCriticalResult,
  ZCriticalResultIdParams,
  ZCriticalResults,
  ZCriticalResultsQuery,
  ZRaiseCriticalResultRequest,
  mayAcknowledgeCriticalResults,
  mayRaiseCriticalResults,
  mayReadCriticalResults,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import {
  acknowledgeCriticalResult,
  listCriticalResults,
  listOpenCriticalResults,
  raiseCriticalResult,
} from './critical-results.js';

/**
 * Closed-loop critical results (issue 23 §5; README.md). A role that may never raise, acknowledge or
 * read them gets 403 with the reason before the body is read or any row looked up; a study or result
 * the caller may not see answers 404 like a missing one.
 */
export const criticalResultsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['critical-results'];
  const gate = (rule: (roles: readonly TRole[]) => boolean, message: string): onRequestAsyncHookHandler =>
    async function (request, reply) {
      await app.requireUser.call(this, request, reply);
      if (!rule(authOf(request).roles)) throw new AppError('FORBIDDEN', message, 'roles');
    };

  app.post(
    '/critical-results',
    {
      onRequest: gate(mayRaiseCriticalResults, M.notRaiser),
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Raise a critical result on a study row: recorded, then sent at once to the center and the referring doctor (SMS, e-mail)',
        body: ZRaiseCriticalResultRequest,
        response: { 200: ZCriticalResult, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => raiseCriticalResult(app.ctx, authOf(request), request.body, app.ctx.publicUrlOf(request)),
  );

  app.get(
    '/critical-results',
    {
      onRequest: gate(mayReadCriticalResults, M.notReader),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "A study row's critical results, newest first, each with its steps",
        querystring: ZCriticalResultsQuery,
        response: { 200: ZCriticalResults, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => listCriticalResults(app.ctx, authOf(request), request.query.entityId),
  );

  app.get(
    '/critical-results/open',
    {
      onRequest: gate(mayReadCriticalResults, M.notReader),
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'The unacknowledged critical results on the studies the caller sees, each saying whether they may acknowledge it',
        response: { 200: ZCriticalResults, ...errorResponses(401, 403) },
      },
    },
    (request) => listOpenCriticalResults(app.ctx, authOf(request)),
  );

  app.post(
    '/critical-results/:id/acknowledge',
    {
      onRequest: gate(mayAcknowledgeCriticalResults, M.notAcknowledger),
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Acknowledge a critical result (center staff, the referring doctor, or after escalation a group admin); again is answered as it stands',
        params: ZCriticalResultIdParams,
        response: { 200: ZCriticalResult, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => acknowledgeCriticalResult(app.ctx, authOf(request), request.params.id),
  );
};
