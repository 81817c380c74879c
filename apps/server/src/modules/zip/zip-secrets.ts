import type { AppContext } from '../../context.js';

/**
 * Keys of the zip module, derived from the server's 'api-token' secret with a label per purpose
 * (HMAC as a key-derivation function), so every process shares them without a new secret row.
 * The labels cannot collide with the API token's own input (`<userId>.<tokenVersion>`).
 */
async function deriveKey(ctx: AppContext, label: string): Promise<Buffer> {
  return ctx.secrets.hmac('api-token', `radflow-derived-key:${label}`);
}

/** Signs download links. */
export const zipLinkKey = (ctx: AppContext) => deriveKey(ctx, 'zip-link');

/** The anonymiser's secret of a group: the same UIDs map the same way in every zip of the group. */
export const anonymizationSecret = (ctx: AppContext, groupId: number) =>
  deriveKey(ctx, `anonymize-group:${groupId}`);
