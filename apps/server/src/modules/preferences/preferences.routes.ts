import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AppError,
  SETTINGS_MESSAGES,
  type TPreferenceSection,
  type TRole,
  ZGroupChangesPage,
  ZGroupChangesQuery,
  ZGroupSettingParams,
  ZPreferenceSectionValue,
  ZUserSettingParams,
  canManageGroupSettings,
  canSetSetting,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { listGroupChanges } from './group-changes.js';
import { resetPreferenceSection, updatePreferenceSection } from './update-preference-section.js';

/** spec-lab §6: a role without the settings entry gets no dialog and cannot save or reset its section. */
function requireSettingEntry(roles: readonly TRole[], section: TPreferenceSection): void {
  if (!canSetSetting(roles, section)) {
    throw new AppError('FORBIDDEN', SETTINGS_MESSAGES.notAllowed, section);
  }
}

/** Setting updates of spec-core §7 and the resets and group audit of the issue 6 contract. */
export const preferencesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['settings'];
  const sectionAnswer = { 200: ZPreferenceSectionValue, ...errorResponses(400, 401, 403) };

  app.post(
    '/setting/update/:settingName',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          "Change fields of one of the caller's (or their center's) sections; answers the whole section",
        params: ZUserSettingParams,
        body: ZPreferenceSectionValue,
        response: sectionAnswer,
      },
    },
    (request) => {
      const { user, roles } = authOf(request);
      requireSettingEntry(roles, request.params.settingName);
      return updatePreferenceSection(app.ctx.db, {
        actor: user,
        section: request.params.settingName,
        changes: request.body,
      });
    },
  );

  app.post(
    '/setting/reset/:settingName',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Delete the caller's (or their center's) stored section; answers the section's defaults",
        params: ZUserSettingParams,
        response: sectionAnswer,
      },
    },
    (request) => {
      const { user, roles } = authOf(request);
      requireSettingEntry(roles, request.params.settingName);
      return resetPreferenceSection(app.ctx.db, { actor: user, section: request.params.settingName });
    },
  );

  app.post(
    '/setting/update-group/:settingName',
    {
      onRequest: app.requirePermission(canManageGroupSettings),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Change fields of one of the group's setting sections (audited); answers the whole section",
        params: ZGroupSettingParams,
        body: ZPreferenceSectionValue,
        response: sectionAnswer,
      },
    },
    (request) =>
      updatePreferenceSection(app.ctx.db, {
        actor: authOf(request).user,
        section: request.params.settingName,
        changes: request.body,
      }),
  );

  app.post(
    '/setting/reset-group/:settingName',
    {
      onRequest: app.requirePermission(canManageGroupSettings),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Delete one of the group's setting sections (audited); answers the section's defaults",
        params: ZGroupSettingParams,
        response: sectionAnswer,
      },
    },
    (request) =>
      resetPreferenceSection(app.ctx.db, {
        actor: authOf(request).user,
        section: request.params.settingName,
      }),
  );

  app.get(
    '/setting/group-changes',
    {
      onRequest: app.requirePermission(canManageGroupSettings),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The group's setting changes, one per changed field, newest first",
        querystring: ZGroupChangesQuery,
        response: { 200: ZGroupChangesPage, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => listGroupChanges(app.ctx.db, authOf(request).user.groupId, request.query),
  );
};
