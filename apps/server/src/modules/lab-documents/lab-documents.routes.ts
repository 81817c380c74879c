import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZLabAmuSummaryRequest,
  ZLabSummaryPage,
  ZLabSummaryRequest,
  ZLabUsers,
  canUseLab,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { printAppointmentSlip, printBill } from './bill-documents.service.js';
import {
  type TLabFile,
  labAmuSummaryPdf,
  labSummaryCsv,
  labSummaryPdf,
  labSummarySearch,
  labTestsExcel,
  labUsers,
} from './lab-summary.service.js';

interface TReplyLike<R> {
  header(key: string, value: string): R;
  send(payload: unknown): unknown;
}

const ZFile = z.any().meta({ description: 'The file' });
const ZId = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

const RANGE_HELP =
  'startTime and endTime are days (yyyy-MM-dd) of the group display time zone, the end included, at most ' +
  "180 days; either missing is a 400 'Please select date'. Bills by bill date. A receptionist gets only " +
  'the bills they created; a supervisor all of the lab, or those of receptionistName (e-mail or name).';

/** spec-lab §7: the bill and appointment slip PDFs, the lab summary and its downloads. */
export const labDocumentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['lab'];
  const onRequest = app.requirePermission(canUseLab);

  // PDFs open in a new tab (spec-lab §2): inline; files of the summary download: attachment.
  const send = <R extends TReplyLike<R>>(file: TLabFile, reply: R, disposition: 'inline' | 'attachment') =>
    reply
      .header('content-type', file.contentType)
      .header('content-disposition', `${disposition}; filename="${file.fileName}"`)
      .header('cache-control', 'no-store')
      .send(file.body);

  app.get(
    '/lab/bill/print/:id',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The bill / invoice PDF of a bill of the caller's lab (another lab's bill: 404)",
        params: ZId,
        response: { 200: ZFile, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      send(await printBill(app.ctx, authOf(request), request.params.id), reply, 'inline'),
  );

  app.get(
    '/lab/appointment-slip/print/:id',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The appointment slip PDF of a bill (409 when none of its tests has an appointment)',
        params: ZId,
        response: { 200: ZFile, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      send(await printAppointmentSlip(app.ctx, authOf(request), request.params.id), reply, 'inline'),
  );

  app.post(
    '/lab/summary/search',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The lab summary: a page of bills with their payments, and the totals of the range',
        description: `${RANGE_HELP} sortType DATE_CREATED_AT (default), RECEPTIONIST_NAME, PAYMENT_RECORDED_BY; scheduled true = SCHEDULED bills only, false = the others.`,
        body: ZLabSummaryRequest,
        response: { 200: ZLabSummaryPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => labSummarySearch(app.ctx, authOf(request), request.body),
  );

  app.get(
    '/lab/get-lab-users',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The lab's receptionists and supervisors, by name (supervisors only)",
        response: { 200: ZLabUsers, ...errorResponses(401, 403) },
      },
    },
    async (request) => labUsers(app.ctx, authOf(request)),
  );

  app.post(
    '/lab/summary/csv',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The lab summary as CSV: every bill of the range, then the totals',
        description: RANGE_HELP,
        body: ZLabSummaryRequest,
        response: { 200: ZFile, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) =>
      send(await labSummaryCsv(app.ctx, authOf(request), request.body), reply, 'attachment'),
  );

  app.post(
    '/lab/summary/tests/csv',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          "'Downloading tests excel': every test line of the range's bills as an .xlsx (supervisors only)",
        description: RANGE_HELP,
        body: ZLabSummaryRequest,
        response: { 200: ZFile, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) =>
      send(
        await labTestsExcel(app.ctx, authOf(request), request.body, (error) =>
          request.log.error({ err: error }, 'lab tests excel failed while streaming'),
        ),
        reply,
        'attachment',
      ),
  );

  app.post(
    '/lab/summary/pdf',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The lab summary as a PDF (group switch enableSummaryPdfRIS, else 403)',
        description: RANGE_HELP,
        body: ZLabSummaryRequest,
        response: { 200: ZFile, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) =>
      send(await labSummaryPdf(app.ctx, authOf(request), request.body), reply, 'attachment'),
  );

  app.post(
    '/lab/summary/amu-summary-pdf',
    {
      onRequest,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'The day-end collection summary PDF: tests by modality, payments by method, bill totals (supervisor, amuSpecialCustomization)',
        description: RANGE_HELP,
        body: ZLabAmuSummaryRequest,
        response: { 200: ZFile, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) =>
      send(await labAmuSummaryPdf(app.ctx, authOf(request), request.body), reply, 'attachment'),
  );
};
