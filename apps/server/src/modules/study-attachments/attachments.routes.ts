import type { FastifyReply } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ATTACHMENT_MAX_BYTES,
  AppError,
  MESSAGES,
  type TStudyAttachmentKind,
  ZAttachmentDownloadParams,
  ZAttachmentPathParams,
  ZAttachmentUploadParams,
  ZAttachmentUploadResponse,
  ZFilmImageParams,
  ZFilmListResponse,
  ZOk,
  ZStudyAttachmentLists,
  canDeleteStudyAttachment,
  canUploadStudyAttachment,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { scopeOfAuth } from '../studies/study-access.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import {
  attachmentsForReader,
  findVisibleFilm,
  listAttachments,
  listVisibleFilms,
} from './attachments.repository.js';
import { deleteAttachment, loadAttachmentForDownload, uploadAttachment } from './manage-attachments.js';
import { loadVisibleReport } from '../studies/visible-row.js';

/** The spec's path prefix of each attachment kind (spec-core §7 Study actions). */
const PREFIXES: Record<TStudyAttachmentKind, string> = {
  HISTORY: 'history',
  FILM: 'film',
  REPORT: 'report-attachment',
};

/** `attachment; filename="…"` with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(type: 'attachment' | 'inline', fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function sendBlob(
  reply: FastifyReply,
  blob: NodeJS.ReadableStream,
  file: { fileName: string; contentType: string; sizeBytes: number },
  disposition: 'attachment' | 'inline',
) {
  return reply
    .header('content-type', file.contentType)
    .header('content-length', file.sizeBytes)
    .header('content-disposition', contentDisposition(disposition, file.fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(blob);
}

const ZBinary = z.any().meta({ description: 'The file bytes' });

/**
 * History, film and report attachments (spec-core §3, §5, §6, §7; issue 4 §2). Rules in core
 * (study-files.ts); visibility in the WHERE of every query (visibleReportRows).
 */
export const studyAttachmentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['study-attachments'];
  await app.register(fastifyMultipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 2, fields: 10, parts: 12 },
  });

  for (const [kind, prefix] of Object.entries(PREFIXES) as Array<[TStudyAttachmentKind, string]>) {
    const label = kind.toLowerCase();
    app.post(
      `/${prefix}/upload/:id`,
      {
        // Roles that may never add this kind (not even to a study of their own center) are refused
        // before the body is read; the row's own center is checked once the row is loaded.
        onRequest: app.requirePermission((roles) =>
          canUploadStudyAttachment({ roles, row: { status: 'CREATED', centerId: 0 }, userCenterId: 0 }, kind),
        ),
        schema: {
          tags,
          security: SIGNED_IN,
          summary: `Attach one file to a study's ${label} attachments (multipart part \`file\`)`,
          description: `Allowed types: spec-core §5 (checked by extension and content); at most ${ATTACHMENT_MAX_BYTES} bytes (413 beyond).`,
          params: ZAttachmentUploadParams,
          response: { 200: ZAttachmentUploadResponse, ...errorResponses(400, 401, 403, 404, 413, 415) },
        },
      },
      (request) => uploadAttachment(app.ctx, request, { reportStatusId: request.params.id, kind }),
    );

    app.delete(
      `/${prefix}/delete/:id/:path`,
      {
        onRequest: app.requirePermission((roles) =>
          canDeleteStudyAttachment({ roles, row: { status: 'CREATED', centerId: 0 }, userCenterId: 0 }, kind),
        ),
        schema: {
          tags,
          security: SIGNED_IN,
          summary: `Delete one of a study's ${label} attachments`,
          params: ZAttachmentPathParams,
          response: { 200: ZOk, ...errorResponses(400, 401, 403, 404) },
        },
      },
      (request) =>
        deleteAttachment(app.ctx, authOf(request), {
          reportStatusId: request.params.id,
          kind,
          path: request.params.path,
        }),
    );

    const download = {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: `Download one of a study's ${label} attachments under its original name`,
        params: ZAttachmentDownloadParams,
        response: { 200: ZBinary, ...errorResponses(400, 401, 403, 404) },
      },
    };
    const handler = async (
      request: { params: z.infer<typeof ZAttachmentDownloadParams> } & Parameters<typeof authOf>[0],
      reply: FastifyReply,
    ) => {
      const file = await loadAttachmentForDownload(app.ctx, authOf(request), {
        reportStatusId: request.params.id,
        kind,
        path: request.params.path,
      });
      return sendBlob(reply, app.ctx.blobs.get(file.blobKey), file, 'attachment');
    };
    app.get(`/${prefix}/download/:id/:path`, download, handler);
    app.get(`/${prefix}/download/:id/:path/:fileName`, download, handler);
  }

  app.get(
    '/attachments/:id',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "A study's history, film and report attachments (for the attachment dialogs)",
        params: ZAttachmentUploadParams,
        response: { 200: ZStudyAttachmentLists, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const row = await loadVisibleReport(app.ctx.db, auth, request.params.id);
      return attachmentsForReader(
        auth.roles,
        row.status,
        await listAttachments(app.ctx.db, request.params.id),
      );
    },
  );

  app.get(
    '/films/get',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The newest film attachments of the studies the caller may see (at most 50)',
        response: { 200: ZFilmListResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await listVisibleFilms(app.ctx.db, scopeOfAuth(authOf(request))) }),
  );

  app.get(
    '/films/images/get/:name',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'One film attachment, shown inline (name = its path from /films/get)',
        params: ZFilmImageParams,
        response: { 200: ZBinary, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const film = await findVisibleFilm(app.ctx.db, scopeOfAuth(authOf(request)), request.params.name);
      if (!film) throw new AppError('NOT_FOUND', MESSAGES.notFound, 'name');
      return sendBlob(reply, app.ctx.blobs.get(film.blobKey), film, 'inline');
    },
  );
};
