import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, MESSAGES, SESSION_COOKIE_NAME, type TRole, hasRole } from '@radflow/core';
import type { TUserRow } from '../db/schema.js';
import { findApiTokenUser } from '../modules/credentials/api-token.js';
import { SESSION_TTL_SECONDS, findSessionUser } from '../modules/credentials/sessions.js';
import { rolesOf } from '../modules/current-user/current-user.js';

export const MESSAGE_NOT_ALLOWED = 'You are not allowed to do this';

/** Who is calling: from the session cookie or an `Authorization: Bearer` API token. */
export interface TAuth {
  user: TUserRow;
  /** The roles the user acts with (core effectiveRoles). */
  roles: TRole[];
  /** The session row id; null when authenticated by API token. */
  sessionId: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: TAuth | null;
  }
  interface FastifyInstance {
    /** onRequest hook: 401 'Please login again' without a valid session or token. */
    requireUser: onRequestAsyncHookHandler;
    /** onRequest hook: like requireUser, then 403 unless the user has one of the roles. */
    requireRole(...roles: TRole[]): onRequestAsyncHookHandler;
    /** onRequest hook: like requireUser, then 403 unless the rule (from packages/core) allows the roles. */
    requirePermission(rule: (roles: readonly TRole[]) => boolean): onRequestAsyncHookHandler;
  }
}

/** The authenticated caller of a route behind requireUser. */
export function authOf(request: FastifyRequest): TAuth {
  if (!request.auth) throw new AppError('UNAUTHORIZED', MESSAGES.pleaseLoginAgain);
  return request.auth;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE_NAME, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: SESSION_TTL_SECONDS,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE_NAME, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
  });
}

export function sessionTokenOf(request: FastifyRequest): string | null {
  const token = request.cookies[SESSION_COOKIE_NAME];
  return token && token.length <= 100 ? token : null;
}

/**
 * API tokens are for DICOM clients: they authenticate the DICOMweb routes and nothing else, so a
 * leaked token cannot sign off a report or change an account (modules/auth/DECISIONS.md).
 */
export const API_TOKEN_ROUTE_PREFIX = '/api/dicomweb/';
/**
 * Besides DICOMweb, the center router's update check and download (issue 27 §5): read-only, center
 * only by their own guard, and the router keeps no other cloud credential than its API token.
 */
export const API_TOKEN_ROUTES: ReadonlySet<string> = new Set([
  '/api/router/latest',
  '/api/router/download',
  '/api/router/settings',
  // Offline reports the router takes up (issue 27 §4): center only, names a hybrid doctor of the group.
  '/api/router/offline-report',
  // Its conflicts resolved from the router (same owner and author rules).
  '/api/router/offline-resolve',
  // Measurements drawn in its offline viewer (same owner and author rules, the viewer's own).
  '/api/router/offline-annotation',
]);

const takesApiToken = (routeUrl: string | undefined) =>
  routeUrl !== undefined && (routeUrl.startsWith(API_TOKEN_ROUTE_PREFIX) || API_TOKEN_ROUTES.has(routeUrl));

/** The caller of a request by its session cookie or API token, or null (nothing is refused here). */
export async function authenticate(app: FastifyInstance, request: FastifyRequest): Promise<TAuth | null> {
  const { db } = app.ctx;
  const authorization = request.headers.authorization;
  if (authorization) {
    if (!takesApiToken(request.routeOptions.url)) return null;
    const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    const found = token ? await findApiTokenUser(db, token, app.ctx.now()) : null;
    return found ? { user: found.user, roles: rolesOf(found.user), sessionId: null } : null;
  }
  const token = sessionTokenOf(request);
  if (!token) return null;
  const found = await findSessionUser(db, token, app.ctx.now());
  return found ? { user: found.user, roles: rolesOf(found.user), sessionId: found.sessionId } : null;
}

/**
 * Session and API-token authentication, and the role guards routes declare as onRequest hooks
 * (before the body is read and validated: a caller without the right learns nothing of the input rules).
 */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('auth', null);

    const requireUser: onRequestAsyncHookHandler = async function (request) {
      request.auth ??= await authenticate(app, request);
      if (!request.auth) throw new AppError('UNAUTHORIZED', MESSAGES.pleaseLoginAgain);
    };
    const requirePermission = (rule: (roles: readonly TRole[]) => boolean): onRequestAsyncHookHandler =>
      async function (request, reply) {
        await requireUser.call(this, request, reply);
        if (!rule(authOf(request).roles)) throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
      };
    app.decorate('requireUser', requireUser);
    app.decorate('requirePermission', requirePermission);
    app.decorate('requireRole', (...roles: TRole[]) => requirePermission((have) => hasRole(have, ...roles)));
  },
  { name: 'auth', dependencies: ['@fastify/cookie'] },
);
