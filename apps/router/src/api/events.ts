import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { ROUTER_PATHS, type TRouterEvent } from '@radflow/core';
import type { LocalApiOptions } from './http.js';

/** A comment line this often keeps proxies and the browser from closing an idle stream. */
const HEARTBEAT_MS = 15_000;
/** How long the browser waits before reconnecting (spec-core §4 'Router connection'). */
const RECONNECT_MS = 5_000;

const frame = (event: TRouterEvent) => `data: ${JSON.stringify(event)}\n\n`;

/**
 * GET /events: the queue's events as Server-Sent Events, one JSON event per message. The first
 * message is `hello`, so the browser's open flag means "the router answers" and a reconnect is seen
 * (spec-core §4 'Router connection': on reconnect the screen refreshes info).
 */
export function registerEvents(app: FastifyInstance, options: LocalApiOptions): void {
  const open = new Set<ServerResponse>();
  // Streams never end on their own: closing the API ends them, or close() would wait forever.
  app.addHook('preClose', async () => {
    for (const raw of open) raw.end();
  });

  app.get(ROUTER_PATHS.events, async (_request, reply) => {
    const now = () => new Date(options.now?.() ?? Date.now()).toISOString();
    const headers: Record<string, string> = {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    };
    // The CORS headers the front door set (request-guard.ts) go out with the hijacked stream.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (typeof value === 'string') headers[name] = value;
    }
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, headers);
    raw.write(`retry: ${RECONNECT_MS}\n\n`);
    raw.write(frame({ type: 'hello', studyInstanceUid: null, at: now() }));
    open.add(raw);

    const unsubscribe = options.queue.subscribe((event) => raw.write(frame(event)));
    const heartbeat = setInterval(() => raw.write(': beat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    raw.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(raw);
    });
  });
}
