import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import fp from 'fastify-plugin';

export const MESSAGE_SERVER_BUSY = 'The server is busy. Please try again in a moment.';

declare module 'fastify' {
  interface FastifyInstance {
    /** The API calls in progress, and the event loop's utilization over the last second (load-shedding.ts). */
    apiLoad: { inFlight(): number; utilization(): number };
  }
}

/** Event-loop utilization (0..1) over the last window above which a busy stretch means overload. */
const BUSY_UTILIZATION = 0.5;
const WINDOW_MS = 1_000;

/** Paths that are never shed: the health check must answer whatever the load. */
const isExempt = (url: string) =>
  !url.startsWith('/api/') || url === '/api/health' || url.startsWith('/api/health?');

/**
 * A connection answered 503 is not read again until its Retry-After has passed. A client that asks
 * again at once (a script, a load tester: 200 such connections made ~1,200 refusals a second) then
 * waits in its socket's buffer instead of taking the thread: each event-loop turn read every one of
 * them, so a turn took ~170 ms, and Node accepts one new connection per turn — a new health check
 * waited seconds to be accepted. A client that honours Retry-After (the web app) loses nothing.
 */
function holdOff(socket: Socket | null, response: ServerResponse, seconds: number) {
  // light-my-request's sockets (app.inject) are not network sockets.
  if (!socket || typeof socket.pause !== 'function') return;
  response.once('finish', () =>
    // After the server's own end-of-response work, which resumes the socket to read what follows.
    setImmediate(() => {
      if (socket.destroyed) return;
      socket.pause();
      const stop = () => clearTimeout(timer);
      const timer = setTimeout(() => {
        socket.off('close', stop);
        socket.resume();
      }, seconds * 1000);
      timer.unref();
      socket.once('close', stop);
    }),
  );
}

/**
 * A bound on the API calls in progress (plugins/DECISIONS.md "Under load"; security issue §4). Beyond
 * `maxInFlight`, a call is answered at once with 503 and Retry-After instead of queueing for the
 * database until the client gives up (200 connections on the study list: 274 client time-outs over
 * 10 s, a 22 s health check). A call holds its slot until its answer starts (onSend), so a slow
 * download does not, until its end on error or when the client goes away. 0: no bound.
 * Registered first: a shed call costs no authentication, no body parsing, no database work.
 *
 * The count alone does not see the queue when the database runs in our thread (PGlite): each call's
 * queries run inside the call, so calls finish one after another and the queue is the sockets not
 * yet read, while the event loop does not come back to its timers for seconds. So a call is shed too
 * when the event loop has been busy for more than `maxBusyMs` without running a timer (a ticker
 * notes each turn: those calls waited behind the busy stretch) *and* it was busy more than
 * BUSY_UTILIZATION of the last second — one slow call on a quiet server sheds nothing.
 * 0: no such check.
 */
export const loadSheddingPlugin = fp(
  async (
    app: FastifyInstance,
    opts: { maxInFlight: number; maxBusyMs: number; retryAfterSeconds: number },
  ) => {
    let inFlight = 0;
    const holding = new WeakSet<FastifyRequest>();
    const release = (request: FastifyRequest) => {
      if (holding.delete(request)) inFlight -= 1;
    };
    let utilization = 0;
    app.decorate('apiLoad', { inFlight: () => inFlight, utilization: () => utilization });
    if (opts.maxInFlight <= 0 && opts.maxBusyMs <= 0) return;

    let lastTick = performance.now();
    let windowStart = lastTick;
    let windowElu: EventLoopUtilization = performance.eventLoopUtilization();
    const ticker = setInterval(() => {
      lastTick = performance.now();
      if (lastTick - windowStart < WINDOW_MS) return;
      const now = performance.eventLoopUtilization();
      utilization = performance.eventLoopUtilization(now, windowElu).utilization;
      windowElu = now;
      windowStart = lastTick;
    }, 20);
    ticker.unref();
    app.addHook('onClose', async () => clearInterval(ticker));
    const overloaded = () =>
      (opts.maxInFlight > 0 && inFlight >= opts.maxInFlight) ||
      (opts.maxBusyMs > 0 && utilization > BUSY_UTILIZATION && performance.now() - lastTick > opts.maxBusyMs);

    app.addHook('onRequest', async (request, reply) => {
      if (isExempt(request.url)) return;
      if (overloaded()) {
        holdOff(request.raw.socket, reply.raw, opts.retryAfterSeconds);
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
