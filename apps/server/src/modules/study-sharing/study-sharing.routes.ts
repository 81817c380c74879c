import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type TRole,
  ZReportStatusIdParams,
  ZSaveReferringDoctorRequest,
  ZSaveReferringDoctorResponse,
  ZSendEmailRequest,
  ZSendMessageRequest,
  ZReportMessages,
  ZShareResponse,
  ZViewerQrRequest,
  ZViewerQrResponse,
  canSendToReferringDoctor,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { generateViewerQr, listReportMessages } from './share-delivery.js';
import { type TSharingDeps, saveReferringDoctor, sendShareEmail, sendShareMessage } from './share-study.js';

/**
 * Roles that could share with some switch on, on a study of their own center: the route refuses the
 * rest before any lookup (the row's own center is checked once the row is loaded).
 */
const mayEverShare = (roles: readonly TRole[]) =>
  canSendToReferringDoctor({
    roles,
    flags: { radiologistCanSendToReferringDoctor: true },
    row: { status: 'CREATED', centerId: 0 },
    userCenterId: 0,
  });

/** Referring doctor save and message sharing (spec-core §2 dialog, §5, §6, §7 report-status calls). */
export const studySharingRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['study-sharing'];
  const depsOf = (request: FastifyRequest): TSharingDeps => ({
    ctx: app.ctx,
    publicUrl: app.ctx.publicUrlOf(request),
  });
  const sharer = { onRequest: app.requirePermission(mayEverShare) };

  app.post(
    '/report-status/save',
    {
      ...sharer,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Share the study with a referring doctor (a ROLE_REFERRING_DOCTOR user of the group)',
        body: ZSaveReferringDoctorRequest,
        response: { 200: ZSaveReferringDoctorResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => saveReferringDoctor(app.ctx, authOf(request), request.body),
  );

  app.post(
    '/report-status/send-message/:id',
    {
      ...sharer,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Send the study's share link by SMS (and WhatsApp unless doNotSendWhatsappMessage)",
        params: ZReportStatusIdParams,
        body: ZSendMessageRequest,
        response: { 200: ZShareResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => sendShareMessage(depsOf(request), authOf(request), request.params.id, request.body),
  );

  app.post(
    '/report-status/send-email/:id',
    {
      ...sharer,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Send the study's share link by e-mail",
        params: ZReportStatusIdParams,
        body: ZSendEmailRequest,
        response: { 200: ZShareResponse, ...errorResponses(400, 401, 403, 404, 502) },
      },
    },
    (request) => sendShareEmail(depsOf(request), authOf(request), request.params.id, request.body),
  );

  app.get(
    '/report-status/messages/:id',
    {
      ...sharer,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The row's messages as the providers handled them (channel, recipient, status, time)",
        params: ZReportStatusIdParams,
        response: { 200: ZReportMessages, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => listReportMessages(depsOf(request), authOf(request), request.params.id),
  );

  app.post(
    '/pdf/generate-viewer-qr',
    {
      ...sharer,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          "The study's share link (made if missing) and its QR code (enableSecureViewerQrCodeGeneration)",
        body: ZViewerQrRequest,
        response: { 200: ZViewerQrResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => generateViewerQr(depsOf(request), authOf(request), request.body.reportStatusId),
  );
};
