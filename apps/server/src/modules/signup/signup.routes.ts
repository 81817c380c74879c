import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZDeviceHeaders,
  ZGenerateOtpResponse,
  ZGettingStarted,
  ZSignupOtpRequest,
  ZSignupRequest,
  ZSignupResponse,
  canManagePeople,
} from '@radflow/core';
import { authOf, sessionTokenOf, setSessionCookie } from '../../plugins/auth.js';
import { SIGNED_IN, deviceOf, errorResponses } from '../http.js';
import { loadGettingStarted } from './getting-started.js';
import { requestSignupOtp, signUp } from './signup.js';

/** A new group's sign-up (issue 26 §4 /signup) and its getting-started checklist; DECISIONS.md here. */
export const signupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/signup/otp',
    {
      schema: {
        tags: ['signup'],
        summary: 'Send a 6-digit sign-up code by SMS to a mobile number',
        description:
          'The same answer for any mobile number, registered or not. Limited per client address and per ' +
          'number: 429 with Retry-After past that.',
        headers: ZDeviceHeaders,
        body: ZSignupOtpRequest,
        response: { 200: ZGenerateOtpResponse, ...errorResponses(400, 429) },
      },
    },
    (request) =>
      requestSignupOtp(app.ctx, request.body.mobile, { clientAddress: request.ip, ...deviceOf(request) }),
  );

  app.post(
    '/signup',
    {
      schema: {
        tags: ['signup'],
        summary: 'Create a group and its first admin with the sign-up code, and sign the admin in',
        description:
          'Sets the session cookie and answers where to go. 400 for bad input or a wrong or expired code, ' +
          '409 for a mobile number or e-mail already registered, 429 when rate-limited.',
        headers: ZDeviceHeaders,
        body: ZSignupRequest,
        response: { 200: ZSignupResponse, ...errorResponses(400, 409, 429) },
      },
    },
    async (request, reply) => {
      const { token, ...answer } = await signUp(app.ctx, request.body, {
        clientAddress: request.ip,
        ...deviceOf(request),
        previousToken: sessionTokenOf(request),
      });
      setSessionCookie(request, reply, token);
      return answer;
    },
  );

  app.get(
    '/group/getting-started',
    {
      onRequest: app.requirePermission(canManagePeople),
      schema: {
        tags: ['signup'],
        security: SIGNED_IN,
        summary: "The group's getting-started checklist: a center, a radiologist, a study, billing details",
        response: { 200: ZGettingStarted, ...errorResponses(401, 403) },
      },
    },
    (request) => loadGettingStarted(app.ctx.db, authOf(request).user.groupId),
  );
};
