import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZTurnaroundAtRiskResponse, canSeeTurnaroundAtRisk } from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { listAtRisk } from './at-risk.js';

/**
 * Turnaround at risk (issue 24 §4; README.md). Those who may assign a study (core
 * canSeeTurnaroundAtRisk) read it; others get 403 before anything is read.
 */
export const turnaroundRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/turnaround/at-risk',
    {
      onRequest: app.requirePermission(canSeeTurnaroundAtRisk),
      schema: {
        tags: ['turnaround'],
        security: SIGNED_IN,
        summary:
          'The open studies at risk of missing the sign-off limit, or past it, with the forecast and a suggested doctor',
        response: { 200: ZTurnaroundAtRiskResponse, ...errorResponses(401, 403) },
      },
    },
    (request) => listAtRisk(app.ctx, authOf(request)),
  );
};
