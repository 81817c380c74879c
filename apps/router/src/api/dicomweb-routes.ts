import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, HYBRID_PATHS, ROUTER_VIEWER_COOKIE, ZRenderViewport, ZRenderWindow } from '@radflow/core';
import { parseInput } from './http.js';
import { hybridUser } from './hybrid-routes.js';
import type { OfflineImages } from './ports.js';

/**
 * The DICOMweb reads of the offline viewer (HYBRID.md "The viewer offline"), at the path the web
 * app's data source asks (`<origin>/api/dicomweb`, viewer data-source/image-ids.ts): QIDO-RS study,
 * series and instances, WADO-RS series and instance metadata, frames as stored, the rendered frame
 * and the series thumbnail the light viewer draws. Only the studies in the router's spool (the
 * center's own), only for a hybrid user's router session.
 */
export const ROUTER_DICOMWEB_ROOT = '/api/dicomweb';

const DICOM_JSON = 'application/dicom+json';
const THUMBNAIL = { width: 256, height: 256 } as const;

const ZStudyQuery = z.object({
  StudyInstanceUID: z
    .string({ error: 'StudyInstanceUID is required' })
    .min(1, 'StudyInstanceUID is required'),
});
const ZRenderedQuery = z.object({
  viewport: ZRenderViewport.optional(),
  window: ZRenderWindow.optional(),
});
const ZFrameNumber = z.coerce
  .number({ error: 'The frame number must be a positive whole number' })
  .int('The frame number must be a positive whole number')
  .min(1, 'The frame number must be a positive whole number');

type TParams = { study: string; series: string; sop: string; frame: string };

/**
 * The viewer cookie's attributes: sent back to this router's image reads only (its path), never by
 * another site's page (SameSite=Strict), out of the page's scripts' reach (HttpOnly); it lasts as
 * long as the browser's session, and the router session it names can end sooner (logout, expiry).
 */
const VIEWER_COOKIE_ATTRIBUTES = `Path=${ROUTER_DICOMWEB_ROOT}; HttpOnly; SameSite=Strict`;

/** The Set-Cookie that ends the viewer cookie (logout). */
export const CLEAR_VIEWER_COOKIE = `${ROUTER_VIEWER_COOKIE}=; ${VIEWER_COOKIE_ATTRIBUTES}; Max-Age=0`;

/**
 * The router session a viewer cookie carries, for a GET under the DICOMweb root only: every other
 * call still needs the bearer token, so the cookie can only read images, never write.
 */
export function viewerCookieOf(request: FastifyRequest): string | undefined {
  if (request.method !== 'GET' || !request.url.startsWith(`${ROUTER_DICOMWEB_ROOT}/`)) return undefined;
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === ROUTER_VIEWER_COOKIE && value.length > 0) return value.join('=') || undefined;
  }
  return undefined;
}

const json = (reply: FastifyReply, body: unknown) =>
  reply.header('content-type', DICOM_JSON).header('cache-control', 'no-store').send(body);

const jpeg = (reply: FastifyReply, body: Buffer) =>
  reply.header('content-type', 'image/jpeg').header('cache-control', 'private, max-age=600').send(body);

export function registerOfflineDicomweb(app: FastifyInstance, images: OfflineImages): void {
  const root = ROUTER_DICOMWEB_ROOT;
  const series = `${root}/studies/:study/series/:series`;
  const instance = `${series}/instances/:sop`;

  // The diagnostic viewer's image loaders (Cornerstone's, the thumbnails' <img>) cannot add the
  // bearer header: the page trades it for the cookie above before it opens the viewer.
  app.post(HYBRID_PATHS.viewerSession, async (request, reply) => {
    hybridUser(request);
    return reply
      .header('set-cookie', `${ROUTER_VIEWER_COOKIE}=${request.routerToken}; ${VIEWER_COOKIE_ATTRIBUTES}`)
      .send({ ok: true });
  });

  app.get(`${root}/studies`, async (request, reply) => {
    hybridUser(request);
    const { StudyInstanceUID } = parseInput(ZStudyQuery, request.query);
    const found = await images.study(StudyInstanceUID).catch((error: unknown) => {
      if (error instanceof AppError && error.kind === 'NOT_FOUND') return null;
      throw error;
    });
    return found ? json(reply, [found]) : reply.code(204).send();
  });

  app.get<{ Params: TParams }>(`${root}/studies/:study/series`, async (request, reply) => {
    hybridUser(request);
    return json(reply, await images.series(request.params.study));
  });

  app.get<{ Params: TParams }>(`${series}/instances`, async (request, reply) => {
    hybridUser(request);
    const { study, series: seriesUid } = request.params;
    return json(
      reply,
      (await images.seriesInstances(study, seriesUid)).map((i) => i.metadata),
    );
  });

  app.get<{ Params: TParams }>(`${series}/metadata`, async (request, reply) => {
    hybridUser(request);
    const { study, series: seriesUid } = request.params;
    return json(
      reply,
      (await images.seriesInstances(study, seriesUid)).map((i) => i.metadata),
    );
  });

  app.get<{ Params: TParams }>(`${instance}/metadata`, async (request, reply) => {
    hybridUser(request);
    const { study, series: seriesUid, sop } = request.params;
    return json(reply, [(await images.instance(study, seriesUid, sop)).metadata]);
  });

  app.get<{ Params: TParams }>(`${instance}/frames/:frame`, async (request, reply) => {
    hybridUser(request);
    const { study, series: seriesUid, sop } = request.params;
    const frameNumber = parseInput(ZFrameNumber, request.params.frame);
    const frame = await images.frame({ study, series: seriesUid, sop }, frameNumber);
    const boundary = `radflow-${randomBytes(12).toString('hex')}`;
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Type: application/octet-stream; transfer-syntax=${frame.transferSyntaxUid}\r\n\r\n`,
        'latin1',
      ),
      frame.bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1'),
    ]);
    return reply
      .header(
        'content-type',
        `multipart/related; type="application/octet-stream"; transfer-syntax=${frame.transferSyntaxUid}; boundary=${boundary}`,
      )
      .header('cache-control', 'private, max-age=600')
      .send(body);
  });

  app.get<{ Params: TParams }>(`${instance}/frames/:frame/rendered`, async (request, reply) => {
    hybridUser(request);
    const { study, series: seriesUid, sop } = request.params;
    const frameNumber = parseInput(ZFrameNumber, request.params.frame);
    const query = parseInput(ZRenderedQuery, request.query);
    return jpeg(reply, await images.rendered({ study, series: seriesUid, sop }, frameNumber, query));
  });

  app.get<{ Params: TParams }>(`${series}/thumbnail`, async (request, reply) => {
    hybridUser(request);
    const { study, series: seriesUid } = request.params;
    const list = await images.seriesInstances(study, seriesUid);
    const middle = list[Math.floor((list.length - 1) / 2)]!;
    return jpeg(
      reply,
      await images.rendered({ study, series: seriesUid, sop: middle.sopInstanceUid }, 1, {
        viewport: THUMBNAIL,
      }),
    );
  });
}
