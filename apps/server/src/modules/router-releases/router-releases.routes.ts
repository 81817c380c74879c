import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppError,
  type TRouterPlatform,
  ZRouterDownloadQuery,
  ZRouterLatest,
  ZRouterCloudSettings,
  ZRouterLatestQuery,
  canDownloadRouter,
  groupFlags,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { type TStoredRelease, findLatestRelease } from './releases-dir.js';

const ZArtefact = z.any().meta({ description: 'The router installable (zip)' });

export const MESSAGE_ROUTER_DOWNLOADS_OFF = 'Router downloads are not set up on this server.';
export const messageNoRouterRelease = (platform: TRouterPlatform) =>
  `No router release is available for ${platform}.`;

/** Headers of the download: the checksum (also as RFC 9530 Repr-Digest) and the signed manifest. */
export const ROUTER_HEADERS = {
  version: 'x-router-version',
  sha256: 'x-checksum-sha256',
  manifest: 'x-router-manifest',
  signature: 'x-router-manifest-signature',
} as const;

export interface TRouterReleasesOptions {
  /** config ROUTER_RELEASES_DIR; unset: every call is 404 with MESSAGE_ROUTER_DOWNLOADS_OFF. */
  releasesDir?: string | undefined;
}

/**
 * 'Download router' and the router's version check (issue 27 §5; spec-core §2 drawer, §7 the router's
 * check-version asks this). Center only (spec-lab §6). Releases are files: README.md beside this.
 */
export const routerReleasesRoutes: FastifyPluginAsyncZod<TRouterReleasesOptions> = async (app, opts) => {
  const tags = ['router-releases'];
  const center = { onRequest: app.requirePermission(canDownloadRouter) };

  async function latest(platform: TRouterPlatform): Promise<TStoredRelease> {
    if (!opts.releasesDir) throw new AppError('NOT_FOUND', MESSAGE_ROUTER_DOWNLOADS_OFF);
    const release = await findLatestRelease(opts.releasesDir, platform);
    if (!release) throw new AppError('NOT_FOUND', messageNoRouterRelease(platform));
    return release;
  }

  app.get(
    '/router/settings',
    {
      ...center,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The group switches the center's router follows (issue 29 §6), read with its API token",
        response: { 200: ZRouterCloudSettings, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const flags = groupFlags(await loadGroupPreferences(app.ctx.db, authOf(request).user.groupId));
      void reply.header('cache-control', 'private, no-store');
      return {
        removeCenterNameWhileUploading: flags.removeCenterNameWhileUploading,
        sendCapabilityAtCenter: flags.sendCapabilityAtCenter,
      };
    },
  );

  app.get(
    '/router/latest',
    {
      ...center,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The newest router version for a platform: its signed manifest, checksum and download path',
        querystring: ZRouterLatestQuery,
        response: { 200: ZRouterLatest, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { platform } = request.query;
      const release = await latest(platform);
      void reply.header('cache-control', 'private, no-store');
      return {
        version: release.manifest.version,
        platform,
        sha256: release.manifest.sha256,
        size: release.manifest.size,
        manifest: release.manifestText,
        signature: release.signature,
        url: `/api/router/download?platform=${platform}`,
      };
    },
  );

  app.get(
    '/router/download',
    {
      ...center,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          'Download router: the newest installable for the platform (linux by default), with its checksum',
        description: `The zip, with its SHA-256 in ${ROUTER_HEADERS.sha256} and Repr-Digest, and its signed manifest (base64) and signature in ${ROUTER_HEADERS.manifest} / ${ROUTER_HEADERS.signature}.`,
        querystring: ZRouterDownloadQuery,
        response: { 200: ZArtefact, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const release = await latest(request.query.platform);
      const { manifest } = release;
      return reply
        .header('content-type', 'application/zip')
        .header('content-length', manifest.size)
        .header('content-disposition', `attachment; filename="${manifest.file}"`)
        .header('cache-control', 'private, no-store')
        .header(ROUTER_HEADERS.version, manifest.version)
        .header(ROUTER_HEADERS.sha256, manifest.sha256)
        .header('repr-digest', `sha-256=:${Buffer.from(manifest.sha256, 'hex').toString('base64')}:`)
        .header(ROUTER_HEADERS.manifest, Buffer.from(release.manifestText, 'utf8').toString('base64'))
        .header(ROUTER_HEADERS.signature, release.signature)
        .send(createReadStream(release.artefactPath));
    },
  );
};
