import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAccountPayment,
  ZShareCodeSent,
  ZShareFrameParams,
  ZShareLinkParams,
  ZSharePage,
  ZShareSeriesList,
  ZShareVerified,
  ZShareVerifyRequest,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { getAccountPayment } from './account-payment.js';
import { makeAccessCookie, openShareLink, requireShareAccess, setAccessCookie } from './share-access.js';
import { sendShareCode, verifyShareCode } from './share-otp.js';
import { getSharePage, listShareSeries, renderShareFrame, renderSharePdf } from './share-page.js';

/**
 * The public share page's calls (issue 7 §5; spec-core §2 /share is a public path): no session, the
 * link token in the path is the credential (share-access.ts), plus the access cookie of a verified
 * code when the group requires one. Design note: DECISIONS.md.
 */
export const sharePageRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['share-page'];
  const refusals = errorResponses(401, 403, 404, 410);
  // The link itself grants access: nothing of it may be cached by a shared cache.
  const privateNoStore = 'private, no-store';

  // Not a link call: the page a viewer-role session is sent to when its payment is not done
  // (spec-core §4 Viewer payment, `/share?link={email}`); it answers for the signed-in viewer only.
  app.get(
    '/customer-report/payment-info',
    {
      onRequest: app.requireRole('ROLE_VIEWER'),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The viewer's payment page: whether a payment is due, and who to contact",
        response: { 200: ZAccountPayment, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', privateNoStore);
      return getAccountPayment(app.ctx, authOf(request));
    },
  );

  app.get(
    '/share/:link',
    {
      schema: {
        tags,
        summary: 'The shared study: patient and study facts, the signed report when ready',
        params: ZShareLinkParams,
        response: { 200: ZSharePage, ...refusals },
      },
    },
    async (request, reply) => {
      const access = await requireShareAccess(app.ctx, request, request.params.link);
      void reply.header('cache-control', privateNoStore);
      return getSharePage(app.ctx, access, request);
    },
  );

  app.post(
    '/share/:link/code',
    {
      schema: {
        tags,
        summary: "Send a 6-digit code to the patient's mobile (requireOtpForSharedReport)",
        params: ZShareLinkParams,
        response: { 200: ZShareCodeSent, ...errorResponses(403, 404, 409, 410, 429) },
      },
    },
    async (request) => sendShareCode(app.ctx, await openShareLink(app.ctx, request.params.link)),
  );

  app.post(
    '/share/:link/verify',
    {
      schema: {
        tags,
        summary: 'Check the code; the answer sets the access cookie of this link',
        params: ZShareLinkParams,
        body: ZShareVerifyRequest,
        response: { 200: ZShareVerified, ...errorResponses(400, 401, 403, 404, 410) },
      },
    },
    async (request, reply) => {
      const { link } = request.params;
      const access = await openShareLink(app.ctx, link);
      await verifyShareCode(app.ctx, access, request.body.code);
      setAccessCookie(request, reply, link, await makeAccessCookie(app.ctx, link));
      return { verified: true as const };
    },
  );

  app.get(
    '/share/:link/report.pdf',
    {
      schema: {
        tags,
        summary: 'The signed report as PDF',
        params: ZShareLinkParams,
        response: { 200: z.unknown(), ...refusals, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const access = await requireShareAccess(app.ctx, request, request.params.link);
      const document = await renderSharePdf(app.ctx, access, app.ctx.publicUrlOf(request));
      // An ASCII name for every client, the exact one (any script) for those that read RFC 6266.
      const asciiName = document.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
      return reply
        .type(document.contentType)
        .header('cache-control', privateNoStore)
        .header(
          'content-disposition',
          `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(document.fileName)}`,
        )
        .send(Buffer.from(document.bytes));
    },
  );

  app.get(
    '/share/:link/series',
    {
      schema: {
        tags,
        summary: 'The images of the shared study (series, every frame), read-only',
        params: ZShareLinkParams,
        response: { 200: ZShareSeriesList, ...refusals },
      },
    },
    async (request, reply) => {
      const access = await requireShareAccess(app.ctx, request, request.params.link);
      void reply.header('cache-control', privateNoStore);
      return listShareSeries(app.ctx, access);
    },
  );

  app.get(
    '/share/:link/series/:series/instances/:instance/frames/:frame',
    {
      schema: {
        tags,
        summary: 'One frame of the shared study as JPEG',
        params: ZShareFrameParams,
        response: { 200: z.unknown(), ...refusals, ...errorResponses(406) },
      },
    },
    async (request, reply) => {
      const { link, series, instance, frame } = request.params;
      const access = await requireShareAccess(app.ctx, request, link);
      const image = await renderShareFrame(app.ctx, access, { seriesUid: series, sopUid: instance, frame });
      return reply.type(image.contentType).header('cache-control', 'private, max-age=3600').send(image.body);
    },
  );
};
