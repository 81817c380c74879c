import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type TRole,
  ZCenterPatients,
  ZCenterPatientsQuery,
  ZCorrectMobileBody,
  ZCorrectMobileResponse,
  ZCustomerReports,
  ZReportMessages,
  ZReportStatusIdParams,
  ZShareResponse,
  hasRole,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import type { TSharingDeps } from '../study-sharing/share-study.js';
import {
  PATIENTS_SHOWN,
  correctPatientMobile,
  listCenterPatients,
  listPatientMessages,
  sendReportToPatient,
} from './center-patients.js';
import { listCustomerReports } from './customer-reports.js';

const isCustomer = (roles: readonly TRole[]) => hasRole(roles, 'ROLE_CUSTOMER');
const isCenterCustomer = (roles: readonly TRole[]) => hasRole(roles, 'ROLE_CENTER_CUSTOMER');

/**
 * The patient's own page (/manage-customer-report) and the center customer's patient page
 * (/manage-patient), issue 26 §4. Decisions: DECISIONS.md beside this file.
 */
export const customerPagesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['customer-pages'];
  const depsOf = (request: FastifyRequest): TSharingDeps => ({
    ctx: app.ctx,
    publicUrl: app.ctx.publicUrlOf(request),
  });
  const customer = { onRequest: app.requirePermission(isCustomer) };
  const centerCustomer = { onRequest: app.requirePermission(isCenterCustomer) };
  const params = ZReportStatusIdParams;

  app.get(
    '/customer-report/reports',
    {
      ...customer,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The signed-in patient's signed-off reports, with any payment due and its pay link",
        response: { 200: ZCustomerReports, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return { reports: await listCustomerReports(app.ctx.db, authOf(request)) };
    },
  );

  app.get(
    '/manage-patient/patients',
    {
      ...centerCustomer,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The center's patients and studies, with their mobile and what was sent (newest first)",
        querystring: ZCenterPatientsQuery,
        response: { 200: ZCenterPatients, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      patients: await listCenterPatients(depsOf(request), authOf(request), request.query.search),
      limit: PATIENTS_SHOWN,
    }),
  );

  app.post(
    '/manage-patient/send/:id',
    {
      ...centerCustomer,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Send the signed-off report's link to the patient's mobile (SMS and WhatsApp)",
        params,
        response: { 200: ZShareResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => sendReportToPatient(depsOf(request), authOf(request), request.params.id),
  );

  app.get(
    '/manage-patient/messages/:id',
    {
      ...centerCustomer,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'What was sent for the study (channel, recipient, status, time), newest first',
        params,
        response: { 200: ZReportMessages, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => listPatientMessages(depsOf(request), authOf(request), request.params.id),
  );

  app.post(
    '/manage-patient/mobile/:id',
    {
      ...centerCustomer,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Correct the patient's mobile (409 when it was changed since the screen read it)",
        params,
        body: ZCorrectMobileBody,
        response: { 200: ZCorrectMobileResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => correctPatientMobile(depsOf(request), authOf(request), request.params.id, request.body),
  );
};
