import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZLabPrefix, ZLabPrefixResponse, canEditLabPrefix, canReadLabPrefix } from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { labPrefixOwnerOf, loadLabPrefix, saveLabPrefix } from './lab-prefix.js';

/** The lab's invoice and UHID numbering (spec-lab §3 lab prefix, §5, §7 Settings). */
export const labPrefixRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['lab'];

  app.get(
    '/lab/get-prefix',
    {
      onRequest: app.requirePermission(canReadLabPrefix),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The invoice and UHID prefixes and next sequences of the caller's center (or group)",
        response: { 200: ZLabPrefixResponse, ...errorResponses(401, 403) },
      },
    },
    (request) => loadLabPrefix(app.ctx.db, labPrefixOwnerOf(authOf(request))),
  );

  app.post(
    '/lab/add-prefix',
    {
      onRequest: app.requirePermission(canEditLabPrefix),
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Set the invoice and UHID prefixes (up to 20 letters, digits, "-", "/") and sequences (1 to 10^12); all four required',
        body: ZLabPrefix,
        response: { 200: ZLabPrefixResponse, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => saveLabPrefix(app.ctx, authOf(request), request.body),
  );
};
