import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../plugins/auth.js';
import { DICOMWEB_SIGNED_IN, errorResponses, requestBaseUrl } from '../http.js';
import { parseAccept } from './multipart.js';
import { parseQidoQuery } from './qido-query.js';
import { type QidoContext, searchInstances, searchSeries, searchStudies } from './qido.js';
import { findSeries, findStudy, metadataJson } from './retrieve-repository.js';
import { ZRenderViewport, ZRenderWindow, renderImage, renderThumbnail } from './render.js';
import { scopeOfAuth } from '../studies/study-access.js';
import { requireUserOrStudyToken } from '../study-tokens/study-token-auth.js';
import { type TStreamAnswer, retrieveBulkData, retrieveFrames, retrieveInstances } from './wado.js';
import { ZWadoUriQuery, retrieveWadoUri } from './wado-uri.js';

/**
 * The standard DICOMweb read side at /api/dicomweb (issue 3 §4, PS3.18 §10.4, §10.6, chapter 9):
 * QIDO-RS, WADO-RS and WADO-URI, for a session cookie or an API token. STOW-RS (the write side)
 * is the archive module's. Every route: signed in, then one service call with the caller's scope.
 */

const DICOM_JSON = 'application/dicom+json';
const uid = z.string().min(1).max(128);
const ZStudy = z.object({ study: uid });
const ZSeries = ZStudy.extend({ series: uid });
const ZInstance = ZSeries.extend({ instance: uid });
const ZQido = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

const qidoContext = (request: FastifyRequest): QidoContext => ({
  baseUrl: `${requestBaseUrl(request)}/api/dicomweb`,
});

function sendJson(reply: FastifyReply, body: unknown, ignored: readonly string[] = []) {
  if (ignored.length > 0) {
    void reply.header(
      'warning',
      `299 radflow "The following parameters were ignored: ${ignored.join(', ')}"`,
    );
  }
  return reply.type(DICOM_JSON).send(typeof body === 'string' ? body : JSON.stringify(body));
}

function sendStream(reply: FastifyReply, answer: TStreamAnswer) {
  return reply.type(answer.contentType).send(answer.body);
}

export const dicomwebRetrieveRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['dicomweb'];
  // A session, an API token, or a Weasis launch's token for its one study (study-tokens/study-token-auth.ts).
  const base = { onRequest: requireUserOrStudyToken(app) };
  // Answers are DICOM JSON text, multipart streams or images: the 200 body is not a zod schema.
  const doc = <const E extends object>(summary: string, extra: E) => ({
    tags,
    security: DICOMWEB_SIGNED_IN,
    summary,
    response: { 200: z.unknown(), ...errorResponses(400, 401, 404, 406) },
    ...extra,
  });
  const scope = (request: FastifyRequest) => scopeOfAuth(authOf(request));
  const accept = (request: FastifyRequest) => parseAccept(request.headers.accept);

  // QIDO-RS -----------------------------------------------------------------------------------------
  app.get(
    '/dicomweb/studies',
    { ...base, schema: doc('QIDO-RS: search studies', { querystring: ZQido }) },
    async (request, reply) => {
      const query = parseQidoQuery(request.query);
      const found = await searchStudies(app.ctx.db, scope(request), query, qidoContext(request));
      return sendJson(reply, found, query.ignored);
    },
  );

  app.get(
    '/dicomweb/series',
    { ...base, schema: doc('QIDO-RS: search series of all studies', { querystring: ZQido }) },
    async (request, reply) => {
      const query = parseQidoQuery(request.query);
      return sendJson(
        reply,
        await searchSeries(app.ctx.db, scope(request), query, qidoContext(request), null),
        query.ignored,
      );
    },
  );

  app.get(
    '/dicomweb/instances',
    { ...base, schema: doc('QIDO-RS: search instances of all studies', { querystring: ZQido }) },
    async (request, reply) => {
      const query = parseQidoQuery(request.query);
      return sendJson(
        reply,
        await searchInstances(app.ctx.db, scope(request), query, qidoContext(request), null),
        query.ignored,
      );
    },
  );

  app.get(
    '/dicomweb/studies/:study/series',
    { ...base, schema: doc("QIDO-RS: search a study's series", { params: ZStudy, querystring: ZQido }) },
    async (request, reply) => {
      const query = parseQidoQuery(request.query);
      const study = await findStudy(app.ctx.db, scope(request), request.params.study);
      const found = await searchSeries(app.ctx.db, scope(request), query, qidoContext(request), {
        studyId: study.id,
      });
      return sendJson(reply, found, query.ignored);
    },
  );

  app.get(
    '/dicomweb/studies/:study/instances',
    { ...base, schema: doc("QIDO-RS: search a study's instances", { params: ZStudy, querystring: ZQido }) },
    async (request, reply) => {
      const query = parseQidoQuery(request.query);
      const study = await findStudy(app.ctx.db, scope(request), request.params.study);
      const found = await searchInstances(app.ctx.db, scope(request), query, qidoContext(request), {
        studyId: study.id,
      });
      return sendJson(reply, found, query.ignored);
    },
  );

  app.get(
    '/dicomweb/studies/:study/series/:series/instances',
    { ...base, schema: doc("QIDO-RS: search a series' instances", { params: ZSeries, querystring: ZQido }) },
    async (request, reply) => {
      const query = parseQidoQuery(request.query);
      const { study, series } = await findSeries(
        app.ctx.db,
        scope(request),
        request.params.study,
        request.params.series,
      );
      const within = { studyId: study.id, seriesId: series.id };
      return sendJson(
        reply,
        await searchInstances(app.ctx.db, scope(request), query, qidoContext(request), within),
        query.ignored,
      );
    },
  );

  // WADO-RS: instances and metadata -----------------------------------------------------------------
  const retrieveSummary = 'WADO-RS: the stored files as multipart/related; type="application/dicom"';
  app.get(
    '/dicomweb/studies/:study',
    { ...base, schema: doc(`${retrieveSummary} (study)`, { params: ZStudy }) },
    async (request, reply) =>
      sendStream(
        reply,
        await retrieveInstances(app.ctx, scope(request), { studyUid: request.params.study }, accept(request)),
      ),
  );
  app.get(
    '/dicomweb/studies/:study/series/:series',
    { ...base, schema: doc(`${retrieveSummary} (series)`, { params: ZSeries }) },
    async (request, reply) => {
      const target = { studyUid: request.params.study, seriesUid: request.params.series };
      return sendStream(reply, await retrieveInstances(app.ctx, scope(request), target, accept(request)));
    },
  );
  app.get(
    '/dicomweb/studies/:study/series/:series/instances/:instance',
    { ...base, schema: doc(`${retrieveSummary} (instance)`, { params: ZInstance }) },
    async (request, reply) =>
      sendStream(
        reply,
        await retrieveInstances(app.ctx, scope(request), targetOf(request.params), accept(request)),
      ),
  );

  const metadataSummary = 'WADO-RS: PS3.18 JSON metadata from the index';
  app.get(
    '/dicomweb/studies/:study/metadata',
    { ...base, schema: doc(`${metadataSummary} (study)`, { params: ZStudy }) },
    async (request, reply) =>
      sendJson(reply, await metadataJson(app.ctx.db, scope(request), { studyUid: request.params.study })),
  );
  app.get(
    '/dicomweb/studies/:study/series/:series/metadata',
    { ...base, schema: doc(`${metadataSummary} (series)`, { params: ZSeries }) },
    async (request, reply) => {
      const target = { studyUid: request.params.study, seriesUid: request.params.series };
      return sendJson(reply, await metadataJson(app.ctx.db, scope(request), target));
    },
  );
  app.get(
    '/dicomweb/studies/:study/series/:series/instances/:instance/metadata',
    { ...base, schema: doc(`${metadataSummary} (instance)`, { params: ZInstance }) },
    async (request, reply) =>
      sendJson(reply, await metadataJson(app.ctx.db, scope(request), targetOf(request.params))),
  );

  // WADO-RS: frames and bulk data ---------------------------------------------------------------------
  app.get(
    '/dicomweb/studies/:study/series/:series/instances/:instance/frames/:frames',
    {
      ...base,
      schema: doc('WADO-RS: frames (1-based, comma-separated) in the stored transfer syntax', {
        params: ZInstance.extend({ frames: z.string().min(1).max(20_000) }),
      }),
    },
    async (request, reply) =>
      sendStream(
        reply,
        await retrieveFrames(
          app.ctx,
          scope(request),
          targetOf(request.params),
          request.params.frames,
          accept(request),
        ),
      ),
  );
  app.get(
    '/dicomweb/studies/:study/series/:series/instances/:instance/bulk/:path',
    {
      ...base,
      schema: doc('WADO-RS: a bulk data value named by a BulkDataURI of the metadata', {
        params: ZInstance.extend({ path: z.string().min(8).max(200) }),
      }),
    },
    async (request, reply) =>
      sendStream(
        reply,
        await retrieveBulkData(
          app.ctx,
          scope(request),
          targetOf(request.params),
          request.params.path,
          accept(request),
        ),
      ),
  );

  // WADO-RS: rendered and thumbnails ----------------------------------------------------------------
  const ZRendered = z
    .object({
      quality: z.coerce.number().int().min(1).max(100).optional(),
      window: ZRenderWindow.optional(),
      viewport: ZRenderViewport.optional(),
    })
    .passthrough();
  app.get(
    '/dicomweb/studies/:study/series/:series/instances/:instance/rendered',
    {
      ...base,
      schema: doc('WADO-RS: the first frame rendered as JPEG or PNG', {
        params: ZInstance,
        querystring: ZRendered,
      }),
    },
    async (request, reply) => {
      const image = await renderImage(
        app.ctx,
        scope(request),
        targetOf(request.params),
        1,
        accept(request),
        request.query,
      );
      return reply.type(image.contentType).send(image.body);
    },
  );
  app.get(
    '/dicomweb/studies/:study/series/:series/instances/:instance/frames/:frame/rendered',
    {
      ...base,
      schema: doc('WADO-RS: one frame rendered as JPEG or PNG', {
        params: ZInstance.extend({ frame: z.coerce.number().int().min(1) }),
        querystring: ZRendered,
      }),
    },
    async (request, reply) => {
      const image = await renderImage(
        app.ctx,
        scope(request),
        targetOf(request.params),
        request.params.frame,
        accept(request),
        request.query,
      );
      return reply.type(image.contentType).send(image.body);
    },
  );
  const thumbnail = async (
    request: FastifyRequest,
    reply: FastifyReply,
    target: { studyUid: string; seriesUid?: string; sopUid?: string },
  ) => {
    const image = await renderThumbnail(app.ctx, scope(request), target, accept(request));
    return reply.type(image.contentType).header('cache-control', 'private, max-age=3600').send(image.body);
  };
  app.get(
    '/dicomweb/studies/:study/thumbnail',
    { ...base, schema: doc('WADO-RS: study thumbnail', { params: ZStudy }) },
    (request, reply) => thumbnail(request, reply, { studyUid: request.params.study }),
  );
  app.get(
    '/dicomweb/studies/:study/series/:series/thumbnail',
    { ...base, schema: doc('WADO-RS: series thumbnail', { params: ZSeries }) },
    (request, reply) =>
      thumbnail(request, reply, { studyUid: request.params.study, seriesUid: request.params.series }),
  );
  app.get(
    '/dicomweb/studies/:study/series/:series/instances/:instance/thumbnail',
    { ...base, schema: doc('WADO-RS: instance thumbnail', { params: ZInstance }) },
    (request, reply) => thumbnail(request, reply, targetOf(request.params)),
  );

  // WADO-URI ------------------------------------------------------------------------------------------
  app.get(
    '/dicomweb/wado',
    {
      ...base,
      schema: doc('WADO-URI (PS3.18 chapter 9): the file or a rendered image', {
        querystring: ZWadoUriQuery,
      }),
    },
    async (request, reply) => {
      const answer = await retrieveWadoUri(app.ctx, scope(request), request.query);
      return reply.type(answer.contentType).send(answer.body);
    },
  );
};

function targetOf(params: { study: string; series: string; instance: string }) {
  return { studyUid: params.study, seriesUid: params.series, sopUid: params.instance };
}
