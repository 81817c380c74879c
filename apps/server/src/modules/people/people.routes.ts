import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  INVITATION_CHANNELS,
  ZCenter,
  ZCenterInput,
  ZCenterList,
  ZInviteUserRequest,
  ZManagedUser,
  ZManagedUserList,
  ZOk,
  ZPasswordLinkInfo,
  ZPasswordLinkRequest,
  ZPasswordLinkSent,
  ZPeopleAuditList,
  ZPeopleIdParams,
  ZSetPasswordRequest,
  ZTypistDoctorsRequest,
  ZUpdateUserRequest,
  canManagePeople,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, deviceOf, errorResponses } from '../http.js';
import { createCenter, listCenters, updateCenter } from './centers.js';
import {
  type TPeopleDeps,
  inviteUser,
  listManagedUsers,
  sendNewPasswordLink,
  setTypistDoctors,
  setUserActive,
  updateUser,
} from './manage-users.js';
import { listPeopleAudit } from './people-audit.js';
import { passwordLinkInfo, setPasswordByLink } from './set-password.js';

const ZLinkChannelRequest = z
  .object({ channel: z.enum(INVITATION_CHANNELS).default('EMAIL') })
  .nullish()
  // A bodiless POST (the usual call) sends the link by e-mail.
  .transform((v) => v ?? { channel: 'EMAIL' as const });

/**
 * The group admin's people (issue 21 §9; ours, the spec names no such calls): centers, users with
 * their roles, the typist ↔ doctor mapping, deactivation, password links, the audit; and the public
 * set-password calls of the link. Every /admin route is ROLE_ADMIN or ROLE_GROUP (core
 * canManagePeople) and works inside the caller's group; modules/people/DECISIONS.md.
 */
export const peopleRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['people'];
  const admin = { onRequest: app.requirePermission(canManagePeople) };
  const depsOf = (request: FastifyRequest): TPeopleDeps => ({
    ctx: app.ctx,
    publicUrl: app.ctx.publicUrlOf(request),
  });

  app.get(
    '/admin/centers',
    {
      ...admin,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The caller's group's centers",
        response: { 200: ZCenterList, ...errorResponses(401, 403) },
      },
    },
    (request) => listCenters(app.ctx.db, authOf(request)),
  );

  app.post(
    '/admin/centers',
    {
      ...admin,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Add a center (name, e-mail, DICOM AE titles, contact)',
        description:
          'An AE title is a DICOM AE title (PS3.5) no other center has, in any case: else 400 or 409.',
        body: ZCenterInput,
        response: { 200: ZCenter, ...errorResponses(400, 401, 403, 409) },
      },
    },
    (request) => createCenter(app.ctx, authOf(request), request.body),
  );

  app.put(
    '/admin/centers/:id',
    {
      ...admin,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Edit a center of the group',
        params: ZPeopleIdParams,
        body: ZCenterInput,
        response: { 200: ZCenter, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => updateCenter(app.ctx, authOf(request), request.params.id, request.body),
  );

  app.get(
    '/admin/users',
    {
      ...admin,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          "The group's users (patients' and viewer accounts aside) with roles, state and typists' doctors",
        response: { 200: ZManagedUserList, ...errorResponses(401, 403) },
      },
    },
    (request) => listManagedUsers(app.ctx.db, authOf(request)),
  );

  app.post(
    '/admin/users',
    {
      ...admin,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Invite a user: the account, and a set-password link by e-mail or SMS',
        description:
          'Roles at or below the caller’s own only (403); center roles need a center of the group (400); ' +
          'a taken e-mail or mobile is 409. The link is single use and expires (INVITATION_LINK_TTL_HOURS).',
        body: ZInviteUserRequest,
        response: { 200: ZManagedUser, ...errorResponses(400, 401, 403, 409, 502) },
      },
    },
    (request) => inviteUser(depsOf(request), authOf(request), request.body),
  );

  app.put(
    '/admin/users/:id',
    {
      ...admin,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Edit a user's name, mobile, roles and center",
        params: ZPeopleIdParams,
        body: ZUpdateUserRequest,
        response: { 200: ZManagedUser, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => updateUser(app.ctx, authOf(request), request.params.id, request.body),
  );

  for (const active of [false, true]) {
    app.post(
      `/admin/users/:id/${active ? 'activate' : 'deactivate'}`,
      {
        ...admin,
        schema: {
          tags,
          security: SIGNED_IN,
          summary: active
            ? 'Activate a user again'
            : 'Deactivate a user: their sessions, API tokens and set-password links end at once',
          params: ZPeopleIdParams,
          response: { 200: ZManagedUser, ...errorResponses(400, 401, 403, 404) },
        },
      },
      (request) => setUserActive(app.ctx, authOf(request), request.params.id, active),
    );
  }

  for (const purpose of ['RESET', 'INVITE'] as const) {
    app.post(
      `/admin/users/:id/${purpose === 'RESET' ? 'reset-password' : 'resend-invitation'}`,
      {
        ...admin,
        schema: {
          tags,
          security: SIGNED_IN,
          summary:
            purpose === 'RESET'
              ? 'Send the user a link to set a new password (the current one works until then)'
              : 'Send a pending invitation again (the earlier link stops working)',
          params: ZPeopleIdParams,
          body: ZLinkChannelRequest,
          response: { 200: ZPasswordLinkSent, ...errorResponses(400, 401, 403, 404, 502) },
        },
      },
      (request) =>
        sendNewPasswordLink(depsOf(request), authOf(request), request.params.id, {
          purpose,
          channel: request.body.channel,
        }),
    );
  }

  app.put(
    '/admin/users/:id/doctors',
    {
      ...admin,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The doctors a typist types for (replaces the list)',
        params: ZPeopleIdParams,
        body: ZTypistDoctorsRequest,
        response: { 200: ZManagedUser, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => setTypistDoctors(app.ctx, authOf(request), request.params.id, request.body.doctorIds),
  );

  app.get(
    '/admin/audit',
    {
      ...admin,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The group's newest changes to centers and users, newest first",
        response: { 200: ZPeopleAuditList, ...errorResponses(401, 403) },
      },
    },
    (request) => listPeopleAudit(app.ctx.db, authOf(request).user.groupId),
  );

  app.post(
    '/user-create/password-link',
    {
      schema: {
        tags,
        summary: 'Whom a set-password link is for (public: the invitee has no session)',
        body: ZPasswordLinkRequest,
        response: { 200: ZPasswordLinkInfo, ...errorResponses(400) },
      },
    },
    (request) => passwordLinkInfo(app.ctx, request.body.token),
  );

  app.post(
    '/user-create/set-password',
    {
      schema: {
        tags,
        summary: 'Set a password through an invitation or reset link (once; the password rules apply)',
        body: ZSetPasswordRequest,
        response: { 200: ZOk, ...errorResponses(400) },
      },
    },
    async (request) => {
      await setPasswordByLink(app.ctx, {
        token: request.body.token,
        newPassword: request.body.newPassword,
        clientAddress: request.ip,
        ...deviceOf(request),
      });
      return { ok: true as const };
    },
  );
};
