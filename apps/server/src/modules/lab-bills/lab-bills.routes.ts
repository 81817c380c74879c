import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAllSlots,
  ZBill,
  ZBillCancel,
  ZBillCreate,
  ZBillListPage,
  ZBillSearch,
  ZBillTransactionUpdate,
  ZBillUndoCancel,
  ZBillUpdate,
  ZGetAllSlots,
  ZGetSlot,
  ZSlotCounts,
  canUseLab,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { searchBills } from './bill-search.js';
import {
  addTransactions,
  cancelBill,
  createBill,
  loadBill,
  undoCancelBill,
  updateBill,
} from './bill-service.js';
import { idempotencyKeyOf } from '../idempotency/idempotency.js';
import { allSlots, slotCounts } from './slot-availability.js';

/** Bills, payments, cancellation and appointment slots of the lab front desk (spec-lab §3–§5, §7 Lab). */
export const labBillRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['lab'];
  const lab = { onRequest: app.requirePermission(canUseLab) };
  const idempotencyHeader = z.object({ 'idempotency-key': z.string().max(200).optional() }).loose();

  app.post(
    '/lab/bill',
    {
      ...lab,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Create a bill (OPEN, or SCHEDULED while an appointment waits unpaid); amounts recomputed, invoice number from the prefix. An Idempotency-Key header makes a repeat answer the first bill',
        headers: idempotencyHeader,
        body: ZBillCreate,
        response: { 200: ZBill, ...errorResponses(400, 401, 403, 409) },
      },
    },
    (request) => createBill(app.ctx, authOf(request), request.body, idempotencyKeyOf(request.headers)),
  );

  app.put(
    '/lab/bill',
    {
      ...lab,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Update a bill; `version` is the one read (409 when stale)',
        body: ZBillUpdate,
        response: { 200: ZBill, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => updateBill(app.ctx, authOf(request), request.body),
  );

  app.get(
    '/lab/bill/get/:id',
    {
      ...lab,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'A bill of the caller’s lab',
        params: z.object({ id: z.coerce.number().int().positive() }),
        response: { 200: ZBill, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => loadBill(app.ctx.db, authOf(request), request.params.id),
  );

  app.put(
    '/lab/bill/update-transaction',
    {
      ...lab,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Append payments to the bill’s ledger (each above 0, together at most the due). An Idempotency-Key header makes a repeat answer the first',
        headers: idempotencyHeader,
        body: ZBillTransactionUpdate,
        response: { 200: ZBill, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => addTransactions(app.ctx, authOf(request), request.body, idempotencyKeyOf(request.headers)),
  );

  app.put(
    '/lab/cancel-status',
    {
      ...lab,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Cancel a bill with a reason (at most 255 characters)',
        body: ZBillCancel,
        response: { 200: ZBill, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => cancelBill(app.ctx, authOf(request), request.body),
  );

  app.put(
    '/lab/undo-cancel-status',
    {
      ...lab,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Restore a cancelled bill; true on success (409 when its slot filled meanwhile)',
        body: ZBillUndoCancel,
        response: { 200: z.literal(true), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => undoCancelBill(app.ctx, authOf(request), request.body),
  );

  app.post(
    '/lab/bill/search',
    {
      ...lab,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The billing list: one page of bills by status and bill-date days',
        body: ZBillSearch,
        response: { 200: ZBillListPage, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => searchBills(app.ctx.db, authOf(request), request.body),
  );

  app.post(
    '/lab/get-all-slot',
    {
      ...lab,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Every appointment slot window in the range (at most 8 days) with its seats',
        body: ZGetAllSlots,
        response: { 200: ZAllSlots, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => allSlots(app.ctx.db, authOf(request), request.body),
  );

  app.post(
    '/lab/get-slot',
    {
      ...lab,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'One slot’s windows in the range and testCount by window start time',
        body: ZGetSlot,
        response: { 200: ZSlotCounts, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => slotCounts(app.ctx.db, authOf(request), request.body),
  );
};
