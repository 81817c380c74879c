import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZLabTestAttributesSave, ZLabTestAttributesStored, canUseLab, isLabAdmin } from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { labOwnerOf } from './lab-owner.js';
import { loadTestAttributes, saveTestAttributes } from './lab-test-attributes.js';

/** LAB_TEST_ATTRIBUTES (spec-lab §3): read by the lab staff, saved by the supervisor. */
export const labTestAttributesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['lab'];
  const labStaff = app.requirePermission(canUseLab);
  const labAdmin = app.requirePermission((roles) => canUseLab(roles) && isLabAdmin(roles));

  app.get(
    '/lab/test-attributes',
    {
      onRequest: labStaff,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          "The lab's test attribute definitions (film size and contrast by modality) and their version",
        response: { 200: ZLabTestAttributesStored, ...errorResponses(401, 403) },
      },
    },
    (request) => loadTestAttributes(app.ctx.db, labOwnerOf(authOf(request))),
  );

  app.put(
    '/lab/test-attributes',
    {
      onRequest: labAdmin,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Replace the test attribute definitions (supervisor), read at `version` (0 when none is stored; 409 when stale)',
        body: ZLabTestAttributesSave,
        response: { 200: ZLabTestAttributesStored, ...errorResponses(400, 401, 403, 409) },
      },
    },
    (request) => saveTestAttributes(app.ctx, authOf(request), request.body),
  );
};
