import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZActiveInViewer,
  ZActiveInViewerRequest,
  ZKeyImage,
  ZKeyImageInput,
  ZShareInfo,
  ZUnmarkKeyImageQuery,
  ZViewerAnnotation,
  ZViewerAnnotationInput,
  ZViewerAnnotationParams,
  ZViewerAnnotations,
  ZViewerContext,
  ZViewerIdParams,
  ZViewerPriors,
  ZWeasisLaunch,
  ZWeasisManifestParams,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses, requestBaseUrl } from '../http.js';
import { scopeOfAuth } from '../studies/study-access.js';
import { getShareInfo } from './share-info.js';
import {
  deleteAnnotation,
  listAnnotations,
  markKeyImage,
  saveAnnotation,
  unmarkKeyImage,
} from './viewer-annotations.js';
import { listActiveInViewer, recordViewerActivity } from './viewer-activity.js';
import { getViewerContext } from './viewer-context.js';
import { viewerFirstImage } from './viewer-first-image.js';
import { listPriors } from './viewer-priors.js';
import { launchWeasis, weasisManifest } from './weasis.js';

const ZRemoved = z.object({ removed: z.boolean() });

/**
 * The viewer's calls (issue 5; spec-core §2 Viewer entry, §4 Viewer payment, §7 share-info). Every
 * study is the report row `:id`, visible to the caller (else 404); writes need canAnnotateStudy (403).
 */
export const viewerRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['viewer'];
  const signedIn = { onRequest: app.requireUser };
  const doc = <const E extends object>(summary: string, extra: E) => ({
    tags,
    security: SIGNED_IN,
    summary,
    ...extra,
  });

  app.get(
    '/viewer/:id/context',
    {
      ...signedIn,
      schema: doc('What the viewer needs to open a study: patient, upload state, entry verdict, settings', {
        params: ZViewerIdParams,
        response: { 200: ZViewerContext, ...errorResponses(400, 401, 404) },
      }),
    },
    (request) => getViewerContext(app.ctx.db, authOf(request), request.params.id),
  );

  app.get(
    '/viewer/studies/:study/first-image',
    {
      ...signedIn,
      schema: doc(
        "The image the viewer opens a study on: the first series' first slice, its metadata and frame " +
          '(multipart/related: a JSON part, then the frame in the stored syntax)',
        {
          params: z.object({ study: z.string().min(1).max(128) }),
          response: { 200: z.unknown(), ...errorResponses(400, 401, 404, 409) },
        },
      ),
    },
    async (request, reply) => {
      const answer = await viewerFirstImage(
        app.ctx,
        scopeOfAuth(authOf(request)),
        request.params.study,
        `${requestBaseUrl(request)}/api/dicomweb`,
      );
      return reply.type(answer.contentType).send(answer.body);
    },
  );

  app.get(
    '/viewer/:id/annotations',
    {
      ...signedIn,
      schema: doc("The study's saved measurements, arrows and key images", {
        params: ZViewerIdParams,
        response: { 200: ZViewerAnnotations, ...errorResponses(400, 401, 404) },
      }),
    },
    (request) => listAnnotations(app.ctx, authOf(request), request.params.id),
  );

  app.put(
    '/viewer/:id/annotations/:annotationUid',
    {
      ...signedIn,
      schema: doc('Save a measurement or arrow (create, or change your own)', {
        params: ZViewerAnnotationParams,
        body: ZViewerAnnotationInput,
        response: { 200: ZViewerAnnotation, ...errorResponses(400, 401, 403, 404, 409) },
      }),
    },
    (request) =>
      saveAnnotation(app.ctx, authOf(request), request.params.id, request.params.annotationUid, request.body),
  );

  app.delete(
    '/viewer/:id/annotations/:annotationUid',
    {
      ...signedIn,
      schema: doc("Delete a measurement or arrow (your own; anyone's for a group admin)", {
        params: ZViewerAnnotationParams,
        response: { 204: z.null(), ...errorResponses(400, 401, 403, 404) },
      }),
    },
    async (request, reply) => {
      await deleteAnnotation(app.ctx, authOf(request), request.params.id, request.params.annotationUid);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/viewer/:id/key-images',
    {
      ...signedIn,
      schema: doc('Mark a frame as a key image (marking it again changes nothing)', {
        params: ZViewerIdParams,
        body: ZKeyImageInput,
        response: { 200: ZKeyImage, ...errorResponses(400, 401, 403, 404) },
      }),
    },
    (request) => markKeyImage(app.ctx, authOf(request), request.params.id, request.body),
  );

  app.delete(
    '/viewer/:id/key-images',
    {
      ...signedIn,
      schema: doc('Unmark a key image', {
        params: ZViewerIdParams,
        querystring: ZUnmarkKeyImageQuery,
        response: { 200: ZRemoved, ...errorResponses(400, 401, 403, 404) },
      }),
    },
    (request) => unmarkKeyImage(app.ctx, authOf(request), request.params.id, request.query),
  );

  app.get(
    '/viewer/:id/priors',
    {
      ...signedIn,
      schema: doc("The patient's other studies the caller may see, newest first (at most 20)", {
        params: ZViewerIdParams,
        response: { 200: ZViewerPriors, ...errorResponses(400, 401, 404) },
      }),
    },
    (request) => listPriors(app.ctx.db, authOf(request), request.params.id),
  );

  app.get(
    '/viewer/:id/weasis',
    {
      ...signedIn,
      schema: doc('A weasis:// launch URL for the study (group setting openInWeasis)', {
        params: ZViewerIdParams,
        response: { 200: ZWeasisLaunch, ...errorResponses(400, 401, 403, 404) },
      }),
    },
    (request) => launchWeasis(app.ctx, authOf(request), request.params.id, app.ctx.publicUrlOf(request)),
  );

  app.get(
    '/viewer/weasis-manifest/:token',
    {
      schema: {
        tags,
        summary: 'The Weasis XML manifest of a launch; the signed, short-lived token is the credential',
        params: ZWeasisManifestParams,
        response: { 200: z.string(), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const xml = await weasisManifest(app.ctx, request.params.token, app.ctx.publicUrlOf(request));
      return reply.type('application/xml; charset=utf-8').header('cache-control', 'no-store').send(xml);
    },
  );

  app.get(
    '/customer-report/share-info',
    {
      ...signedIn,
      schema: doc('Whether a viewer session must pay before reading on (spec-core §4 Viewer payment)', {
        response: { 200: ZShareInfo, ...errorResponses(401) },
      }),
    },
    (request) => getShareInfo(app.ctx, authOf(request)),
  );

  app.post(
    '/viewer/:id/activity',
    {
      ...signedIn,
      schema: doc("The open viewer's heartbeat: the caller is active on the study now", {
        params: ZViewerIdParams,
        response: { 204: z.null(), ...errorResponses(400, 401, 404) },
      }),
    },
    async (request, reply) => {
      await recordViewerActivity(app.ctx.db, authOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/viewer/active-users',
    {
      ...signedIn,
      schema: doc('Who was last active in the viewer on each listed study (assignors, showActiveInViewer)', {
        body: ZActiveInViewerRequest,
        response: { 200: ZActiveInViewer, ...errorResponses(400, 401, 403) },
      }),
    },
    (request) => listActiveInViewer(app.ctx.db, authOf(request), request.body.ids),
  );
};
