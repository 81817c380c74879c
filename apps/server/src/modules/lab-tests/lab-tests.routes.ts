import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAllTestSearch,
  ZLabTest,
  ZLabTestCreate,
  ZLabTestPage,
  ZLabTestSearch,
  ZLabTestUpdate,
  canUseLab,
  isLabAdmin,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import {
  createLabTest,
  listLabTests,
  searchBillableTests,
  searchLabTests,
  updateLabTest,
} from './lab-tests.js';

/**
 * The lab's test catalogue (spec-lab §2 test dashboard, §5 Test, §7 Lab): read by the lab staff
 * (canUseLab), written by the supervisor (isLabAdmin). Every query is the caller's lab only.
 */
export const labTestsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['lab'];
  const labStaff = app.requirePermission(canUseLab);
  // isLabAdmin is a lab role, so it implies canUseLab.
  const labAdmin = app.requirePermission((roles) => canUseLab(roles) && isLabAdmin(roles));

  app.get(
    '/lab/test/get-all',
    {
      onRequest: labStaff,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Every test of the caller's lab, inactive ones too, by code",
        response: { 200: z.array(ZLabTest), ...errorResponses(401, 403) },
      },
    },
    (request) => listLabTests(app.ctx.db, authOf(request)),
  );

  app.post(
    '/lab/test',
    {
      onRequest: labAdmin,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Create a test (supervisor): NORMAL, or PACKAGE of NORMAL tests of the lab; code unique in the lab in any case (409)',
        body: ZLabTestCreate,
        response: { 200: ZLabTest, ...errorResponses(400, 401, 403, 409) },
      },
    },
    (request) => createLabTest(app.ctx, authOf(request), request.body),
  );

  app.put(
    '/lab/test',
    {
      onRequest: labAdmin,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Update a test (supervisor) read at `version` (409 when stale); the type cannot change (400); changes apply to new bills only',
        body: ZLabTestUpdate,
        response: { 200: ZLabTest, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => updateLabTest(app.ctx, authOf(request), request.body),
  );

  app.post(
    '/lab/all-test/get',
    {
      onRequest: labStaff,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          "The bill's test search: active tests only; without text the first 5 by code, else every word in code, name or modality",
        body: ZAllTestSearch,
        response: { 200: ZLabTestPage, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => searchBillableTests(app.ctx.db, authOf(request), request.body),
  );

  app.post(
    '/lab/test/search',
    {
      onRequest: labStaff,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'The test dashboard: tab (Active, Scheduled, All), added-date range, modalities, page; newest first',
        body: ZLabTestSearch,
        response: { 200: ZLabTestPage, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => searchLabTests(app.ctx.db, authOf(request), request.body),
  );
};
