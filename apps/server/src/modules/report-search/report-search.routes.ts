import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZReportSearchAnswer, ZReportSearchRequest, canSearchReports } from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { searchReports } from './search-reports.js';

/** spec-core §7 POST /query/search: the report search page's call (issue 24 §2). */
export const reportSearchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/query/search',
    {
      onRequest: app.requirePermission(canSearchReports),
      schema: {
        tags: ['report-search'],
        security: SIGNED_IN,
        summary:
          'Search the signed-off reports the caller may see (keywords, modality, tag, signed-off days)',
        description:
          "Newest sign-off first. total.value is exact up to 10,000 matches (relation 'eq'), else 10,000 with " +
          "relation 'gte'. A keyword the group's reports never had is searched as its closest words. " +
          "403 'You are not allowed to view this page' when the group's enableReportSearch is off.",
        body: ZReportSearchRequest,
        response: { 200: ZReportSearchAnswer, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => searchReports(app.ctx.db, authOf(request), request.body),
  );
};
