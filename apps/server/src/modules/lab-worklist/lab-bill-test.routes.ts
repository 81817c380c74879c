import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZLabBillTestSearchRequest, ZRisPage, canUseLab } from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { searchLabBillTests } from './lab-bill-test-search.js';

/** The test-level dashboard's search (spec-lab §2 /lab/lab-bill-test, §7). */
export const labBillTestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/lab/lab-bill-test/search',
    {
      onRequest: app.requirePermission(canUseLab),
      schema: {
        tags: ['lab'],
        security: SIGNED_IN,
        summary:
          "The lab's bill lines with their report status (PENDING until a study is linked): tabs by the cancelled and scheduled flags, bill-date range, report statuses, modality, paged",
        body: ZLabBillTestSearchRequest,
        response: { 200: ZRisPage, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => searchLabBillTests(app.ctx.db, authOf(request), request.body),
  );
};
