import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAddStudyPartRequest,
  ZAssignMultiRequest,
  ZAssignMultiResponse,
  ZAssignStudyRequest,
  ZAuditorAssignRequest,
  ZStudyAuditStatusRequest,
  ZStudyDetail,
  ZStudyHistory,
  ZStudyIdParams,
  ZStudyTimeline,
  ZUpdateStudyDetailsRequest,
  readsReportWork,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { assignAuditor, assignStudies, assignStudy, setAuditStatus } from './assign-study.js';
import { getStudyDetail, getStudyHistory, getStudyTimeline } from '../study-detail/study-detail.js';
import { markDeleted, reworkStudy, splitStudy, toggleUrgent, unlockStudy } from './study-state.js';
import { setStudyParts, updateStudyDetails } from './update-details.js';

/**
 * The study actions of spec-core §7 "Study actions" (issue 4 §2). Every route is schema + one
 * service call; the services check visibility (404), role and group switch (403) and status (409)
 * with the core rules, under the row lock. Decisions: DECISIONS.md in this folder.
 */
export const studyActionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = { onRequest: app.requireUser };
  const tags = ['study-actions'];
  const security = SIGNED_IN;
  const changed = { 200: ZStudyDetail, ...errorResponses(400, 401, 403, 404, 409) };

  app.get(
    '/report-status/id/:id',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: 'One study row (spec-core §3) the caller may see; 404 otherwise',
        params: ZStudyIdParams,
        response: { 200: ZStudyDetail, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => getStudyDetail(app.ctx.db, authOf(request), request.params.id),
  );

  app.get(
    '/history/:id',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: 'The study row with its history, film and report attachments and its timeline',
        params: ZStudyIdParams,
        response: { 200: ZStudyHistory, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => getStudyHistory(app.ctx.db, authOf(request), request.params.id),
  );

  app.get(
    '/report-status/timeline/:id',
    {
      // spec-core §6 gives the timeline button to centers and assignors; it names the staff and
      // their steps, so the read-only roles (core readsReportWork) are refused before the lookup.
      onRequest: app.requirePermission(readsReportWork),
      schema: {
        tags,
        security,
        summary: "The study's timeline, oldest first: who did what, when, from which status to which",
        params: ZStudyIdParams,
        response: { 200: ZStudyTimeline, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => getStudyTimeline(app.ctx.db, authOf(request), request.params.id),
  );

  /** A single-row action: run it, then answer the row as it is now. */
  const rowAction = (
    path: string,
    summary: string,
    run: (ctx: typeof app.ctx, auth: ReturnType<typeof authOf>, id: number) => Promise<unknown>,
  ) =>
    app.post(
      path,
      { ...base, schema: { tags, security, summary, params: ZStudyIdParams, response: changed } },
      async (request) => {
        const auth = authOf(request);
        await run(app.ctx, auth, request.params.id);
        return getStudyDetail(app.ctx.db, auth, request.params.id);
      },
    );

  rowAction(
    '/report-status/urgent/:id',
    'Toggle the urgent mark (CREATED or HISTORY_CREATED; center or admin)',
    toggleUrgent,
  );
  rowAction('/report-status/mark-delete/:id', 'Mark the study deleted (irreversible)', markDeleted);
  rowAction(
    '/report-status/unlock/:id',
    'Unlock: back to HISTORY_CREATED, the report lock released',
    unlockStudy,
  );
  rowAction(
    '/report-status/rework/:id',
    'Rework: all reports deleted, reworked set, sign-off and lock cleared, back to HISTORY_CREATED',
    reworkStudy,
  );

  app.post(
    '/report-status/split/:id',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: 'Split: a new study row for the same images (allowToSplitStudy; not already split)',
        description: 'Answers the new row (its splitFromReportStatusId is the id split).',
        params: ZStudyIdParams,
        response: changed,
      },
    },
    async (request) => {
      const auth = authOf(request);
      const childId = await splitStudy(app.ctx, auth, request.params.id);
      return getStudyDetail(app.ctx.db, auth, childId);
    },
  );

  app.post(
    '/report-status/update-details/:id',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: "The Edit details form; on a CREATED study by a center or tele user: 'Send for reporting'",
        params: ZStudyIdParams,
        body: ZUpdateStudyDetailsRequest,
        response: changed,
      },
    },
    async (request) => {
      const auth = authOf(request);
      await updateStudyDetails(app.ctx, auth, request.params.id, request.body);
      return getStudyDetail(app.ctx.db, auth, request.params.id);
    },
  );

  app.post(
    '/tele-pricing/add-study-part',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: 'Set the study types (reportStudyPart) of a study, by name',
        body: ZAddStudyPartRequest,
        response: changed,
      },
    },
    async (request) => {
      const auth = authOf(request);
      await setStudyParts(app.ctx, auth, request.body);
      return getStudyDetail(app.ctx.db, auth, request.body.reportStatusId);
    },
  );

  app.post(
    '/report-status/assign',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: 'Assign a study to an active doctor of the group by e-mail; empty assignedTo unassigns',
        body: ZAssignStudyRequest,
        response: changed,
      },
    },
    async (request) => {
      const auth = authOf(request);
      await assignStudy(app.ctx, auth, request.body);
      return getStudyDetail(app.ctx.db, auth, request.body.reportId);
    },
  );

  app.post(
    '/report-status/assign-multi',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: 'Assign several studies to one doctor (ROLE_ASSIGNOR only): all of them or none',
        body: ZAssignMultiRequest,
        response: { 200: ZAssignMultiResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const reportIds = await assignStudies(app.ctx, authOf(request), request.body);
      return { reportIds, assignedTo: request.body.assignedTo };
    },
  );

  app.post(
    '/report-status/auditor-assign',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: 'Assign an auditor to a signed-off study (enableAuditorAssignmentFeature); empty removes',
        body: ZAuditorAssignRequest,
        response: changed,
      },
    },
    async (request) => {
      const auth = authOf(request);
      await assignAuditor(app.ctx, auth, request.body);
      return getStudyDetail(app.ctx.db, auth, request.body.reportStatusId);
    },
  );

  app.post(
    '/report-status/audit-status/:id',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: "The audit approve/reject switch, by the study's assigned auditor",
        params: ZStudyIdParams,
        body: ZStudyAuditStatusRequest,
        response: changed,
      },
    },
    async (request) => {
      const auth = authOf(request);
      await setAuditStatus(app.ctx, auth, request.params.id, request.body.status);
      return getStudyDetail(app.ctx.db, auth, request.params.id);
    },
  );
};
