import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAllPatientSearch,
  ZLabPatient,
  ZLabPatientInput,
  ZLabPatientPage,
  ZLabPatientUpdate,
  ZRegisterPatientSearch,
  ZRegisterPatientSearchAnswer,
  canUseLab,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { getPatient, registerPatient, updatePatient } from './lab-patients.service.js';
import { searchAllPatients, searchPatientsAsYouType } from './patient-search.js';

/** The lab's patients (spec-lab §5 Patient, §7 Lab): the receptionist's and supervisor's calls. */
export const labPatientsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['lab'];
  const onRequest = app.requirePermission(canUseLab);

  app.post(
    '/lab/register-patient',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Register a patient; the UHID is the lab's UHID prefix and next sequence",
        body: ZLabPatientInput,
        response: { 200: ZLabPatient, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => registerPatient(app.ctx, authOf(request), request.body),
  );

  app.put(
    '/lab/register-patient',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Update a patient of the lab; 409 when it changed since `version` was read',
        body: ZLabPatientUpdate,
        response: { 200: ZLabPatient, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => updatePatient(app.ctx, authOf(request), request.body),
  );

  app.get(
    '/lab/register-patient/:id',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'One patient of the lab (the bill screen opened with ?patientId=)',
        params: z.object({ id: z.coerce.number().int().positive() }),
        response: { 200: ZLabPatient, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => getPatient(app.ctx.db, authOf(request), request.params.id),
  );

  app.post(
    '/lab/register-patient/search',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Search as you type: up to 20 patients whose mobile starts with the digits or whose name holds the text; blank finds none',
        body: ZRegisterPatientSearch,
        response: { 200: ZRegisterPatientSearchAnswer, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => searchPatientsAsYouType(app.ctx.db, authOf(request), request.body),
  );

  app.post(
    '/lab/all-patient/search',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'The all-patients list: name, mobile and UHID prefixes, designation, gender; paged and sorted',
        body: ZAllPatientSearch,
        response: { 200: ZLabPatientPage, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => searchAllPatients(app.ctx.db, authOf(request), request.body),
  );
};
