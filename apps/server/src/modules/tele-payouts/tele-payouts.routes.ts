import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAddDoctorRateBody,
  ZDoctorRate,
  ZDoctorRateList,
  ZDoctorRateQuery,
  ZMarginQuery,
  ZMarginReport,
  ZPayoutIssueResult,
  ZPayoutPeriodBody,
  ZPayoutPreview,
  ZPayoutStatementDetail,
  ZPayoutStatementList,
  ZPayoutStatementListQuery,
  ZPayoutStatementParams,
  ZRecordBillingPaymentBody,
  canManagePayouts,
  canReadPayouts,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { addDoctorRate, listDoctorRates } from './doctor-rates.js';
import { readMargin } from './margin.js';
import { payoutStatementPdf } from './payout-pdf.js';
import {
  issuePayouts,
  listPayoutStatements,
  previewPayouts,
  readPayoutStatement,
  recordPayoutPayment,
} from './payout-statements.js';

const ZFile = z.any().meta({ description: 'The PDF' });

/**
 * The radiologist's payout (issue 26 §2; DECISIONS.md): doctor rates, payout statements and their
 * PDF and payments, and the margin. The tele roles run them; a doctor reads their own statements.
 */
export const telePayoutsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['tele-payouts'];
  const manage = { onRequest: app.requirePermission(canManagePayouts) };
  const read = { onRequest: app.requirePermission(canReadPayouts) };
  const base = { tags, security: SIGNED_IN };

  app.get(
    '/tele-payout/rates',
    {
      ...manage,
      schema: {
        ...base,
        summary:
          "The group's doctor rates (one doctor's with the defaults when doctorUserId is given) and its doctors",
        querystring: ZDoctorRateQuery,
        response: { 200: ZDoctorRateList, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => listDoctorRates(app.ctx, authOf(request), request.query.doctorUserId),
  );

  app.post(
    '/tele-payout/rates',
    {
      ...manage,
      schema: {
        ...base,
        summary:
          "Add a doctor rate (doctorUserId null: the group's default doctor rate), in force from effectiveFrom",
        body: ZAddDoctorRateBody,
        response: { 200: ZDoctorRate, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => addDoctorRate(app.ctx, authOf(request), request.body),
  );

  app.post(
    '/tele-payout/preview',
    {
      ...manage,
      schema: {
        ...base,
        summary: "The period's unbilled doctor charges (nothing stored)",
        body: ZPayoutPeriodBody,
        response: { 200: ZPayoutPreview, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => previewPayouts(app.ctx, authOf(request), request.body),
  );

  app.post(
    '/tele-payout/issue',
    {
      ...manage,
      schema: {
        ...base,
        summary: "Issue the period's payout statements (a re-run issues nothing already issued)",
        body: ZPayoutPeriodBody,
        response: { 200: ZPayoutIssueResult, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => issuePayouts(app.ctx, authOf(request), request.body),
  );

  app.get(
    '/tele-payout/statements',
    {
      ...read,
      schema: {
        ...base,
        summary: 'Payout statements, newest first (a doctor: their own only)',
        querystring: ZPayoutStatementListQuery,
        response: { 200: ZPayoutStatementList, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => listPayoutStatements(app.ctx, authOf(request), request.query.doctorUserId),
  );

  app.get(
    '/tele-payout/statements/:id',
    {
      ...read,
      schema: {
        ...base,
        summary: 'One payout statement with its lines and payments (not the caller’s to see: 404)',
        params: ZPayoutStatementParams,
        response: { 200: ZPayoutStatementDetail, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => readPayoutStatement(app.ctx.db, authOf(request), request.params.id),
  );

  app.get(
    '/tele-payout/statements/:id/pdf',
    {
      ...read,
      schema: {
        ...base,
        summary: 'The payout statement PDF',
        params: ZPayoutStatementParams,
        response: { 200: ZFile, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const file = await payoutStatementPdf(app.ctx, authOf(request), request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );

  app.post(
    '/tele-payout/statements/:id/payment',
    {
      ...manage,
      schema: {
        ...base,
        summary: 'Record the payout paid (in part or whole); a stale version is 409',
        params: ZPayoutStatementParams,
        body: ZRecordBillingPaymentBody,
        response: { 200: ZPayoutStatementDetail, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => recordPayoutPayment(app.ctx, authOf(request), request.params.id, request.body),
  );

  app.get(
    '/tele-payout/margin',
    {
      ...manage,
      schema: {
        ...base,
        summary:
          'Invoiced vs paid out for the rows first signed off in [from, to]: per center, doctor, modality',
        querystring: ZMarginQuery,
        response: { 200: ZMarginReport, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => readMargin(app.ctx, authOf(request), request.query),
  );
};
