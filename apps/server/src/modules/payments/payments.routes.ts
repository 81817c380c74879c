import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type TRole,
  ZPaymentConfirmRequest,
  ZPaymentConfirmResponse,
  ZRecordDeskPaymentBody,
  ZReportStatusIdParams,
  ZRequestPaymentBody,
  ZStudyPayments,
  canManageStudyPayment,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { confirmPayment } from './confirm-payment.js';
import {
  type TPaymentsDeps,
  cancelPayment,
  listStudyPayments,
  recordDeskPayment,
  requestPayment,
} from './study-payments.js';

/** Roles that may handle payments on some study (of their own center): the rest are refused before any lookup. */
const mayEverManage = (roles: readonly TRole[]) =>
  canManageStudyPayment({ roles, row: { status: 'CREATED', centerId: 0 }, userCenterId: 0 });

/**
 * Payments for shared studies (issue 5 §1 Viewer payment; spec-core §2 Login page payment confirm,
 * §3 paymentStatus / paymentMode). Design note: DECISIONS.md. share-info is the viewer module's route;
 * the payment page's call is the share page's.
 */
export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['payments'];
  const depsOf = (request: FastifyRequest): TPaymentsDeps => ({
    ctx: app.ctx,
    publicUrl: app.ctx.publicUrlOf(request),
  });
  const staff = { onRequest: app.requirePermission(mayEverManage) };
  const params = ZReportStatusIdParams;
  const answers = { 200: ZStudyPayments, ...errorResponses(400, 401, 403, 404, 409) };

  app.get(
    '/report-status/payments/:id',
    {
      ...staff,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The study's payment status and its payment requests, newest first",
        params,
        response: { 200: ZStudyPayments, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => listStudyPayments(app.ctx, authOf(request), request.params.id),
  );

  app.post(
    '/report-status/payment/request/:id',
    {
      ...staff,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Request a payment: PENDING, a pay link from the provider, e-mailed to the viewer accounts',
        params,
        body: ZRequestPaymentBody,
        response: { ...answers, ...errorResponses(502) },
      },
    },
    (request) => requestPayment(depsOf(request), authOf(request), request.params.id, request.body),
  );

  app.post(
    '/report-status/payment/record/:id',
    {
      ...staff,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Record a payment taken at the desk (CASH, UPI, CARD): the study is PAID',
        params,
        body: ZRecordDeskPaymentBody,
        response: answers,
      },
    },
    (request) => recordDeskPayment(app.ctx, authOf(request), request.params.id, request.body),
  );

  app.post(
    '/report-status/payment/cancel/:id',
    {
      ...staff,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Cancel the pending payment request',
        params,
        response: answers,
      },
    },
    (request) => cancelPayment(app.ctx, authOf(request), request.params.id),
  );

  // Public (the login page, spec-core §2): the provider's answer is the proof, not a session.
  app.post(
    '/customer-report/payment-confirm',
    {
      schema: {
        tags,
        summary:
          'Confirm a payment with the provider after its return to the login page (answers paymentStatus)',
        body: ZPaymentConfirmRequest,
        response: { 200: ZPaymentConfirmResponse, ...errorResponses(400, 404, 502) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return confirmPayment(app.ctx, request.body);
    },
  );
};
