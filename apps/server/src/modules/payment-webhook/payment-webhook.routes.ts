import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../http.js';
import { handlePaymentWebhook } from './payment-webhook.js';

const OUTCOMES = [
  'RECORDED',
  'ALREADY_PAID',
  'UNKNOWN_REFERENCE',
  'AMOUNT_MISMATCH',
  'IGNORED',
  'UNKNOWN_PAYABLE',
  'REPLAYED',
] as const;

/** Outcomes that need a look from staff (logged as warnings). */
const SUSPICIOUS = new Set(['UNKNOWN_REFERENCE', 'AMOUNT_MISMATCH', 'UNKNOWN_PAYABLE']);

/**
 * The payment provider's webhook (DECISIONS.md "Webhook"). Public: the provider's signature over
 * the raw body is its authentication, so the route is exempt from the browser-origin check
 * (route config `providerWebhook`) and payment-free in the payment gate. The JSON parser of this
 * plugin only keeps the raw bytes (the signature is over them, never a re-serialised body); every
 * other route keeps the app's parser.
 */
export const paymentWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });

  app.post(
    '/payments/webhook/:provider',
    {
      config: { providerWebhook: true },
      schema: {
        tags: ['payments'],
        summary:
          "The payment provider's signed notifications (Razorpay: payment_link.paid records the payment)",
        params: z.object({ provider: z.string().max(40) }),
        response: {
          200: z.object({ outcome: z.enum(OUTCOMES) }),
          ...errorResponses(400, 401, 404, 415),
        },
      },
    },
    async (request) => {
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        headers[name] = Array.isArray(value) ? value[0] : value;
      }
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const handled = await handlePaymentWebhook(app.ctx, request.params.provider, rawBody, headers);
      const level = SUSPICIOUS.has(handled.outcome) ? 'warn' : 'info';
      request.log[level](
        {
          provider: request.params.provider,
          eventId: handled.eventId,
          event: handled.type,
          outcome: handled.outcome,
        },
        'payment webhook',
      );
      return { outcome: handled.outcome };
    },
  );
};
