import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AppError,
  ZGroupSettingParams,
  ZPreferenceSectionValue,
  SETTINGS_MESSAGES,
  ZUserSettingParams,
  canManageGroupSettings,
  canSetSetting,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { updatePreferenceSection } from './preferences.js';

/** Setting updates of spec-core §7 (the Manage preference screen builds on them in the settings issue). */
export const preferencesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['settings'];

  app.post(
    '/setting/update/:settingName',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Change fields of one of the caller's own preference sections; answers the whole section",
        params: ZUserSettingParams,
        body: ZPreferenceSectionValue,
        response: { 200: ZPreferenceSectionValue, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => {
      const { user, roles } = authOf(request);
      // spec-lab §6: a role without the settings entry gets no dialog and cannot save its section.
      if (!canSetSetting(roles, request.params.settingName)) {
        throw new AppError('FORBIDDEN', SETTINGS_MESSAGES.notAllowed, request.params.settingName);
      }
      return updatePreferenceSection(app.ctx.db, {
        ownerId: user.id,
        section: request.params.settingName,
        changes: request.body,
        updatedBy: user.email,
        groupId: user.groupId,
      });
    },
  );

  app.post(
    '/setting/update-group/:settingName',
    {
      onRequest: app.requirePermission(canManageGroupSettings),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Change fields of one of the group's setting sections; answers the whole section",
        params: ZGroupSettingParams,
        body: ZPreferenceSectionValue,
        response: { 200: ZPreferenceSectionValue, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => {
      const { user } = authOf(request);
      return updatePreferenceSection(app.ctx.db, {
        ownerId: user.groupId,
        section: request.params.settingName,
        changes: request.body,
        updatedBy: user.email,
        groupId: user.groupId,
      });
    },
  );
};
