import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SETTING_ASSET_MAX_BYTES, ZBrand, canManageGroupSettings } from '@radflow/core';
import { authOf, authenticate } from '../../plugins/auth.js';
import { SETTING_FORM_LIMITS, readSettingForm } from '../setting-assets/setting-form.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { resolveBrand, saveGroupBrand } from './brand.js';

/**
 * A group's product name and logo (issue 29 §8; spec-core §7 "Title and logo assets are fetched from
 * a brand assets path"). Decisions in README.md beside this.
 */
export const brandRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['settings'];
  await app.register(fastifyMultipart, { throwFileSizeLimit: false, limits: SETTING_FORM_LIMITS });

  app.get(
    '/brand-assets',
    {
      schema: {
        tags,
        summary: 'The product name and logo a page shows; no session needed (the sign-in page asks for it)',
        description:
          "Signed in: the caller's group. With shareLink: the shared study's group. Otherwise the group whose appDomain is the request's host; else the product's own.",
        querystring: z.object({ shareLink: z.string().max(128).optional() }),
        response: { 200: ZBrand },
      },
    },
    async (request, reply) => {
      const auth = await authenticate(app, request);
      // Per caller and address: a shared cache must not hand one group's brand to another's page.
      void reply.header('cache-control', 'private, no-cache').header('vary', 'Cookie, Host');
      return resolveBrand(app.ctx, { auth, shareLink: request.query.shareLink, host: request.host });
    },
  );

  app.post(
    '/setting/brand',
    {
      onRequest: app.requirePermission(canManageGroupSettings),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Set the group's product name and logo (multipart productName, logo, removeLogo)",
        description: `productName trimmed, at most 60 characters, empty = the product's own; logo png or jpeg by its bytes, at most ${SETTING_ASSET_MAX_BYTES} bytes (413 above, 415 another type); removeLogo "true" goes back to the product's mark. Group admins only.`,
        response: { 200: ZBrand, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request) => saveGroupBrand(app.ctx, authOf(request), await readSettingForm(request, ['logo'])),
  );
};
