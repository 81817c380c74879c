import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZReferringDoctor,
  ZReferringDoctorInput,
  ZReferringDoctorPage,
  ZReferringDoctorSearch,
  ZReferringDoctorUpdate,
  canUseLab,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import {
  createReferringDoctor,
  searchReferringDoctors,
  updateReferringDoctor,
} from './lab-referring-doctors.service.js';

/** The lab's referring doctors (spec-lab §5 Referring doctor, §7 Lab). */
export const labReferringDoctorsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['lab'];
  const onRequest = app.requirePermission(canUseLab);

  app.post(
    '/lab/referring-doctor',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          "Create a referring doctor (active; department one of the lab's referring doctor departments)",
        body: ZReferringDoctorInput,
        response: { 200: ZReferringDoctor, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => createReferringDoctor(app.ctx, authOf(request), request.body),
  );

  app.put(
    '/lab/referring-doctor',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Update a referring doctor (its department is fixed once set; active toggles); 409 when it changed since `version` was read',
        body: ZReferringDoctorUpdate,
        response: { 200: ZReferringDoctor, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => updateReferringDoctor(app.ctx, authOf(request), request.body),
  );

  app.post(
    '/lab/referring-doctor/search',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Referring doctors by name piece or mobile prefix, departments and active state; paged',
        body: ZReferringDoctorSearch,
        response: { 200: ZReferringDoctorPage, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => searchReferringDoctors(app.ctx.db, authOf(request), request.body),
  );
};
