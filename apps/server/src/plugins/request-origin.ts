import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '@radflow/core';
import { requestBaseUrl } from '../modules/http.js';

export const MESSAGE_DEVICE_HEADERS_REQUIRED =
  'This request must come from the Radflow app: the X-Device-Id and X-Device-Name headers are required';
export const MESSAGE_FOREIGN_ORIGIN = 'Requests from another site are refused';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A payment provider's webhook: authenticated by the provider's signature over its body, sent
     * server to server (no Origin, no device headers), so the browser-origin check does not apply.
     */
    providerWebhook?: boolean;
  }
}

/** Methods that change nothing (a GET that changed state would be the bug, not the request). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin (scheme://host[:port], default port dropped) of a URL, or null when it is none. */
export function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** The origin the request came to: its scheme and Host (X-Forwarded-* from a trusted proxy). */
function ownOriginOf(request: FastifyRequest): string | null {
  return originOf(requestBaseUrl(request));
}

const headerOf = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
};

/**
 * Requests from our page only (plugins/DECISIONS.md "Requests from our page"). Another page — even
 * another port of the same host, which is the same *site* and so gets our SameSite=Lax cookies — must
 * not change anything with a visitor's cookie, nor sign the visitor in as someone else (login CSRF).
 * Every API call that is not GET/HEAD/OPTIONS:
 * - with an `Origin` header: it must be ours (the address it came to, PUBLIC_URL, ALLOWED_ORIGINS);
 * - without an `Authorization` header (i.e. a browser's, whose cookie goes along unasked): it must
 *   carry both device headers of spec-core §7. An HTML form cannot set headers, and a cross-origin
 *   fetch can only with a CORS preflight we never answer.
 * A bearer-token client (STOW, scripts) is exempt: its credential is not sent by a browser unasked.
 * So is a payment provider's webhook (route config `providerWebhook`): its credential is the
 * signature over its body, which no other page can make, and it changes nothing with a cookie.
 * Runs first of the onRequest hooks, before authentication and before the body is read.
 */
export const requestOriginPlugin = fp(
  async (app: FastifyInstance, opts: { allowedOrigins?: readonly string[] }) => {
    // PUBLIC_URL as the context holds it (context.ts), plus ALLOWED_ORIGINS.
    const configured = new Set(
      [app.ctx.publicUrl, ...(opts.allowedOrigins ?? [])]
        .map((url) => (url ? originOf(url) : null))
        .filter((origin): origin is string => origin !== null),
    );

    app.addHook('onRequest', async (request) => {
      if (SAFE_METHODS.has(request.method)) return;
      // Unknown paths keep their 404; only routes can change anything.
      if (!request.url.startsWith('/api/') || !request.routeOptions.url) return;
      if (headerOf(request, 'authorization')) return;
      if (request.routeOptions.config.providerWebhook === true) return;
      const origin = headerOf(request, 'origin');
      if (origin !== undefined) {
        const given = originOf(origin);
        if (!given || (!configured.has(given) && given !== ownOriginOf(request))) {
          throw new AppError('FORBIDDEN', MESSAGE_FOREIGN_ORIGIN, 'origin');
        }
      }
      for (const name of ['x-device-id', 'x-device-name']) {
        if (!headerOf(request, name)) throw new AppError('FORBIDDEN', MESSAGE_DEVICE_HEADERS_REQUIRED, name);
      }
    });
  },
  { name: 'request-origin' },
);
