import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PLATFORM_BILLING_ROLES,
  ZChangePlanBody,
  ZCreatePlanBody,
  ZPlanIdParams,
  ZPlanTermsBody,
  ZPlatformPlan,
  ZPlatformCreditNoteBody,
  ZExpireSubscriptionBody,
  ZExtendSubscriptionBody,
  ZGroupIdParams,
  ZInvoiceIdParams,
  ZIssueInvoicesAnswer,
  ZIssueInvoicesBody,
  ZPeriodRangeQuery,
  ZPlatformDashboard,
  ZPlatformInvoice,
  ZPlatformInvoiceList,
  ZPlatformInvoiceQuery,
  ZPlatformOverview,
  ZPlatformPayment,
  ZPlatformPaymentList,
  ZPlatformSubscription,
  ZPlatformUsage,
  ZRecordPlatformPaymentBody,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { idempotencyKeyOf, onceForKey } from '../idempotency/idempotency.js';
import { requirePlatformBilling } from './access.js';
import { platformInvoicePdf } from './invoice-pdf.js';
import { creditInvoice, issueMonth, listInvoices } from './invoices.js';
import { listPlatformPayments, recordPlatformPayment } from './payments.js';
import { createPlan, updatePlanTerms } from './plans.js';
import { readOverview, readPlatformDashboard, readUsage } from './reports.js';
import { changePlan, expireSubscription, extendSubscription } from './subscriptions.js';

const ZFile = z.any().meta({ description: 'The invoice PDF' });

/**
 * The platform's billing of the groups (issue 26 §3; DECISIONS.md): read by the admin biller and the
 * sales role of the platform's operator group; the money writes are the admin biller's.
 */
export const platformBillingRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['platform-billing'];
  const readers = requirePlatformBilling(app, PLATFORM_BILLING_ROLES);
  const biller = requirePlatformBilling(app, ['ROLE_ADMIN_BILLER']);
  const db = app.ctx.db;
  const actor = (request: Parameters<typeof authOf>[0]) => authOf(request).user.email;

  app.get(
    '/platform-billing/overview',
    {
      onRequest: readers,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The plans, and every group with its plan, subscription status, expiry and what it owes',
        response: { 200: ZPlatformOverview, ...errorResponses(401, 403) },
      },
    },
    () => readOverview(db, app.ctx.now()),
  );

  app.get(
    '/platform-billing/usage',
    {
      onRequest: readers,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Studies received and first signed off per group and month (months of Asia/Kolkata)',
        querystring: ZPeriodRangeQuery,
        response: { 200: ZPlatformUsage, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => readUsage(db, request.query, app.ctx.now()),
  );

  app.post(
    '/platform-billing/plans',
    {
      onRequest: biller,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'A new plan: code, kind, monthly fee, included studies, per-study price, trial days',
        body: ZCreatePlanBody,
        response: { 200: ZPlatformPlan, ...errorResponses(400, 401, 403, 409) },
      },
    },
    (request) => createPlan(db, request.body, actor(request)),
  );

  app.post(
    '/platform-billing/plans/:planId',
    {
      onRequest: biller,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "A plan's new terms, for invoices issued from now on (issued invoices keep theirs)",
        params: ZPlanIdParams,
        body: ZPlanTermsBody,
        response: { 200: ZPlatformPlan, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => updatePlanTerms(db, request.params.planId, request.body, actor(request)),
  );

  app.post(
    '/platform-billing/groups/:groupId/plan',
    {
      onRequest: readers,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Put a group on a plan (version: the subscription's as read, null when it has none)",
        params: ZGroupIdParams,
        body: ZChangePlanBody,
        response: { 200: ZPlatformSubscription, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) =>
      db.transaction((tx) =>
        changePlan(tx, {
          groupId: request.params.groupId,
          ...request.body,
          actorEmail: actor(request),
          now: app.ctx.now(),
        }),
      ),
  );

  app.post(
    '/platform-billing/groups/:groupId/extend',
    {
      onRequest: readers,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Extend a subscription by whole months from the later of now and its expiry',
        params: ZGroupIdParams,
        body: ZExtendSubscriptionBody,
        response: { 200: ZPlatformSubscription, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) =>
      db.transaction((tx) =>
        extendSubscription(tx, {
          groupId: request.params.groupId,
          ...request.body,
          actorEmail: actor(request),
          now: app.ctx.now(),
        }),
      ),
  );

  app.post(
    '/platform-billing/groups/:groupId/expire',
    {
      onRequest: biller,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Expire a group's subscription now (its users see the subscription banner)",
        params: ZGroupIdParams,
        body: ZExpireSubscriptionBody,
        response: { 200: ZPlatformSubscription, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) =>
      db.transaction((tx) =>
        expireSubscription(tx, {
          groupId: request.params.groupId,
          version: request.body.version,
          actorEmail: actor(request),
          now: app.ctx.now(),
        }),
      ),
  );

  app.post(
    '/platform-billing/invoices/issue',
    {
      onRequest: biller,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Invoice a finished month for every group on a paid plan; a re-run issues only what is missing',
        body: ZIssueInvoicesBody,
        response: { 200: ZIssueInvoicesAnswer, ...errorResponses(400, 401, 403) },
      },
    },
    (request) =>
      db.transaction((tx) =>
        issueMonth(tx, { period: request.body.period, actorEmail: actor(request), now: app.ctx.now() }),
      ),
  );

  app.get(
    '/platform-billing/invoices',
    {
      onRequest: readers,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Invoices and credit notes, newest first (at most 500), by month, group or overdue',
        querystring: ZPlatformInvoiceQuery,
        response: { 200: ZPlatformInvoiceList, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ invoices: await listInvoices(db, request.query, app.ctx.now()) }),
  );

  app.get(
    '/platform-billing/invoices/:invoiceId/pdf',
    {
      onRequest: readers,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The invoice (or credit note) PDF; its amounts are the stored ones',
        params: ZInvoiceIdParams,
        response: { 200: ZFile, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const file = await platformInvoicePdf(app.ctx, request.params.invoiceId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );

  app.post(
    '/platform-billing/invoices/:invoiceId/credit-note',
    {
      onRequest: biller,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Cancel an unpaid invoice by a credit note (the next run of its month re-issues it)',
        params: ZInvoiceIdParams,
        body: ZPlatformCreditNoteBody,
        response: { 200: ZPlatformInvoice, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) =>
      db.transaction((tx) =>
        creditInvoice(tx, {
          invoiceId: request.params.invoiceId,
          reason: request.body.reason,
          actorEmail: actor(request),
          now: app.ctx.now(),
        }),
      ),
  );

  app.post(
    '/platform-billing/payments',
    {
      onRequest: biller,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          "Record a group's payment (Idempotency-Key: a repeat answers the first); settles the invoice " +
          'given and extends the subscription a month when it completes the invoice or is an advance',
        body: ZRecordPlatformPaymentBody,
        response: { 200: ZPlatformPayment, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => {
      const key = idempotencyKeyOf(request.headers);
      const auth = authOf(request);
      return db.transaction((tx) =>
        onceForKey(tx, auth, key, 'platform-billing:payment', () =>
          recordPlatformPayment(tx, { body: request.body, actorEmail: auth.user.email, now: app.ctx.now() }),
        ),
      );
    },
  );

  app.get(
    '/platform-billing/payments',
    {
      onRequest: readers,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Payments recorded, newest first (at most 500), of one group or all',
        querystring: z.object({ groupId: z.coerce.number().int().positive().optional() }),
        response: { 200: ZPlatformPaymentList, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ payments: await listPlatformPayments(db, request.query.groupId) }),
  );

  app.get(
    '/platform-billing/dashboard',
    {
      onRequest: readers,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Billing and Admin Sales dashboards: revenue, groups by plan, usage, sign-ups, overdue (≤ 24 months)',
        querystring: ZPeriodRangeQuery,
        response: { 200: ZPlatformDashboard, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => readPlatformDashboard(db, request.query, app.ctx.now()),
  );
};
