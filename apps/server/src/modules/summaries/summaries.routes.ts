import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAdvancedSummaryPage,
  ZStudyListPage,
  ZSummaryRequest,
  ZSummaryTotals,
  hasAdvancedSummaryScreen,
  hasSummaryScreen,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { checkedSerializerCompiler } from '../worklist/study-list.serializer.js';
import {
  type TSummaryFile,
  advancedSummary,
  summaryCsv,
  summaryExcel,
  summaryPage,
  summaryTotals,
} from './summary.service.js';

/** What sending a file needs of a reply (any route's typed reply has it). */
interface TReplyLike<R> {
  header(key: string, value: string): R;
  send(payload: unknown): unknown;
}

const ZFile = z.any().meta({ description: 'The file' });

const RANGE_HELP =
  'startTime and endTime are days (yyyy-MM-dd) of the group display time zone (+05:30 by default), ' +
  'the end included, at most 180 days; summaryType is UPLOAD_TIME (default), SIGNED_OFF_TIME or ' +
  'STUDY_TIME. A bad field is a 400 naming it; hideSummaryPage (or a tele-medicine-customised assignor ' +
  "or center) is a 403 'You are not allowed to view this page'.";

/** spec-core §7 'Lists and summaries': the summary calls, and the screen's Excel download. */
export const summariesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['summaries'];
  const onRequest = app.requirePermission(hasSummaryScreen);

  app.post(
    '/report-summary/',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The report summary: one page of the rows the caller may see in a date range',
        description: RANGE_HELP,
        body: ZSummaryRequest,
        response: { 200: ZStudyListPage, ...errorResponses(400, 401, 403) },
      },
      serializerCompiler: checkedSerializerCompiler,
    },
    async (request) => summaryPage(app.ctx.db, authOf(request), request.body),
  );

  app.post(
    '/query/report-summary',
    {
      onRequest: app.requirePermission(hasAdvancedSummaryScreen),
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'The Advanced Search Report Summary: the page of the range, and aggregates by center and for the group',
        description:
          `${RANGE_HELP} aggregations: for the range (CUSTOM) and the last 1, 7 and 30 days (calendar days ` +
          'of the display zone ending today): total cases, completed (signed off), signed off within 1440 ' +
          'minutes of the upload, unique patients; for the group and by center e-mail (at most 1000 centers). ' +
          "Off (403 'You are not allowed to view this page') unless enableElasticReportSummary.",
        body: ZSummaryRequest,
        response: { 200: ZAdvancedSummaryPage, ...errorResponses(400, 401, 403) },
      },
      serializerCompiler: checkedSerializerCompiler,
    },
    async (request) => advancedSummary(app.ctx.db, authOf(request), request.body, app.ctx.now()),
  );

  app.post(
    '/total-summary/',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The totals of a report summary (all, signed off, pending, deleted)',
        description: RANGE_HELP,
        body: ZSummaryRequest,
        response: { 200: ZSummaryTotals, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => summaryTotals(app.ctx.db, authOf(request), request.body),
  );

  const sendFile = <R extends TReplyLike<R>>(file: TSummaryFile, reply: R) =>
    reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'no-store')
      .send(file.body);

  app.post(
    '/report-summary/csv',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The report summary as a CSV file: the screen columns, every row, the totals',
        description: `${RANGE_HELP} Refused (403) to an assignor under disableExcelDownloadForAssignor.`,
        body: ZSummaryRequest,
        response: { 200: ZFile, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) =>
      sendFile(
        await summaryCsv(app.ctx.db, authOf(request), request.body, app.ctx.publicUrlOf(request)),
        reply,
      ),
  );

  app.post(
    '/report-summary/xlsx',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          "'Download Excel': the report summary as a streamed .xlsx (the screen columns, every row, the totals)",
        description: `${RANGE_HELP} Refused (403) to an assignor under disableExcelDownloadForAssignor.`,
        body: ZSummaryRequest,
        response: { 200: ZFile, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const file = await summaryExcel(
        app.ctx.db,
        authOf(request),
        request.body,
        app.ctx.publicUrlOf(request),
        (error) => request.log.error({ err: error }, 'summary excel failed while streaming'),
      );
      return sendFile(file, reply);
    },
  );
};
