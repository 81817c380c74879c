import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZCurrentUser, ZDeviceHeaders, ZLoginForm, ZOk } from '@radflow/core';
import { clearSessionCookie, sessionTokenOf, setSessionCookie } from '../../plugins/auth.js';
import { deviceOf, errorResponses } from '../http.js';
import { toCurrentUser } from '../current-user/current-user.js';
import { recordLoginEvent } from './login-events.js';
import { deleteSessionByToken, findSessionUser } from '../credentials/sessions.js';
import { signIn } from './sign-in.js';

/** POST /api/do-login and /api/do-logout (spec-core §7 Session and preferences). */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/do-login',
    {
      schema: {
        tags: ['session'],
        summary: 'Sign in with an e-mail and password, or a mobile number and its one-time code',
        description:
          'Form-encoded (fields email, password) or JSON. Sets the session cookie. 401 for wrong ' +
          'credentials, 403 with errorStatusCode 5002 for a device awaiting approval, 429 when rate-limited.',
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        headers: ZDeviceHeaders,
        body: ZLoginForm,
        response: { 200: ZCurrentUser, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const { user, token } = await signIn(app.ctx, {
        identifier: request.body.email,
        password: request.body.password,
        ...deviceOf(request),
        clientAddress: request.ip,
        previousToken: sessionTokenOf(request),
      });
      setSessionCookie(request, reply, token);
      return toCurrentUser(app.ctx, user);
    },
  );

  app.post(
    '/do-logout',
    {
      schema: {
        tags: ['session'],
        summary: 'Sign out: ends the session and clears the cookie (also without a session)',
        headers: ZDeviceHeaders,
        response: { 200: ZOk },
      },
    },
    async (request, reply) => {
      const token = sessionTokenOf(request);
      if (token) {
        const found = await findSessionUser(app.ctx.db, token, app.ctx.now());
        await deleteSessionByToken(app.ctx.db, token);
        if (found) {
          await recordLoginEvent(app.ctx.db, {
            eventType: 'LOGOUT',
            email: found.user.email,
            userId: found.user.id,
            ...deviceOf(request),
            clientAddress: request.ip,
          });
        }
      }
      clearSessionCookie(request, reply);
      return { ok: true as const };
    },
  );
};
