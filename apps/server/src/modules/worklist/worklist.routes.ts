import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type TRole,
  ZReportStatusListRequest,
  ZStudyListPage,
  ZStudyListRequest,
  listCallPathForList,
  listKindForUser,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { listStudies } from './list-studies.js';
import { checkedSerializerCompiler } from './study-list.serializer.js';

/**
 * Whether a user has a list that uses the call at `path` (core listKindForUser + listCallPathForList),
 * plus the admin patient list on POST /report-status/ (spec-core §7). Both list variants of a route use
 * the same call, so the user-map and setting inputs of listKindForUser do not change the answer.
 */
function usesListCall(path: '/dicom-web/studies/' | '/report-status/') {
  return (roles: readonly TRole[]): boolean => {
    if (path === '/report-status/' && roles.includes('ROLE_ADMIN')) return true;
    return (['/', '/status'] as const).some((route) => {
      const kind = listKindForUser(
        { roles, hasDoctorRoleInUserMap: false },
        { sharingDetailBeforeSend: false },
        route,
      );
      return kind !== null && listCallPathForList(kind) === path;
    });
  };
}

/** The two list calls of spec-core §7 "Lists and summaries". */
export const worklistRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['worklist'];

  app.post(
    '/dicom-web/studies/',
    {
      onRequest: app.requirePermission(usesListCall('/dicom-web/studies/')),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The admin and doctor study lists: one page of study rows the caller may see',
        description:
          'Tab fields: showAssigned / showUnassigned (a doctor is / is not assigned), showReprintNeeded (signed ' +
          "off again after printing), assignedTos (e-mails, 'ME' = the caller or the contextDoctor), contextDoctor " +
          '(the caller or a doctor in their user map, else 403). totalElements is exact up to 1,000 matches; ' +
          "above, PostgreSQL's estimate, more than the page's end while rows follow and exact on the last page.",
        body: ZStudyListRequest,
        response: { 200: ZStudyListPage, ...errorResponses(400, 401, 403) },
      },
      // The answer is checked against ZStudyListPage, then written by a compiled serializer.
      serializerCompiler: checkedSerializerCompiler,
    },
    async (request) => listStudies(app.ctx.db, authOf(request), request.body),
  );

  app.post(
    '/report-status/',
    {
      onRequest: app.requirePermission(usesListCall('/report-status/')),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The center, tele and admin patient lists: one page of study rows the caller may see',
        body: ZReportStatusListRequest,
        response: { 200: ZStudyListPage, ...errorResponses(400, 401, 403) },
      },
      // The answer is checked against ZStudyListPage, then written by a compiled serializer.
      serializerCompiler: checkedSerializerCompiler,
    },
    async (request) => listStudies(app.ctx.db, authOf(request), request.body),
  );
};
