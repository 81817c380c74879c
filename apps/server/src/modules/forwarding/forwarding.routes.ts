import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZEchoResult,
  ZForwardRecord,
  ZForwardSendRequest,
  ZForwardStatusQuery,
  ZForwardStatusResponse,
  ZForwardingPacs,
  ZForwardingPacsInput,
  canForwardToPacs,
} from '@radflow/core';
import { ZServerConfig } from '../../config.js';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { createForwardSend, forwardStatus, resendFailed } from './forward-send.js';
import {
  createForwardingPacs,
  deleteForwardingPacs,
  echoForwardingPacs,
  listForwardingPacs,
} from './forwarding-pacs.js';

export interface ForwardingRoutesOptions {
  /** Our AE title for C-ECHO tests; default: config DICOM_AET from the environment. */
  callingAet?: string;
  /** Called after a send or resend so the in-process worker starts at once. */
  onWork?: () => void;
}

const ZId = z.object({ id: z.coerce.number().int().positive() });
const ZSendId = z.object({ sendId: z.coerce.number().int().positive() });

/**
 * Forwarding to a PACS (issue 3 §6): the center's destinations (spec-lab §3/§5), a C-ECHO test,
 * sending a study and its per-study status with the case-send badge (spec-core §3, §4, §8).
 * Every route: signed in with a forwarding role (core `canForwardToPacs`); the group switch
 * addForwardingPacsFeature and the study's visibility are checked by the services.
 */
export const forwardingRoutes: FastifyPluginAsyncZod<ForwardingRoutesOptions> = async (app, opts) => {
  const callingAet = opts.callingAet ?? ZServerConfig.shape.DICOM_AET.parse(process.env.DICOM_AET);
  const tags = ['forwarding'];
  const onRequest = app.requirePermission(canForwardToPacs);

  app.get(
    '/forwarding-pacs',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          "A center's forwarding PACS list (a center user's own center; group staff name the center). " +
          "Empty: the web alerts 'Please create pacs server'",
        querystring: z.object({ centerId: z.coerce.number().int().positive().optional() }),
        response: { 200: z.array(ZForwardingPacs), ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => listForwardingPacs(app.ctx, authOf(request), { centerId: request.query.centerId }),
  );

  app.post(
    '/forwarding-pacs',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          "Adds a forwarding PACS (spec-lab §5: 'Please add all details'; IPv4 parts 0-255; port 1-65535). " +
          'Center users for their center, group admins for a named center of their group',
        body: ZForwardingPacsInput,
        response: { 200: ZForwardingPacs, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => createForwardingPacs(app.ctx, authOf(request), request.body),
  );

  app.delete(
    '/forwarding-pacs/:id',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Removes a forwarding PACS; sends already made keep their destination',
        params: ZId,
        response: { 200: z.object({ id: z.number().int() }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      await deleteForwardingPacs(app.ctx, authOf(request), request.params.id);
      return { id: request.params.id };
    },
  );

  app.post(
    '/forwarding-pacs/:id/echo',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'C-ECHO from our AE title (DICOM_AET) to the PACS: ok with the round trip, or why it failed',
        params: ZId,
        response: { 200: ZEchoResult, ...errorResponses(401, 403, 404) },
      },
    },
    (request) => echoForwardingPacs(app.ctx, authOf(request), request.params.id, callingAet),
  );

  app.post(
    '/forward/send',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Forwards a study to a forwarding PACS: a send record (IN_PROGRESS) with every instance PENDING; ' +
          'the server sends them by C-STORE and retries failures with back-off (30 s, 2 min, 10 min, 30 min)',
        body: ZForwardSendRequest,
        response: { 200: ZForwardRecord, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const record = await createForwardSend(app.ctx, authOf(request), request.body);
      opts.onWork?.();
      return record;
    },
  );

  app.get(
    '/forward/status',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Per study: its sends (destination, pending/success/failed counts, percentage) and the case-send ' +
          "badge ('Case Send', in-progress %, 'Case Failed'). Studies the caller may not see are left out",
        querystring: ZForwardStatusQuery,
        response: { 200: ZForwardStatusResponse, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => forwardStatus(app.ctx, authOf(request), request.query.reportStatusIds),
  );

  app.post(
    '/forward/:sendId/resend',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Sends the failed instances of a send again (fresh attempts)',
        params: ZSendId,
        response: { 200: ZForwardRecord, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const record = await resendFailed(app.ctx, authOf(request), request.params.sendId);
      opts.onWork?.();
      return record;
    },
  );
};
