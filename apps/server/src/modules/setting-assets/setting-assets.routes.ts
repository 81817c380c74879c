import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SETTING_ASSET_MAX_BYTES,
  ZCenterSettingResponse,
  ZSettingAssetUploadResponse,
  ZSignatureResponse,
  canEditReportLayout,
  canEditSignature,
  canUseAssetUpload,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { layoutOwnerOf, loadReportLayout, updateReportLayout } from './report-layout.js';
import { loadSettingAsset, uploadSettingAsset } from './setting-assets.js';
import { SETTING_FORM_LIMITS, readSettingForm } from './setting-form.js';
import { loadSignature, saveSignature } from './signature.js';

const ZBinary = z.any().meta({ description: 'The image bytes' });

/**
 * Settings images, the signature and the report page layout (spec-lab §3, §5, §7 Settings; the
 * issue 6 contract). Rules in core settings/asset-rules.ts; decisions in DECISIONS.md beside this.
 */
export const settingAssetsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['settings'];
  await app.register(fastifyMultipart, { throwFileSizeLimit: false, limits: SETTING_FORM_LIMITS });
  const imageRules = `png or jpeg by the bytes, at most ${SETTING_ASSET_MAX_BYTES} bytes (413 above, 415 another type)`;

  app.post(
    '/setting/upload-assets',
    {
      onRequest: app.requirePermission(canUseAssetUpload),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Upload a settings image (multipart `file` + `assetType`); answers its public address',
        description: `${imageRules}; REPORT_HEADER/REPORT_FOOTER png only. 403 unless the caller has the entry that uses the type (REPORT_IMAGE: a report writer).`,
        response: { 200: ZSettingAssetUploadResponse, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request) => uploadSettingAsset(app.ctx, authOf(request), await readSettingForm(request, ['file'])),
  );

  app.get(
    '/assets/:id',
    {
      schema: {
        tags,
        summary: 'A settings image by its id; no session needed (reports opened by share link show them)',
        params: z.object({ id: z.string() }),
        response: { 200: ZBinary, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const asset = await loadSettingAsset(app.ctx, request.params.id);
      return reply
        .header('content-type', asset.contentType)
        .header('content-length', asset.bytes.length)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(asset.bytes);
    },
  );

  app.get(
    '/metadata/sign',
    {
      onRequest: app.requirePermission(canEditSignature),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The caller's signature: footer text and image as a data URL (null when none)",
        response: { 200: ZSignatureResponse, ...errorResponses(401, 403) },
      },
    },
    (request) => loadSignature(app.ctx, authOf(request)),
  );

  app.post(
    '/metadata/upload',
    {
      onRequest: app.requirePermission(canEditSignature),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Save the signature: multipart `data` = JSON {"name"} (required) and optional image `file`',
        description: `${imageRules}. Without a file the stored image is kept.`,
        response: { 200: ZSignatureResponse, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request) => saveSignature(app.ctx, authOf(request), await readSettingForm(request, ['file'])),
  );

  app.get(
    '/center-setting',
    {
      onRequest: app.requirePermission(canEditReportLayout),
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The report page layout: margins in cm and header/footer image addresses',
        response: { 200: ZCenterSettingResponse, ...errorResponses(401, 403) },
      },
    },
    (request) => loadReportLayout(app.ctx.db, layoutOwnerOf(authOf(request))),
  );

  app.post(
    '/center-setting/update',
    {
      onRequest: app.requirePermission(canEditReportLayout),
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Save the report page layout (multipart pdf_margin_top/bottom/left/right, header, footer, removeHeader, removeFooter)',
        description: `Margins in cm, step 0.01, 0 to 10; top and bottom required. Images png only, at most ${SETTING_ASSET_MAX_BYTES} bytes.`,
        response: { 200: ZCenterSettingResponse, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request) =>
      updateReportLayout(app.ctx, authOf(request), await readSettingForm(request, ['header', 'footer'])),
  );
};
