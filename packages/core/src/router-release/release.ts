import { z } from 'zod';
import { hasRole, type TRole } from '../identity/roles.js';

/**
 * The router's releases (issue 27 §5): the manifest a release is signed by, the cloud's version
 * offer, and the version order. One home for both sides: the build writes the manifest, the server
 * reads it from its releases directory and offers it, the router verifies and compares it
 * (apps/router/src/release/RELEASE.md).
 */

/** The platforms a router build is packaged for: the bundle is the same, the service wrapper differs. */
export const ROUTER_PLATFORMS = ['linux', 'windows'] as const;
export const ZRouterPlatform = z.enum(ROUTER_PLATFORMS, { error: 'platform must be linux or windows' });
export type TRouterPlatform = z.infer<typeof ZRouterPlatform>;

/** A release version: MAJOR.MINOR.PATCH, nothing else (the order below must be total and simple). */
export const ROUTER_VERSION_PATTERN = /^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})$/;
export const ZRouterVersion = z.string().regex(ROUTER_VERSION_PATTERN, 'must be a version like 1.2.3');

/**
 * What the release key signs (the exact bytes of the manifest file, not a re-serialisation): the
 * artefact's name, size and SHA-256, so a signature over the manifest vouches for the artefact.
 */
export const ZRouterReleaseManifest = z.object({
  product: z.literal('radflow-router'),
  version: ZRouterVersion,
  platform: ZRouterPlatform,
  /** The artefact's file name (no directory). */
  file: z.string().regex(/^[A-Za-z0-9._-]+$/, 'must be a plain file name'),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be a lowercase hex SHA-256'),
  size: z.number().int().positive(),
  /** The Node.js major version the bundle needs on the PC (no Node is bundled; RELEASE.md). */
  node: z.string(),
  builtAt: z.string(),
});
export type TRouterReleaseManifest = z.infer<typeof ZRouterReleaseManifest>;

/** `GET /api/router/latest?platform=` and the manifest the download sends. */
export const ZRouterLatestQuery = z.object({ platform: ZRouterPlatform });
export const ZRouterDownloadQuery = z.object({ platform: ZRouterPlatform.default('linux') });

/** The cloud's version offer: the signed manifest as stored, its signature, and where to fetch it. */
export const ZRouterLatest = z
  .object({
    version: ZRouterVersion,
    platform: ZRouterPlatform,
    sha256: z.string(),
    size: z.number().int(),
    /** The manifest file's text, byte for byte: the signature is over it. */
    manifest: z.string(),
    /** Base64 Ed25519 signature of `manifest`. */
    signature: z.string(),
    /** Path of the artefact on this server (GET /api/router/download?platform=…). */
    url: z.string(),
  })
  .meta({ id: 'RouterLatest' });
export type TRouterLatest = z.infer<typeof ZRouterLatest>;

function parts(version: string): [number, number, number] {
  const m = ROUTER_VERSION_PATTERN.exec(version);
  if (!m) throw new Error(`Not a router version: ${version}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** Negative, zero or positive as `a` is older than, the same as or newer than `b` (throws on a non-version). */
export function compareRouterVersions(a: string, b: string): number {
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}

/** The artefact and manifest file names of a release. */
export function routerReleaseFileNames(version: string, platform: TRouterPlatform) {
  const base = `radflow-router-${version}-${platform}`;
  return { artefact: `${base}.zip`, manifest: `${base}.manifest.json`, signature: `${base}.manifest.sig` };
}

/**
 * Who may download the router and its updates: the center (spec-lab §6 "the router app is center
 * only"; the drawer's Download router entry and the router's own cloud session alike).
 */
export function canDownloadRouter(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_CENTER');
}
