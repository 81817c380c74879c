import { inject } from 'vitest';
import type { TStoryServer } from './global-setup.js';

/**
 * The story server of the worker this file runs on (global-setup.ts starts one per worker; vitest
 * numbers the workers running at once 1..maxWorkers in VITEST_POOL_ID, so two files that run at the
 * same time never share a server).
 */
export function storyServer(): TStoryServer {
  const servers = inject('storyServers');
  const pool = Number(process.env.VITEST_POOL_ID ?? '1');
  const server = servers[(Math.max(pool, 1) - 1) % servers.length];
  if (!server) throw new Error('global setup started no story server');
  return server;
}
