import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZGroupSettingParams,
  ZPreferenceSectionValue,
  ZUserSettingParams,
  canManageGroupSettings,
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
        response: { 200: ZPreferenceSectionValue, ...errorResponses(400, 401) },
      },
    },
    (request) => {
      const { user } = authOf(request);
      return updatePreferenceSection(app.ctx.db, {
        ownerId: user.id,
        section: request.params.settingName,
        changes: request.body,
        updatedBy: user.email,
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
      });
    },
  );
};
