import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, MESSAGES, isCustomerSession, isViewerSession } from '@radflow/core';
import { authenticate } from '../../plugins/auth.js';
import { customerOwesForImages, imageTargetOf } from './customer-image-gate.js';
import { shareInfoOf } from './payment-dues.js';

/**
 * The calls a viewer account may still make while its payment is not done: signing in and out, its
 * own account, preferences and mapping (the web app loads them at start, spec-core §4 Session), the
 * payment calls themselves (share-info, payment-info, payment-confirm, the provider's webhook), the public brand and
 * signature assets and the health check. None of them answers anything of a study. Route patterns
 * (`routeOptions.url`), matched by prefix.
 */
const PAYMENT_FREE_ROUTES: readonly string[] = [
  '/api/do-login',
  '/api/do-logout',
  '/api/user/',
  '/api/user-create/',
  '/api/setting/',
  '/api/customer-report/share-info',
  '/api/customer-report/payment-info',
  '/api/customer-report/payment-confirm',
  // The payment provider's webhook: not a session call.
  '/api/payments/webhook/',
  '/api/assets/',
  '/api/health',
  '/api/openapi.json',
];

/** Whether a route answers study content (everything under /api but the calls above). */
export function isContentRoute(routeUrl: string | undefined): boolean {
  if (!routeUrl?.startsWith('/api/')) return false;
  return !PAYMENT_FREE_ROUTES.some((free) => routeUrl === free || routeUrl.startsWith(free));
}

/**
 * Payment before content, on the server (security issue §2; spec-core §4 Viewer payment, §8
 * 'Payment needed'). The web app sends a viewer session whose payment is not done to the payment
 * page, but the API must not answer it either: while `shareInfoOf` says paymentNotDone (the same
 * rule the viewer polls), every study call of a viewer session — reports, documents, lists, DICOMweb
 * and WADO images, thumbnails, zips, attachments, audio, the viewer's own calls and the share page's
 * content — answers 402 'Payment needed' with the standard error body. Fail-closed: a new route is
 * gated unless it is listed as payment-free above. One hook for every route (a preHandler, so the
 * route's own authentication — session, API token or study token — has run); public routes (the
 * share page) are checked against the session cookie the request carries, if any.
 *
 * A patient's own account (core `isCustomerSession`) is held per study instead (customer-pages
 * DECISIONS "Payment for a customer"): the images of a study it owes for answer 402 like its report
 * (`customer-image-gate.ts`); its other studies stay open.
 */
export const paymentGatePlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preHandler', async (request) => {
      if (!isContentRoute(request.routeOptions.url)) return;
      const auth = request.auth ?? (await authenticate(app, request));
      if (!auth) return;
      if (isCustomerSession(auth.roles)) {
        const target = imageTargetOf(request);
        if (target && (await customerOwesForImages(app.ctx.db, auth, target))) {
          throw new AppError('PAYMENT_REQUIRED', MESSAGES.paymentNeeded);
        }
      }
      if (!isViewerSession(auth.roles)) return;
      const { paymentNotDone } = await shareInfoOf(app.ctx.db, auth);
      if (paymentNotDone) throw new AppError('PAYMENT_REQUIRED', MESSAGES.paymentNeeded);
    });
  },
  { name: 'payment-gate', dependencies: ['auth'] },
);
