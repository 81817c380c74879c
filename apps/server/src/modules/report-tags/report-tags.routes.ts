import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAddReportTagRequest,
  ZAddReportTagResponse,
  ZDeleteReportTagRequest,
  ZOk,
  ZReportStatusIdParams,
  ZReportTagList,
  ZTagChoicesResponse,
  ZUpdateReportTagRequest,
  canTagStudy,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import {
  addReportTag,
  deleteReportTag,
  listStudyTags,
  listTagChoices,
  updateReportTag,
} from './manage-tags.js';

/** Tags on studies (spec-core §3 reportTags, §4 Tags, §7 report-tag calls). Rules: core study-files.ts. */
export const reportTagsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['report-tags'];
  const tagger = { onRequest: app.requirePermission(canTagStudy) };

  app.post(
    '/report-tag/add-tags',
    {
      ...tagger,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Tag a study; answers the new tag id (409 when the study has the tag already)',
        body: ZAddReportTagRequest,
        response: { 200: ZAddReportTagResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => addReportTag(app.ctx, authOf(request), request.body),
  );

  app.delete(
    '/report-tag/delete',
    {
      ...tagger,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Delete a tag (its creator or an admin)',
        body: ZDeleteReportTagRequest,
        response: { 200: ZOk, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => deleteReportTag(app.ctx, authOf(request), request.body.id),
  );

  app.post(
    '/report-tag/update',
    {
      ...tagger,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Make a tag global or local (its creator or an admin)',
        body: ZUpdateReportTagRequest,
        response: { 200: ZOk, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => updateReportTag(app.ctx, authOf(request), request.body),
  );

  app.get(
    '/report-tag/choices',
    {
      ...tagger,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The tag dialog's choices: the group's global tags and the caller's own",
        response: { 200: ZTagChoicesResponse, ...errorResponses(401, 403) },
      },
    },
    (request) => listTagChoices(app.ctx, authOf(request)),
  );

  app.get(
    '/report-tag/list/:id',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "A study's tags the caller sees (global ones and the caller's local ones)",
        params: ZReportStatusIdParams,
        response: { 200: ZReportTagList, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({ data: await listStudyTags(app.ctx, authOf(request), request.params.id) }),
  );
};
