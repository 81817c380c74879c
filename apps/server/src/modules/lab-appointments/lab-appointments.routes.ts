import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAppointmentList,
  ZAppointmentSearch,
  ZAppointmentSummary,
  ZAppointmentSummaryRequest,
  canUseLab,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { appointmentSummary, searchAppointments } from './appointment-search.js';

/** The appointment cards and the Detailed Summary of the front desk (spec-lab §2, §3 Appointment data). */
export const labAppointmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['lab'];
  const lab = { onRequest: app.requirePermission(canUseLab) };

  app.post(
    '/lab/appointments/search',
    {
      ...lab,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'The lab’s appointments (live bill lines holding a slot window) starting in [startTime, endTime), at most 31 days, with scheduled / paid and the report status',
        body: ZAppointmentSearch,
        response: { 200: ZAppointmentList, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => searchAppointments(app.ctx.db, authOf(request), request.body),
  );

  app.post(
    '/lab/appointments/summary',
    {
      ...lab,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'The Detailed Summary: appointment counts per name, per modality and in all, by state (scheduled, paid, partially paid), over Today, Tomorrow, Yesterday or a custom range of at most 31 days in the group’s zone',
        body: ZAppointmentSummaryRequest,
        response: { 200: ZAppointmentSummary, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => appointmentSummary(app.ctx, authOf(request), request.body),
  );
};
