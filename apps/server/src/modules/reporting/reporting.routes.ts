import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZOk,
  ZReportAddendumRequest,
  ZReportDraft,
  ZReportDraftRequest,
  ZReportLockRequest,
  ZReportSaveRequest,
  ZReportSaveResponse,
  ZReportTemplate,
  ZReportTemplateIdParams,
  ZReportTemplateQuery,
  ZReportTemplateRequest,
  ZReportingRowParams,
  ZReportsResponse,
  ZStudyDetail,
  canReadTemplates,
} from '@radflow/core';
import { z } from 'zod';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { getStudyDetail } from '../study-detail/study-detail.js';
import { getReports } from './read-reports.js';
import { createTemplate, deleteTemplate, listTemplates, updateTemplate } from './report-templates.js';
import { addAddendum } from './add-addendum.js';
import { lockForReport } from './lock-report.js';
import { saveReport } from './save-report.js';
import { deleteReportDraft, getReportDraft, putReportDraft } from './report-drafts.js';

/**
 * Reporting (issue 7 §1-§2): open to report, save and sign off, read with versions, addendum, and
 * report templates. Every route is schema + one service call; the services check the core rules
 * under the row lock. Decisions: DECISIONS.md in this folder.
 */
export const reportingRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = { onRequest: app.requireUser };
  const security = SIGNED_IN;
  const tags = ['reporting'];
  const writeErrors = errorResponses(400, 401, 403, 404, 409);

  app.post(
    '/report/lock/:reportStatusId',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: 'Open a study to report it: LOCKED for the doctor (a typist names the doctor)',
        params: ZReportingRowParams,
        body: ZReportLockRequest,
        response: { 200: ZStudyDetail, ...writeErrors },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const id = request.params.reportStatusId;
      await lockForReport(app.ctx, auth, id, request.body ?? {});
      return getStudyDetail(app.ctx.db, auth, id);
    },
  );

  app.post(
    '/report/save/:reportStatusId',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: 'Save the report (REPORTED/DRAFTED) or sign it off (SIGNED_OFF, or to the verifier)',
        description:
          "Answers the study row, the stored version (the next save's baseVersion) and the spec's re-sign-off alert when it was signed off again. A save whose baseVersion is not the newest stored version (another tab or writer saved meanwhile) is 409 with additionalInfo 'baseVersion'.",
        params: ZReportingRowParams,
        body: ZReportSaveRequest,
        response: { 200: ZReportSaveResponse, ...writeErrors },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const id = request.params.reportStatusId;
      const { alert, savedVersion } = await saveReport(app.ctx, auth, id, request.body);
      return { ...(await getStudyDetail(app.ctx.db, auth, id)), alert, savedVersion };
    },
  );

  app.post(
    '/report/addendum/:reportStatusId',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: 'Add an addendum to a signed-off report, signed now by its doctor',
        params: ZReportingRowParams,
        body: ZReportAddendumRequest,
        response: { 200: ZReportSaveResponse, ...writeErrors },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const id = request.params.reportStatusId;
      const { alert, savedVersion } = await addAddendum(app.ctx, auth, id, request.body);
      return { ...(await getStudyDetail(app.ctx.db, auth, id)), alert, savedVersion };
    },
  );

  app.get(
    '/report/:reportStatusId',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: "The study's reports with every saved version (who, when, content)",
        params: ZReportingRowParams,
        response: { 200: ZReportsResponse, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => getReports(app.ctx.db, authOf(request), request.params.reportStatusId),
  );

  const draftErrors = errorResponses(400, 401, 403, 404, 409);
  app.get(
    '/report/draft/:reportStatusId',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: "The caller's unsaved draft of the row's report, or null (writers of the row only)",
        params: ZReportingRowParams,
        response: { 200: ZReportDraft.nullable(), ...draftErrors },
      },
    },
    (request) => getReportDraft(app.ctx, authOf(request), request.params.reportStatusId),
  );

  app.put(
    '/report/draft/:reportStatusId',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: "Keep the caller's unsaved draft (auto-save); a save or sign-off removes it",
        params: ZReportingRowParams,
        body: ZReportDraftRequest,
        response: { 200: ZReportDraft, ...draftErrors },
      },
    },
    (request) => putReportDraft(app.ctx, authOf(request), request.params.reportStatusId, request.body),
  );

  app.delete(
    '/report/draft/:reportStatusId',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: "Drop the caller's draft (the writer chose the saved report)",
        params: ZReportingRowParams,
        response: { 200: ZOk, ...draftErrors },
      },
    },
    async (request) => {
      await deleteReportDraft(app.ctx, authOf(request), request.params.reportStatusId);
      return { ok: true as const };
    },
  );

  app.get(
    '/report-template/',
    {
      // Template keepers and verifiers only (core canReadTemplates), before the query is read.
      onRequest: app.requirePermission(canReadTemplates),
      schema: {
        tags,
        security,
        summary: "The caller's and the group's report templates that fit a study's modality, body part, sex",
        querystring: ZReportTemplateQuery,
        response: { 200: z.array(ZReportTemplate), ...errorResponses(400, 401, 403) },
      },
    },
    (request) => listTemplates(app.ctx.db, authOf(request), request.query),
  );

  app.post(
    '/report-template/',
    {
      ...base,
      schema: {
        tags,
        security,
        summary:
          'Create a report template (not for sole doctors with disableCreateTemplateOptionToRadiologist)',
        body: ZReportTemplateRequest,
        response: { 200: ZReportTemplate, ...errorResponses(400, 401, 403, 409) },
      },
    },
    (request) => createTemplate(app.ctx, authOf(request), request.body),
  );

  app.put(
    '/report-template/:id',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: 'Edit a report template (its owner or a group admin)',
        params: ZReportTemplateIdParams,
        body: ZReportTemplateRequest,
        response: { 200: ZReportTemplate, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => updateTemplate(app.ctx, authOf(request), request.params.id, request.body),
  );

  app.delete(
    '/report-template/:id',
    {
      ...base,
      schema: {
        tags,
        security,
        summary: 'Delete a report template (its owner or a group admin)',
        params: ZReportTemplateIdParams,
        response: { 200: ZOk, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await deleteTemplate(app.ctx, authOf(request), request.params.id);
      return { ok: true as const };
    },
  );
};
