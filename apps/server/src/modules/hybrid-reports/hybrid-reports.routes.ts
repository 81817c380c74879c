import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZOfflineReportUpload, ZOfflineReportUploadResult, canDownloadRouter } from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { acceptOfflineReport } from './accept-offline-report.js';

/**
 * The center router's offline reports (issue 27 §4, apps/router/HYBRID.md). The router's API token
 * (a ROLE_CENTER user's) is the only credential it holds, so this call takes it (plugins/auth.ts
 * API_TOKEN_ROUTES) and names the hybrid doctor who wrote the report.
 */
export const hybridReportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/router/offline-report',
    {
      onRequest: app.requirePermission(canDownloadRouter),
      schema: {
        tags: ['router-releases'],
        security: SIGNED_IN,
        summary: 'Take up one report save written on the center router while the link was down',
        description:
          "Saves (or signs off) as the named offline-hybrid doctor through the report save rules. A repeated writeId answers SAME with the first save's version; a baseVersion that is not the newest stored one is 409 naming baseVersion, nothing written; 404 while the study is not in the cloud.",
        body: ZOfflineReportUpload,
        response: { 200: ZOfflineReportUploadResult, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => acceptOfflineReport(app.ctx, authOf(request), request.body),
  );
};
