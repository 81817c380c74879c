import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DASHBOARD_ROLES,
  ZDashboard,
  ZDashboardRequest,
  ZDashboardStudiesRequest,
  ZDashboardStudyPage,
  hasRole,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { listDashboardStudies, readDashboard } from './dashboard.js';

/** The dashboards of issue 24 §3 (ours: the spec shows no dashboard call). */
export const dashboardsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['dashboards'];
  const onRequest = app.requirePermission((roles) => hasRole(roles, ...DASHBOARD_ROLES));

  app.get(
    '/dashboard',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Volumes, turnaround, open cases and throughput for a range of days',
        description:
          'startTime and endTime are days (yyyy-MM-dd) of the group display time zone, at most 180 days. ' +
          'A doctor counts their own work, a center (with enableDashboardViewer) and a lab supervisor ' +
          'their center, a dashboard viewer and a group admin the group.',
        querystring: ZDashboardRequest,
        response: { 200: ZDashboard, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => readDashboard(app.ctx, authOf(request), request.query),
  );

  app.get(
    '/dashboard/studies',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The study rows behind one number of the dashboard, a page at a time',
        querystring: ZDashboardStudiesRequest,
        response: { 200: ZDashboardStudyPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => listDashboardStudies(app.ctx, authOf(request), request.query),
  );
};
