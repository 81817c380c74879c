import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIP_ANONYMIZATION_TYPES, ZZipLinkResponse } from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { createZipLink, openZipDownload } from './download-zip.js';

const ZLinkQuery = z.object({
  withName: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
  zipAnonymizationTypeEnum: z.enum(ZIP_ANONYMIZATION_TYPES).optional(),
});

/** Zip links and downloads (spec-core §4 Zip download, §7). The zip itself is made by the ZIP_STUDY job. */
export const zipRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['jobs'];

  app.get(
    '/dicom-web/zip-v2/complete/studies/link/:id',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'A signed link (valid 15 minutes) to the finished zip of a study',
        description:
          'Refused with the spec-core §5 messages: 409 not uploaded yet (or no finished zip: run the ZIP_STUDY job), 403 backup duration passed or zip download disabled for the caller.',
        params: z.object({ id: z.coerce.number().int().positive() }),
        querystring: ZLinkQuery,
        response: { 200: ZZipLinkResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const zipUrl = await createZipLink(app.ctx, authOf(request), {
        reportStatusId: request.params.id,
        withName: request.query.withName,
        requested: request.query.zipAnonymizationTypeEnum,
      });
      return { data: { zipUrl } };
    },
  );

  app.get(
    '/dicom-web/zip-v2/download/:token',
    {
      schema: {
        tags,
        summary: 'Downloads a zip by its signed link (no session needed); supports one byte range',
        description: '403 for a tampered link, 410 for an expired one, 416 for a range outside the file.',
        params: z.object({ token: z.string().min(1).max(512) }),
        response: { 200: z.unknown(), 206: z.unknown(), ...errorResponses(403, 404, 410, 416) },
      },
    },
    async (request, reply) => {
      const answer = await openZipDownload(app.ctx, request.params.token, request.headers.range);
      if (answer.kind === 'gone') {
        return reply.code(410).send({
          errorStatusCode: 410,
          errorDescription: 'This download link has expired; please request a new one',
          additionalInfo: null,
          txnId: request.id,
        });
      }
      if (answer.kind === 'unsatisfiable') {
        return reply.code(416).header('content-range', `bytes */${answer.size}`).send({
          errorStatusCode: 416,
          errorDescription: 'The requested range is outside the file',
          additionalInfo: null,
          txnId: request.id,
        });
      }
      const stream = answer.open();
      // A client that goes away stops the file read at once (ARCHITECTURE §5).
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) stream.destroy();
      });
      return reply.code(answer.status).headers(answer.headers).send(stream);
    },
  );
};
