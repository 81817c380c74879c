import { writeFileDurably } from '../queue/fs-durable.js';

/**
 * The launcher ↔ version protocol (RELEASE.md "Rollback"): the launcher names a health file in the
 * environment; a version writes {version, pid} there once it has started. A version that asks for a
 * restart (an update was switched in) exits with RESTART_EXIT_CODE.
 */
export const HEALTH_FILE_ENV = 'RADFLOW_ROUTER_HEALTH_FILE';
export const INSTALL_DIR_ENV = 'RADFLOW_ROUTER_INSTALL_DIR';
/** EX_TEMPFAIL: "start me again" (the launcher then starts whatever `current` now names). */
export const RESTART_EXIT_CODE = 75;

export interface THealth {
  version: string;
  pid: number;
}

/** Called once the router runs: tells the launcher this version started (no launcher: nothing). */
export async function reportHealthy(version: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const file = env[HEALTH_FILE_ENV];
  if (!file) return;
  const health: THealth = { version, pid: process.pid };
  await writeFileDurably(file, JSON.stringify(health));
}
