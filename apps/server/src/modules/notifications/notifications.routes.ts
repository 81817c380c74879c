import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZNotificationsPage,
  ZNotificationsQuery,
  ZNotificationsSeenRequest,
  ZNotificationsSeenResponse,
  hasNotifications,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { listNotifications, markNotificationsSeen } from './notifications.js';

/**
 * The bell (issue 23 §2; README.md). Roles that are no audience of anything (core
 * `hasNotifications`) get 403 before any row is read.
 */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['notifications'];
  const told = { onRequest: app.requirePermission(hasNotifications) };

  app.get(
    '/notifications',
    {
      ...told,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The caller's unseen count and notifications, newest first (page on with `before`)",
        querystring: ZNotificationsQuery,
        response: { 200: ZNotificationsPage, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => listNotifications(app.ctx, authOf(request), request.query),
  );

  app.post(
    '/notifications/seen',
    {
      ...told,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Mark notifications seen by the caller (ids not the caller's are ignored)",
        body: ZNotificationsSeenRequest,
        response: { 200: ZNotificationsSeenResponse, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => markNotificationsSeen(app.ctx, authOf(request), request.body.ids),
  );

  app.post(
    '/notifications/all-seen',
    {
      ...told,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Mark every one of the caller's notifications seen",
        response: { 200: ZNotificationsSeenResponse, ...errorResponses(401, 403) },
      },
    },
    (request) => markNotificationsSeen(app.ctx, authOf(request), null),
  );
};
