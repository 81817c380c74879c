import { z } from 'zod';

/**
 * The center router's configuration (spec-core §7 "Local router"). The router itself — a C-STORE SCP
 * that queues and uploads with resume — is built by a later issue; this is its validated start-up
 * configuration so that the package builds, runs and is tested from day one.
 */
export const ZRouterConfig = z.object({
  ROUTER_PORT: z.coerce.number().int().min(1).max(65535).default(8090),
  ROUTER_SERVER_URL: z.url().default('http://127.0.0.1:8080'),
  ROUTER_DATA_DIR: z.string().min(1).default('./router-data'),
});
export type TRouterConfig = z.infer<typeof ZRouterConfig>;

export function loadRouterConfig(env: Record<string, string | undefined>): TRouterConfig {
  const parsed = ZRouterConfig.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid router configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
