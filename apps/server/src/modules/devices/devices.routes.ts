import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAuditPage,
  ZAuditRow,
  ZDeviceHeaders,
  ZLoginLogPage,
  ZSearchTableRequest,
  ZUpdateApprovalRequest,
  canManageLoginAudit,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, deviceOf, errorResponses } from '../http.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { requiresDeviceApproval } from '../device-approval/device-sign-in.js';
import { currentDeviceStatus, searchDevices, searchLoginLogs, updateApprovalStatus } from './login-audit.js';

/** The login audit (spec-core §7: /user/audit…; the /audit-logins screen). */
export const devicesRoutes: FastifyPluginAsyncZod = async (app) => {
  const manager = { onRequest: app.requirePermission(canManageLoginAudit) };
  const tags = ['login audit'];

  app.post(
    '/user/audit/search',
    {
      ...manager,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The devices of the group's users (filters: email, status, deviceId)",
        body: ZSearchTableRequest,
        response: { 200: ZAuditPage, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => searchDevices(app.ctx.db, authOf(request).user.groupId, request.body),
  );

  app.post(
    '/user/audit/search-logs',
    {
      ...manager,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          "The group's sign-in events, newest first (filters: email, eventType, deviceId; startTime, endTime)",
        body: ZSearchTableRequest,
        response: { 200: ZLoginLogPage, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => searchLoginLogs(app.ctx.db, authOf(request).user.groupId, request.body),
  );

  app.post(
    '/user/audit/update-approval-status',
    {
      ...manager,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Approve or reject a device of a user of the group',
        description:
          'Setting the status the device already has answers 409 with errorStatusCode 4002 (ALREADY_PRESENT).',
        body: ZUpdateApprovalRequest,
        response: { 200: ZAuditRow, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => {
      const { user } = authOf(request);
      return updateApprovalStatus(app.ctx, {
        actor: { email: user.email, groupId: user.groupId },
        ...request.body,
        clientAddress: request.ip,
      });
    },
  );

  app.get(
    '/user/audit',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The approval of the caller's current device (X-Device-Id)",
        headers: ZDeviceHeaders,
        response: { 200: ZAuditRow, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { user, roles } = authOf(request);
      const groupPrefs = await loadGroupPreferences(app.ctx.db, user.groupId);
      return currentDeviceStatus(app.ctx.db, {
        user,
        needsApproval: requiresDeviceApproval(groupPrefs, roles),
        ...deviceOf(request),
        now: app.ctx.now(),
      });
    },
  );
};
