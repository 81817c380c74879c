import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZBillingDocumentDetail,
  ZBillingDocumentIdParams,
  ZBillingDocumentList,
  ZInvoiceIdParams,
  ZInvoicePayConfirm,
  ZInvoicePayConfirmRequest,
  ZInvoicePayLink,
  ZPlatformInvoiceList,
  canPayPlatformInvoice,
  canPayTeleInvoice,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { platformInvoicePdf } from '../platform-billing/invoice-pdf.js';
import { teleInvoicePdf } from '../tele-billing/invoice-documents.js';
import { listTeleInvoices, teleInvoiceDetail } from '../tele-billing/invoices.js';
import { confirmInvoicePayment } from './confirm-invoice-payment.js';
import {
  centerInvoiceOf,
  groupPlatformInvoiceOf,
  listGroupPlatformInvoices,
  payLinkForPlatformInvoice,
  payLinkForTeleInvoice,
} from './invoice-pay-links.js';

const ZFile = z.any().meta({ description: 'The invoice PDF' });

/**
 * The payer's side of the invoices (DECISIONS.md beside this file): a center user sees its center's
 * tele-radiology invoices and pays one online; a group administrator sees the group's platform
 * invoices and pays one online. Roles that may not pay: 403 before any lookup; another center's or
 * group's invoice: 404.
 */
export const invoicePaymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['invoice-payments'];
  const center = { onRequest: app.requirePermission(canPayTeleInvoice) };
  const groupAdmin = { onRequest: app.requirePermission(canPayPlatformInvoice) };
  const base = { tags, security: SIGNED_IN };

  app.get(
    '/center-billing/invoices',
    {
      ...center,
      schema: {
        ...base,
        summary: "The tele-radiology invoices and credit notes of the caller's center, newest first",
        response: { 200: ZBillingDocumentList, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const auth = authOf(request);
      if (auth.user.centerId === null) return { documents: [] };
      return listTeleInvoices(app.ctx, auth, { centerId: auth.user.centerId });
    },
  );

  app.get(
    '/center-billing/invoices/:id',
    {
      ...center,
      schema: {
        ...base,
        summary: "One tele-radiology invoice of the caller's center with its lines and payments",
        params: ZBillingDocumentIdParams,
        response: { 200: ZBillingDocumentDetail, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const auth = authOf(request);
      await centerInvoiceOf(app.ctx, auth, request.params.id);
      return teleInvoiceDetail(app.ctx, auth, request.params.id);
    },
  );

  app.get(
    '/center-billing/invoices/:id/pdf',
    {
      ...center,
      schema: {
        ...base,
        summary: "The PDF of a tele-radiology invoice of the caller's center",
        params: ZBillingDocumentIdParams,
        response: { 200: ZFile, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      await centerInvoiceOf(app.ctx, auth, request.params.id);
      const pdf = await teleInvoicePdf(app.ctx, auth, request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${pdf.filename}"`)
        .send(Buffer.from(pdf.body));
    },
  );

  app.post(
    '/center-billing/invoices/:id/pay',
    {
      ...center,
      schema: {
        ...base,
        summary: "The payment provider's link for what the invoice has outstanding",
        params: ZBillingDocumentIdParams,
        response: { 200: ZInvoicePayLink, ...errorResponses(400, 401, 403, 404, 409, 502) },
      },
    },
    (request) =>
      payLinkForTeleInvoice(app.ctx, authOf(request), request.params.id, app.ctx.publicUrlOf(request)),
  );

  app.get(
    '/group-billing/platform-invoices',
    {
      ...groupAdmin,
      schema: {
        ...base,
        summary: "The platform's invoices and credit notes to the caller's group, newest first",
        response: { 200: ZPlatformInvoiceList, ...errorResponses(401, 403) },
      },
    },
    (request) => listGroupPlatformInvoices(app.ctx, authOf(request)),
  );

  app.get(
    '/group-billing/platform-invoices/:invoiceId/pdf',
    {
      ...groupAdmin,
      schema: {
        ...base,
        summary: "The PDF of a platform invoice to the caller's group",
        params: ZInvoiceIdParams,
        response: { 200: ZFile, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await groupPlatformInvoiceOf(app.ctx, authOf(request), request.params.invoiceId);
      const file = await platformInvoicePdf(app.ctx, request.params.invoiceId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );

  app.post(
    '/group-billing/platform-invoices/:invoiceId/pay',
    {
      ...groupAdmin,
      schema: {
        ...base,
        summary: "The payment provider's link for the platform invoice's due",
        params: ZInvoiceIdParams,
        response: { 200: ZInvoicePayLink, ...errorResponses(400, 401, 403, 404, 409, 502) },
      },
    },
    (request) =>
      payLinkForPlatformInvoice(
        app.ctx,
        authOf(request),
        request.params.invoiceId,
        app.ctx.publicUrlOf(request),
      ),
  );

  app.post(
    '/invoice-payments/confirm',
    {
      onRequest: app.requirePermission((roles) => canPayTeleInvoice(roles) || canPayPlatformInvoice(roles)),
      schema: {
        ...base,
        summary: "The invoice page after the provider's return: the provider's answer, recorded when PAID",
        body: ZInvoicePayConfirmRequest,
        response: { 200: ZInvoicePayConfirm, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => confirmInvoicePayment(app.ctx, authOf(request), request.body as Record<string, string>),
  );
};
