import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@radflow/core';

export const MESSAGE_HOST_REFUSED = 'This router answers only at localhost';
export const MESSAGE_ORIGIN_REFUSED = 'Requests from another site are refused';

/** The names the router is reached by on its own machine. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, X-Device-Id, X-Device-Name';
const CORS_ALLOW_METHODS = 'GET, POST';

/** scheme://host[:port] of a URL, or null. */
export function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Whether a Host header names this router: a loopback name and the port the request came in on.
 * A page on evil.example that re-points its DNS name at 127.0.0.1 (DNS rebinding) is same-origin with
 * itself, so no CORS rule stops it; its requests still say `Host: evil.example`, and are refused.
 */
export function isLoopbackHost(host: string | undefined, localPort: number | undefined): boolean {
  if (!host) return false;
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:]+)(?::(\d+))?$/.exec(host.trim().toLowerCase());
  if (!match || !LOOPBACK_HOSTS.has(match[1] ?? '')) return false;
  const port = match[2] === undefined ? 80 : Number(match[2]);
  return localPort === undefined || port === localPort;
}

/**
 * The local API's front door (API.md "Who may call"), the first hook of every request:
 * 1. Host must be a loopback name at our port, else 403 (DNS rebinding).
 * 2. A request with an Origin must come from our web app (the cloud's public URL and any origins
 *    configured beside it), else 403 and no CORS headers: another site's page can neither read nor
 *    change anything, preflight or not.
 * 3. Our origin gets the CORS headers, and a preflight is answered here (with Chrome's Private
 *    Network Access header: a public page calling localhost must be allowed to explicitly).
 * A request without an Origin (curl, a local tool, the address bar) passes on to the session check;
 * browsers send an Origin with every cross-origin fetch and every POST.
 */
export function registerRequestGuard(
  app: FastifyInstance,
  allowedOrigins: readonly string[],
  options: { allowOwnOrigin?: boolean } = {},
): void {
  const allowed = new Set(allowedOrigins.map(originOf).filter((o): o is string => o !== null));
  // When the router serves the web app itself (HYBRID.md), its pages come from http://<Host>: the
  // Host already passed the loopback check, so that origin is this router's own page.
  const isOwnOrigin = (origin: string, host: string | undefined) =>
    options.allowOwnOrigin === true && host !== undefined && origin === `http://${host.toLowerCase()}`;

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isLoopbackHost(request.headers.host, request.socket.localPort)) {
      throw new AppError('FORBIDDEN', MESSAGE_HOST_REFUSED, 'host');
    }
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const given = originOf(origin);
    if (!given || !(allowed.has(given) || isOwnOrigin(given, request.headers.host))) {
      throw new AppError('FORBIDDEN', MESSAGE_ORIGIN_REFUSED, 'origin');
    }

    reply.header('Access-Control-Allow-Origin', given);
    reply.header('Vary', 'Origin');
    if (request.method === 'OPTIONS') {
      reply.header('Access-Control-Allow-Methods', CORS_ALLOW_METHODS);
      reply.header('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
      reply.header('Access-Control-Max-Age', '600');
      if (request.headers['access-control-request-private-network'] === 'true') {
        reply.header('Access-Control-Allow-Private-Network', 'true');
      }
      return reply.code(204).send();
    }
    return undefined;
  });
}
