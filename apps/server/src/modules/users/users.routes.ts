import { asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AppError,
  MESSAGES,
  ZApiToken,
  ZApiTokenList,
  ZApiTokenParams,
  ZCurrentUser,
  ZGenerateOtpResponse,
  ZIsNewCustomerResponse,
  ZMobileRequest,
  ZOk,
  ZStudyTypeList,
  ZTeleInfo,
  ZUpdatePasswordRequest,
  ZUserMapping,
  ZGroupPreferences,
  ZUserPreferences,
  isTeleUser,
} from '@radflow/core';
import { studyTypes } from '../../db/schema.js';
import { authOf } from '../../plugins/auth.js';
import { listApiTokens, mintApiToken, revokeApiToken } from '../credentials/api-token.js';
import { generateOtp, isNewCustomer } from '../auth/otp.js';
import { SIGNED_IN, deviceOf, errorResponses } from '../http.js';
import { loadGroupPreferences, loadUserPreferences } from '../preferences/preferences.js';
import { toCurrentUser } from '../current-user/current-user.js';
import { withSubscriptionWarning } from '../platform-billing/subscription-warning.js';
import { updatePassword } from './update-password.js';
import { loadUserMapping } from './user-mapping.js';

/** The signed-in user's calls of spec-core §7 "Session and preferences", and the OTP calls. */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const signedIn = { onRequest: app.requireUser };
  const authed = { tags: ['user'], security: SIGNED_IN };

  app.get(
    '/user/',
    {
      ...signedIn,
      schema: {
        ...authed,
        summary: 'The current user',
        response: { 200: ZCurrentUser, ...errorResponses(401) },
      },
    },
    (request) => toCurrentUser(app.ctx, authOf(request).user),
  );

  app.get(
    '/user/preference',
    {
      ...signedIn,
      schema: {
        ...authed,
        summary:
          'Every preference section, group sections from the group, the rest from the user, with defaults',
        response: { 200: ZUserPreferences, ...errorResponses(401) },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      return withSubscriptionWarning(
        app.ctx.db,
        user.groupId,
        app.ctx.now(),
        await loadUserPreferences(app.ctx.db, user),
      );
    },
  );

  app.get(
    '/user/group-preferences',
    {
      ...signedIn,
      schema: {
        ...authed,
        summary: "The group's setting sections only (an assignor's session skips the user preferences)",
        response: { 200: ZGroupPreferences, ...errorResponses(401) },
      },
    },
    async (request) => {
      const { groupId } = authOf(request).user;
      const prefs = await withSubscriptionWarning(
        app.ctx.db,
        groupId,
        app.ctx.now(),
        await loadGroupPreferences(app.ctx.db, groupId),
      );
      return {
        USER_ADMIN_VISIBLE_PREFERENCES: prefs.USER_ADMIN_VISIBLE_PREFERENCES,
        GROUP_SWITCHES: prefs.GROUP_SWITCHES,
        ADMIN_PREFERENCES: prefs.ADMIN_PREFERENCES,
        VERIFICATION_SETTINGS: prefs.VERIFICATION_SETTINGS,
      };
    },
  );

  app.get(
    '/user/tele-info',
    {
      ...signedIn,
      schema: {
        ...authed,
        summary: 'Whether the user is a tele-radiology user',
        response: { 200: ZTeleInfo, ...errorResponses(401) },
      },
    },
    (request) => ({ teleUser: isTeleUser(authOf(request).roles) }),
  );

  app.get(
    '/user/mapping',
    {
      ...signedIn,
      schema: {
        ...authed,
        summary: 'Per role, the users the caller may pick (email, active)',
        response: { 200: ZUserMapping, ...errorResponses(401) },
      },
    },
    (request) => loadUserMapping(app.ctx.db, authOf(request).user, authOf(request).roles),
  );

  app.get(
    '/user/study-type',
    {
      ...signedIn,
      schema: {
        ...authed,
        summary: "The group's study types",
        response: { 200: ZStudyTypeList, ...errorResponses(401) },
      },
    },
    (request) =>
      app.ctx.db
        .select({ id: studyTypes.id, name: studyTypes.name, modality: studyTypes.modality })
        .from(studyTypes)
        .where(eq(studyTypes.groupId, authOf(request).user.groupId))
        .orderBy(asc(studyTypes.name)),
  );

  app.get(
    '/user/token',
    {
      ...signedIn,
      schema: {
        ...authed,
        summary: 'A new personal API token for DICOM clients (`Authorization: Bearer` on /api/dicomweb)',
        description:
          'Random, shown once (only its hash is kept), valid for API_TOKEN_TTL_DAYS days; DICOMweb only ' +
          '(STOW for roles that store studies). Revoked by DELETE /user/token/delete/{id}, with the device ' +
          'it was minted from, and by a password change. 403 for customers and viewers; 409 past the per-user cap.',
        response: { 200: ZApiToken, ...errorResponses(401, 403, 409) },
      },
    },
    async (request) => {
      const { user, sessionId } = authOf(request);
      // Only a browser session mints (plugins/auth.ts refuses tokens outside DICOMweb).
      if (!sessionId) throw new AppError('UNAUTHORIZED', MESSAGES.pleaseLoginAgain);
      const minted = await mintApiToken(app.ctx.db, { user, sessionId, now: app.ctx.now() });
      return { token: minted.token, id: minted.id, expiresAt: minted.expiresAt.toISOString() };
    },
  );

  app.get(
    '/user/token/list',
    {
      ...signedIn,
      schema: {
        ...authed,
        summary: "The caller's live API tokens (their hints, never the tokens)",
        response: { 200: ZApiTokenList, ...errorResponses(401) },
      },
    },
    (request) => listApiTokens(app.ctx.db, authOf(request).user.id, app.ctx.now()),
  );

  app.delete(
    '/user/token/delete/:id',
    {
      ...signedIn,
      schema: {
        ...authed,
        summary: "Revoke one of the caller's API tokens",
        params: ZApiTokenParams,
        response: { 200: ZOk, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      await revokeApiToken(app.ctx.db, authOf(request).user.id, request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/user-create/update-password',
    {
      ...signedIn,
      schema: {
        ...authed,
        summary: "Change the caller's password; ends their other sessions",
        body: ZUpdatePasswordRequest,
        response: { 200: ZOk, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      await updatePassword(app.ctx, authOf(request), {
        ...request.body,
        clientAddress: request.ip,
        ...deviceOf(request),
      });
      return { ok: true as const };
    },
  );

  app.post(
    '/user/generate-otp',
    {
      schema: {
        tags: ['session'],
        summary: 'Send a 6-digit sign-in code by SMS to a registered mobile number',
        body: ZMobileRequest,
        response: { 200: ZGenerateOtpResponse, ...errorResponses(400, 404, 429) },
      },
    },
    (request) =>
      generateOtp(app.ctx, request.body.mobile, { clientAddress: request.ip, ...deviceOf(request) }),
  );

  app.post(
    '/user/customer/is-new',
    {
      schema: {
        tags: ['session'],
        summary: 'Whether no customer account is registered with this mobile number',
        description:
          'Only customer accounts count (a staff number answers isNew: true). Limited per client address ' +
          'and per number: 429 with Retry-After past that.',
        body: ZMobileRequest,
        response: { 200: ZIsNewCustomerResponse, ...errorResponses(400, 429) },
      },
    },
    async (request) => ({
      isNew: await isNewCustomer(app.ctx, request.body.mobile, {
        clientAddress: request.ip,
        ...deviceOf(request),
      }),
    }),
  );
};
