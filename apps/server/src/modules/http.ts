import type { FastifyRequest } from 'fastify';
import { ZErrorBody } from '@radflow/core';

/** Error answers a route documents, each with the one error body. */
export function errorResponses<const C extends readonly number[]>(...codes: C) {
  return Object.fromEntries(codes.map((c) => [c, ZErrorBody])) as { [K in C[number]]: typeof ZErrorBody };
}

/** Routes that need a signed-in user, for the OpenAPI document: a browser session only. */
export const SIGNED_IN: Array<Record<string, string[]>> = [{ session: [] }];
/** The DICOMweb routes: a session, or an API token (the only routes a token opens; plugins/auth.ts). */
export const DICOMWEB_SIGNED_IN: Array<Record<string, string[]>> = [{ session: [] }, { apiToken: [] }];

/** The device headers of spec-core §7 as sent, trimmed; empty counts as absent. */
export function deviceOf(request: FastifyRequest): { deviceId: string | null; deviceName: string | null } {
  const read = (name: string) => {
    const value = request.headers[name];
    const text = (Array.isArray(value) ? value[0] : value)?.trim();
    return text ? text.slice(0, 200) : null;
  };
  return { deviceId: read('x-device-id'), deviceName: read('x-device-name') };
}

/**
 * The address this request came to (scheme and host; X-Forwarded-* from a trusted proxy), for URLs an
 * answer hands back to the same caller: DICOMweb's RetrieveURL and BulkDataURI, the viewer's DICOMweb
 * root. The caller reached us there (a LAN address, a tunnel), so those URLs work for it, and the
 * viewer's stay on its page's origin (its CSP allows no other). Links that leave the request (e-mail,
 * SMS, share links, the QR) use `ctx.publicUrlOf` (context.ts) instead.
 */
export function requestBaseUrl(request: { protocol: string; host: string }): string {
  return `${request.protocol}://${request.host}`;
}
