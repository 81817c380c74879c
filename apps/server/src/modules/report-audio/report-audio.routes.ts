import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUDIO_EXTENSIONS,
  AUDIO_MAX_BYTES,
  type TAudioContentType,
  ZOk,
  ZReportAudio,
  ZReportAudioItemParams,
  ZReportAudioList,
  ZReportAudioParams,
  canAddReportAudio,
  readsReportWork,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { loadVisibleReport } from '../studies/visible-row.js';
import { parseRange } from '../zip/zip-link.js';
import { deleteReportAudio, loadReportAudio, saveReportAudio } from './manage-report-audio.js';
import { listReportAudios, toReportAudio } from './report-audio.repository.js';

const ZBinary = z.any().meta({ description: 'The recording' });

/**
 * Audio notes of a study (spec-core §7 /report-audio/...; issue 7 §3). Rules in core
 * (reporting/audio.ts); decisions in DECISIONS.md.
 */
export const reportAudioRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['report-audio'];
  await app.register(fastifyMultipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: AUDIO_MAX_BYTES, files: 1, fields: 4, parts: 5 },
  });

  app.get(
    '/report-audio/fetch-audio/:id',
    {
      // A note is dictation about the report being made: the read-only roles (core readsReportWork)
      // read the signed-off report, not how it was made.
      onRequest: app.requirePermission(readsReportWork),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "A study's audio notes, oldest first",
        params: ZReportAudioParams,
        response: { 200: ZReportAudioList, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await loadVisibleReport(app.ctx.db, authOf(request), request.params.id);
      return (await listReportAudios(app.ctx.db, request.params.id)).map(toReportAudio);
    },
  );

  app.post(
    '/report-audio/save-audio/:id',
    {
      // Roles that may never add a note (not even on their own center's study) are refused before
      // the body is read; the row's own center is checked once it is loaded.
      onRequest: app.requirePermission((roles) =>
        canAddReportAudio({ roles, row: { status: 'CREATED', centerId: 0 }, userCenterId: 0 }),
      ),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Attach one audio note (multipart part `file`, optional field `durationMs`)',
        description: `WebM, Ogg, MP4/M4A, MP3 or WAV, recognised by the bytes (415 otherwise); at most ${AUDIO_MAX_BYTES} bytes (413 beyond).`,
        params: ZReportAudioParams,
        response: { 200: ZReportAudio, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    (request) => saveReportAudio(app.ctx, request, request.params.id),
  );

  app.delete(
    '/report-audio/delete-audio/:id/:audioId',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Delete one audio note (its uploader or a group admin)',
        params: ZReportAudioItemParams,
        response: { 200: ZOk, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) =>
      deleteReportAudio(app.ctx, authOf(request), {
        reportStatusId: request.params.id,
        audioId: request.params.audioId,
      }),
  );

  app.get(
    '/report-audio/file/:id/:audioId',
    {
      onRequest: app.requirePermission(readsReportWork),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The bytes of one audio note (one byte range supported, for seeking)',
        params: ZReportAudioItemParams,
        response: { 200: ZBinary, 206: ZBinary, ...errorResponses(400, 401, 403, 404, 416) },
      },
    },
    async (request, reply) => {
      const audio = await loadReportAudio(app.ctx, authOf(request), {
        reportStatusId: request.params.id,
        audioId: request.params.audioId,
      });
      const size = audio.byteSize;
      const range = parseRange(request.headers.range, size);
      if (range === 'UNSATISFIABLE') {
        return reply.code(416).header('content-range', `bytes */${size}`).send({
          errorStatusCode: 416,
          errorDescription: 'The requested range is outside the file',
          additionalInfo: null,
          txnId: request.id,
        });
      }
      const extension = AUDIO_EXTENSIONS[audio.contentType as TAudioContentType] ?? 'bin';
      const stream = app.ctx.blobs.get(audio.blobKey, range ?? undefined);
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) stream.destroy();
      });
      reply
        .header('content-type', audio.contentType)
        .header('accept-ranges', 'bytes')
        .header('content-length', range ? range.end - range.start : size)
        .header('content-disposition', `inline; filename="audio-${audio.id}.${extension}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end - 1}/${size}`);
      return reply.send(stream);
    },
  );
};
