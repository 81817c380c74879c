import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export const MESSAGE_SERVER_BUSY = 'The server is busy. Please try again in a moment.';

declare module 'fastify' {
  interface FastifyInstance {
    /** The API calls in progress (load-shedding.ts). */
    apiLoad: { inFlight(): number };
  }
}

/** Paths that are never shed: the health check must answer whatever the load. */
const isExempt = (url: string) =>
  !url.startsWith('/api/') || url === '/api/health' || url.startsWith('/api/health?');

/**
 * A bound on the API calls in progress (plugins/DECISIONS.md "Under load"; security issue §4). Beyond
 * `maxInFlight`, a call is answered at once with 503 and Retry-After instead of queueing for the
 * database until the client gives up (200 connections on the study list: 274 client time-outs over
 * 10 s, a 22 s health check). A call holds its slot until its answer starts (onSend), so a slow
 * download does not, until its end on error or when the client goes away. 0: no bound.
 * Registered first: a shed call costs no authentication, no body parsing, no database work.
 */
export const loadSheddingPlugin = fp(
  async (app: FastifyInstance, opts: { maxInFlight: number; retryAfterSeconds: number }) => {
    let inFlight = 0;
    const holding = new WeakSet<FastifyRequest>();
    const release = (request: FastifyRequest) => {
      if (holding.delete(request)) inFlight -= 1;
    };
    app.decorate('apiLoad', { inFlight: () => inFlight });
    if (opts.maxInFlight <= 0) return;

    app.addHook('onRequest', async (request, reply) => {
      if (isExempt(request.url)) return;
      if (inFlight >= opts.maxInFlight) {
        return reply
          .code(503)
          .header('retry-after', String(opts.retryAfterSeconds))
          .header('cache-control', 'no-store')
          .send({
            errorStatusCode: 503,
            errorDescription: MESSAGE_SERVER_BUSY,
            additionalInfo: null,
            txnId: request.id,
          });
      }
      inFlight += 1;
      holding.add(request);
    });
    app.addHook('onSend', async (request) => release(request));
    app.addHook('onResponse', async (request) => release(request));
    app.addHook('onRequestAbort', async (request) => release(request));
  },
  { name: 'load-shedding' },
);
