import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  type TRouterPlatform,
  type TRouterReleaseManifest,
  ZRouterReleaseManifest,
  compareRouterVersions,
  routerReleaseFileNames,
} from '@radflow/core';

/**
 * The router releases the server offers: the files `npm run package -w @radflow/router` writes
 * (artefact, manifest, signature per version and platform), copied into ROUTER_RELEASES_DIR. The
 * server does not sign nor re-hash: it hands out the signed manifest as it is, and the router checks
 * the signature and the artefact's SHA-256 against it (apps/router/src/release/RELEASE.md).
 */
export interface TStoredRelease {
  manifest: TRouterReleaseManifest;
  /** The manifest file's exact text (what is signed). */
  manifestText: string;
  /** Base64 Ed25519 signature of manifestText. */
  signature: string;
  artefactPath: string;
}

const MANIFEST_SUFFIX = '.manifest.json';

async function readRelease(dir: string, manifestName: string): Promise<TStoredRelease | null> {
  try {
    const manifestText = await readFile(path.join(dir, manifestName), 'utf8');
    const parsed = ZRouterReleaseManifest.safeParse(JSON.parse(manifestText));
    if (!parsed.success) return null;
    const manifest = parsed.data;
    const names = routerReleaseFileNames(manifest.version, manifest.platform);
    // Only a complete release is offered: the names agree, the signature is there, the size is right.
    if (names.manifest !== manifestName || names.artefact !== manifest.file) return null;
    const signature = (await readFile(path.join(dir, names.signature), 'utf8')).trim();
    const artefactPath = path.join(dir, names.artefact);
    if (signature === '' || (await stat(artefactPath)).size !== manifest.size) return null;
    return { manifest, manifestText, signature, artefactPath };
  } catch {
    return null;
  }
}

/** The newest complete release for `platform` in `dir`, or null (no directory, nothing there). */
export async function findLatestRelease(
  dir: string,
  platform: TRouterPlatform,
): Promise<TStoredRelease | null> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  const candidates = names.filter((n) => n.endsWith(`-${platform}${MANIFEST_SUFFIX}`));
  const releases = (await Promise.all(candidates.map((n) => readRelease(dir, n)))).filter(
    (r): r is TStoredRelease => r !== null && r.manifest.platform === platform,
  );
  releases.sort((a, b) => compareRouterVersions(b.manifest.version, a.manifest.version));
  return releases[0] ?? null;
}
