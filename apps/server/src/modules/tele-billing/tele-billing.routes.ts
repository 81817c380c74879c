import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAddTelePriceBody,
  ZBillingDocumentDetail,
  ZBillingDocumentIdParams,
  ZBillingDocumentList,
  ZCopyDefaultPricesBody,
  ZCopyDefaultPricesResult,
  ZCreditNoteBody,
  ZEmailInvoiceResult,
  ZInvoiceMonthBody,
  ZInvoicePreview,
  ZRecordBillingPaymentBody,
  ZTeleInvoiceListQuery,
  ZTeleInvoiceRequest,
  ZTelePrice,
  ZTelePriceList,
  ZTelePriceListQuery,
  canUseTeleBilling,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { idempotencyKeyOf } from '../idempotency/idempotency.js';
import { refreshGroupDunning } from './dunning.js';
import { emailTeleInvoice, payTeleInvoice, teleInvoicePdf } from './invoice-documents.js';
import {
  addCreditNote,
  invoiceMonth,
  issueTeleInvoice,
  listTeleInvoices,
  previewTeleInvoice,
  teleInvoiceDetail,
} from './invoices.js';
import { addTelePrice, copyDefaultPrices, listTelePrices } from './prices.js';

/**
 * Manage Tele Pricing and Manage Tele Invoice (issue 26 §1). Who: core canUseTeleBilling, each in
 * their own group (another group's centers and documents are 404). DECISIONS.md beside this file.
 */
export const teleBillingRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['tele-billing'];
  const guard = { onRequest: app.requirePermission(canUseTeleBilling) };
  const base = { tags, security: SIGNED_IN };
  const detail = { 200: ZBillingDocumentDetail, ...errorResponses(400, 401, 403, 404, 409) };

  app.get(
    '/tele-pricing/prices',
    {
      ...guard,
      schema: {
        ...base,
        summary: 'A price list (a center or the default list) with its history',
        querystring: ZTelePriceListQuery,
        response: { 200: ZTelePriceList, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => listTelePrices(app.ctx, authOf(request), request.query.centerId),
  );

  app.post(
    '/tele-pricing/prices',
    {
      ...guard,
      schema: {
        ...base,
        summary: 'Add a price from an effective date (a change or a retirement is a later price)',
        body: ZAddTelePriceBody,
        response: { 200: ZTelePrice, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => addTelePrice(app.ctx, authOf(request), request.body),
  );

  app.post(
    '/tele-pricing/prices/copy-default',
    {
      ...guard,
      schema: {
        ...base,
        summary: "Copy the default list's prices in force to a center",
        body: ZCopyDefaultPricesBody,
        response: { 200: ZCopyDefaultPricesResult, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => copyDefaultPrices(app.ctx, authOf(request), request.body),
  );

  app.post(
    '/tele-invoices/preview',
    {
      ...guard,
      schema: {
        ...base,
        summary: "A center's invoice for a period as it would be issued",
        body: ZTeleInvoiceRequest,
        response: { 200: ZInvoicePreview, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => previewTeleInvoice(app.ctx, authOf(request), request.body),
  );

  app.post(
    '/tele-invoices',
    {
      ...guard,
      schema: {
        ...base,
        summary: "Issue a center's invoice for a period (a re-run answers the issued one)",
        body: ZTeleInvoiceRequest,
        response: detail,
      },
    },
    (request) => issueTeleInvoice(app.ctx, authOf(request), request.body),
  );

  app.post(
    '/tele-invoices/month',
    {
      ...guard,
      schema: {
        ...base,
        summary: 'Invoice every center for a month (idempotent)',
        body: ZInvoiceMonthBody,
        response: { 200: ZBillingDocumentList, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => invoiceMonth(app.ctx, authOf(request), request.body),
  );

  app.get(
    '/tele-invoices',
    {
      ...guard,
      schema: {
        ...base,
        summary: 'Invoices and credit notes by center, period and status',
        querystring: ZTeleInvoiceListQuery,
        response: { 200: ZBillingDocumentList, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => listTeleInvoices(app.ctx, authOf(request), request.query),
  );

  app.get(
    '/tele-invoices/:id',
    {
      ...guard,
      schema: {
        ...base,
        summary: 'An invoice or credit note with its lines, payments and credit notes',
        params: ZBillingDocumentIdParams,
        response: detail,
      },
    },
    (request) => teleInvoiceDetail(app.ctx, authOf(request), request.params.id),
  );

  app.get(
    '/tele-invoices/:id/pdf',
    {
      ...guard,
      schema: {
        ...base,
        summary: 'The PDF of an invoice or credit note',
        params: ZBillingDocumentIdParams,
        response: { 200: z.any(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const pdf = await teleInvoicePdf(app.ctx, authOf(request), request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${pdf.filename}"`)
        .send(Buffer.from(pdf.body));
    },
  );

  app.post(
    '/tele-invoices/dunning/refresh',
    {
      ...guard,
      schema: {
        ...base,
        summary: 'Label the rows of centers with overdue invoices now (and unlabel the rest)',
        response: { 200: z.object({ added: z.number(), removed: z.number() }), ...errorResponses(401, 403) },
      },
    },
    (request) => refreshGroupDunning(app.ctx, authOf(request).user.groupId),
  );

  app.post(
    '/tele-invoices/:id/email',
    {
      ...guard,
      schema: {
        ...base,
        summary: "E-mail the PDF to the center's e-mail",
        params: ZBillingDocumentIdParams,
        response: { 200: ZEmailInvoiceResult, ...errorResponses(400, 401, 403, 404, 502) },
      },
    },
    (request) => emailTeleInvoice(app.ctx, authOf(request), request.params.id),
  );

  app.post(
    '/tele-invoices/:id/payments',
    {
      ...guard,
      schema: {
        ...base,
        summary: 'Record a payment (partial or full); Idempotency-Key makes a repeat harmless',
        params: ZBillingDocumentIdParams,
        body: ZRecordBillingPaymentBody,
        response: detail,
      },
    },
    (request) =>
      payTeleInvoice(
        app.ctx,
        authOf(request),
        request.params.id,
        request.body,
        idempotencyKeyOf(request.headers),
      ),
  );

  app.post(
    '/tele-invoices/:id/credit-notes',
    {
      ...guard,
      schema: {
        ...base,
        summary: 'A credit note against an issued invoice (never an edit of it)',
        params: ZBillingDocumentIdParams,
        body: ZCreditNoteBody,
        response: detail,
      },
    },
    (request) => addCreditNote(app.ctx, authOf(request), request.params.id, request.body),
  );
};
