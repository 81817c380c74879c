import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZOfflineAnnotationUpload,
  ZOfflineAnnotationUploadResult,
  ZOfflineReportGrant,
  ZOfflineReportUpload,
  ZOfflineReportUploadResult,
  ZOfflineResolveResult,
  ZOfflineResolveUpload,
  canDownloadRouter,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { acceptOfflineAnnotation } from './accept-offline-annotation.js';
import { acceptOfflineReport } from './accept-offline-report.js';
import { acceptOfflineResolve } from './accept-offline-resolve.js';
import { mintOfflineGrant } from './offline-grants.js';

/**
 * The center router's offline reports (issue 27 §4, apps/router/HYBRID.md). The router's API token
 * (a ROLE_CENTER user's) takes the reports up (plugins/auth.ts API_TOKEN_ROUTES); each names the
 * hybrid doctor who wrote it and carries that doctor's grant, minted by their own online sign-in.
 */
export const hybridReportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/router/offline-grant',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['router-releases'],
        security: SIGNED_IN,
        summary: "A hybrid doctor's grant for the router they sign in on",
        description:
          "Asked by the router with the doctor's own session at their online sign-in; the router sends the grant with each of their offline saves. Hybrid doctors only (403 otherwise); never with an API token.",
        response: { 200: ZOfflineReportGrant, ...errorResponses(401, 403) },
      },
    },
    (request) => mintOfflineGrant(app.ctx, authOf(request)),
  );

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

  app.post(
    '/router/offline-resolve',
    {
      onRequest: app.requirePermission(canDownloadRouter),
      schema: {
        tags: ['router-releases'],
        security: SIGNED_IN,
        summary: 'Resolve a study the center router holds in conflict',
        description:
          "KEEP_CLOUD answers the cloud's main report, writing nothing. ADDENDUM adds the offline text as the named hybrid doctor: an addendum of a signed-off report (only the doctor who signed it off: 403), else a new version on top of the newest (409 while another doctor holds the row). A repeated resolutionId answers SAME.",
        body: ZOfflineResolveUpload,
        response: { 200: ZOfflineResolveResult, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => acceptOfflineResolve(app.ctx, authOf(request), request.body),
  );

  app.post(
    '/router/offline-annotation',
    {
      onRequest: app.requirePermission(canDownloadRouter),
      schema: {
        tags: ['router-releases'],
        security: SIGNED_IN,
        summary: 'Take up one measurement drawn in the center router’s offline viewer',
        description:
          "Saves (annotation) or deletes (annotation: null) the measurement on the study's row as the named offline-hybrid doctor, through the viewer's annotation rules; a repeat saves the same content again, a delete of a measurement the cloud does not hold is done. 403 when the author may not annotate the study or the measurement is another user's; 404 while the study is not in the cloud.",
        body: ZOfflineAnnotationUpload,
        response: { 200: ZOfflineAnnotationUploadResult, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => acceptOfflineAnnotation(app.ctx, authOf(request), request.body),
  );
};
