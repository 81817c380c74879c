import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  UPLOAD_MAX_FILE_BYTES,
  UPLOAD_MAX_FILES_PER_REQUEST,
  ZCenterOption,
  ZCreateStudyRequest,
  ZCreatedStudy,
  ZUploadResponse,
  canCreateStudy,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { DICOMWEB_SIGNED_IN, SIGNED_IN, errorResponses, requestBaseUrl } from '../http.js';
import { uploadFiles } from './browser-upload.js';
import { createStudyFromWebsite } from './create-study.js';
import { storeInstances, stowBoundary } from './stow.js';
import { listCenterOptions, resolveUploadCenter } from './upload-access.js';
import type { TUploadLimits } from './upload-zip.js';

export interface TArchiveRoutesOptions {
  /** config UPLOAD_MAX_INFLATED_BYTES / UPLOAD_MAX_COMPRESSION_RATIO; default DEFAULT_UPLOAD_LIMITS. */
  uploadLimits?: TUploadLimits | undefined;
}

const ZStowQuery = z.object({
  /** Group users name the center the studies come from; center users' own center is used. */
  centerId: z.coerce.number().int().positive().optional(),
});
const ZStudyParams = z.object({
  studyUid: z
    .string()
    .regex(/^[0-9]+(\.[0-9]+)*$/, 'must be a DICOM UID')
    .max(64),
});

/** The ways studies come in over HTTP (issue 3 §3): STOW-RS, browser upload, Create Study; and the center list. */
export const archiveRoutes: FastifyPluginAsyncZod<TArchiveRoutesOptions> = async (app, opts) => {
  const uploader = { onRequest: app.requirePermission(canCreateStudy) };
  const tags = ['archive'];

  // STOW-RS bodies are streamed by the handler, never buffered: no body limit applies to them.
  app.addContentTypeParser('multipart/related', (_request, payload, done) => done(null, payload));
  await app.register(fastifyMultipart, {
    throwFileSizeLimit: false,
    limits: {
      fileSize: UPLOAD_MAX_FILE_BYTES,
      files: UPLOAD_MAX_FILES_PER_REQUEST + 1,
      fields: 20,
      parts: UPLOAD_MAX_FILES_PER_REQUEST + 21,
    },
  });

  const stow = async (
    request: FastifyRequest,
    reply: FastifyReply,
    query: { centerId?: number | undefined; studyUid?: string },
  ) => {
    const auth = authOf(request);
    const target = await resolveUploadCenter(app.ctx, auth, query.centerId, { foreignCenter: 'forbid' });
    const boundary = stowBoundary(request.headers['content-type']);
    const outcome = await storeInstances(app.ctx, request.body as Readable, {
      boundary,
      target,
      ...(query.studyUid ? { studyInstanceUid: query.studyUid } : {}),
      actorUserId: auth.user.id,
      baseUrl: requestBaseUrl(request),
      log: request.log,
    });
    return reply.code(outcome.status).type('application/dicom+json').send(JSON.stringify(outcome.body));
  };
  const stowSchema = {
    tags: ['dicomweb'],
    security: DICOMWEB_SIGNED_IN,
    querystring: ZStowQuery,
    description:
      'STOW-RS (PS3.18 §10.5): multipart/related; type="application/dicom". Answers the PS3.18 store response ' +
      '(application/dicom+json): 200 all stored, 202 some failed, 409 none stored; 400/415 for a body that is not a DICOM multipart.',
    response: errorResponses(400, 401, 403, 413, 415),
  };

  app.post(
    '/dicomweb/studies',
    { ...uploader, schema: { ...stowSchema, summary: 'Store instances (STOW-RS)' } },
    (request, reply) => stow(request, reply, request.query),
  );
  app.post(
    '/dicomweb/studies/:studyUid',
    {
      ...uploader,
      schema: { ...stowSchema, params: ZStudyParams, summary: 'Store instances of one study (STOW-RS)' },
    },
    (request, reply) => stow(request, reply, { ...request.query, studyUid: request.params.studyUid }),
  );

  app.post(
    '/dicom-web/upload',
    {
      ...uploader,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Browser upload of DICOM files and .zip archives (multipart/form-data)',
        description:
          'Parts: optional fields `centerId` (group users) and `reportStatusId` (the upload-study action), before ' +
          `any \`file\` part; then up to ${UPLOAD_MAX_FILES_PER_REQUEST} \`file\` parts of at most ${UPLOAD_MAX_FILE_BYTES} bytes, ` +
          'DICOM files or zips of them. Answers per file. A zip entry must start like DICOM to be unpacked; 413 when ' +
          'the zips would unpack to more than UPLOAD_MAX_INFLATED_BYTES or UPLOAD_MAX_COMPRESSION_RATIO times their size.',
        response: { 200: ZUploadResponse, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    (request) => uploadFiles(app.ctx, request, opts.uploadLimits),
  );

  app.post(
    '/dicom-web/study/create-from-website',
    {
      ...uploader,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Create a study without images (spec-core §5 Create Study)',
        body: ZCreateStudyRequest,
        response: { 200: ZCreatedStudy, ...errorResponses(400, 401, 403, 409) },
      },
    },
    (request) => createStudyFromWebsite(app.ctx, authOf(request), request.body),
  );

  app.get(
    '/centers',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The centers the user may pick: a center user's own, group users their group's",
        response: { 200: z.array(ZCenterOption), ...errorResponses(401) },
      },
    },
    (request) => listCenterOptions(app.ctx, authOf(request)),
  );
};
