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
