import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  REPORT_DOCUMENT_PATHS,
  REPORT_LEFT_OUT_HEADER,
  ZReportDocumentExtras,
  ZReportDocumentRequest,
  ZReportingRowParams,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { documentExtras } from './document-extras.js';
import type { TReportDocumentFormat } from './render-report.js';
import { attachmentDisposition, downloadReportDocument } from './report-documents.service.js';

const ZDocument = z.any().meta({ description: 'The PDF or Word (docx) file' });

const apiPath = (path: string) => path.replace(/^\/api/, '');

/**
 * Report documents (issue 7 §4, spec-core §7): the PDF, the PDF with key images, and Word. Each
 * route is schema + one service call; decisions in DECISIONS.md.
 */
export const reportDocumentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const routes: Array<{ path: string; format: TReportDocumentFormat; withImages: boolean; summary: string }> =
    [
      { path: REPORT_DOCUMENT_PATHS.pdf, format: 'PDF', withImages: false, summary: 'The report as a PDF' },
      {
        path: REPORT_DOCUMENT_PATHS.pdfWithImages,
        format: 'PDF',
        withImages: true,
        summary: "The report as a PDF with the study's key images",
      },
      {
        path: REPORT_DOCUMENT_PATHS.word,
        format: 'WORD',
        withImages: false,
        summary: 'The report as a Word file',
      },
    ];
  for (const route of routes) {
    app.post(
      apiPath(route.path),
      {
        onRequest: app.requireUser,
        schema: {
          tags: ['report-documents'],
          security: SIGNED_IN,
          summary: route.summary,
          description: `showTemplate (letterhead) and appendQr default to the group switches; print: true records the print (Reprint Needed). Asked with a letterhead or key images the row lacks, the document comes without them and the ${REPORT_LEFT_OUT_HEADER} header names them (LETTERHEAD, KEY_IMAGES).`,
          body: ZReportDocumentRequest,
          response: { 200: ZDocument, ...errorResponses(400, 401, 402, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const document = await downloadReportDocument(app.ctx, authOf(request), request.body, {
          format: route.format,
          withImages: route.withImages,
          publicUrl: app.ctx.publicUrlOf(request),
        });
        // issue 21 §7: never the plain document without a word of why.
        if (document.leftOut.length > 0) reply.header(REPORT_LEFT_OUT_HEADER, document.leftOut.join(', '));
        return reply
          .header('content-type', document.contentType)
          .header('content-disposition', attachmentDisposition(document.fileName))
          .header('cache-control', 'no-store')
          .send(Buffer.from(document.bytes.buffer, document.bytes.byteOffset, document.bytes.byteLength));
      },
    );
  }

  app.get(
    '/pdf/extras/:reportStatusId',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['report-documents'],
        security: SIGNED_IN,
        summary: "Whether the row's documents can have a letterhead and key images (the download menu asks)",
        params: ZReportingRowParams,
        response: { 200: ZReportDocumentExtras, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => documentExtras(app.ctx, authOf(request), request.params.reportStatusId),
  );
};
