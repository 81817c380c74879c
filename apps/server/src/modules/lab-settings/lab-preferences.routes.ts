import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZLabPreferences, canReadLabPreferences } from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { loadLabPreferences } from './lab-preferences.js';

/** spec-lab §7 Lab: GET /api/lab/get-preferences. */
export const labPreferencesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/lab/get-preferences',
    {
      onRequest: app.requirePermission(canReadLabPreferences),
      schema: {
        tags: ['lab'],
        security: SIGNED_IN,
        summary:
          "The lab settings of the caller's center: slots, categories and priorities, test attributes, departments",
        response: { 200: ZLabPreferences, ...errorResponses(401, 403) },
      },
    },
    (request) => loadLabPreferences(app.ctx.db, authOf(request).user),
  );
};
