import type { TRouterPlatform } from '@radflow/core';
import { INSTALL_DIR_ENV } from './health.js';
import { embeddedReleaseKeys } from './release-keys.js';
import { RouterUpdater, type TUpdaterOptions } from './updater.js';
import { ROUTER_VERSION } from './version.js';

export { ReleaseError, type TReleaseErrorCode } from './errors.js';
export { reportHealthy, RESTART_EXIT_CODE } from './health.js';
export {
  RouterUpdater,
  VERSION_CHECK_INTERVAL_MS,
  type TUpdateCheck,
  type TUpdaterOptions,
  type TUpdaterStatus,
} from './updater.js';
export { ROUTER_VERSION } from './version.js';

/** The platform this router runs on, as releases name it. */
export function currentRouterPlatform(platform: NodeJS.Platform = process.platform): TRouterPlatform {
  return platform === 'win32' ? 'windows' : 'linux';
}

/**
 * The updater of this build, for main.ts and the local API's check-version / update calls: this
 * version, the embedded release keys, the install folder the launcher named (RELEASE.md). Only the
 * cloud call is the caller's (it carries the router's cloud credentials).
 */
export function createRouterUpdater(
  fetchFromCloud: TUpdaterOptions['fetchFromCloud'],
  overrides: Partial<TUpdaterOptions> = {},
  env: NodeJS.ProcessEnv = process.env,
): RouterUpdater {
  return new RouterUpdater({
    currentVersion: ROUTER_VERSION,
    platform: currentRouterPlatform(),
    // Not started by the launcher (a dev run): an install folder of its own, so nothing real is replaced.
    installDir: env[INSTALL_DIR_ENV] ?? `${env.ROUTER_DATA_DIR ?? './router-data'}/install`,
    trustedKeys: embeddedReleaseKeys(),
    fetchFromCloud,
    ...overrides,
  });
}
