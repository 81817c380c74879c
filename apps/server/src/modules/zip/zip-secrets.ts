import type { AppContext } from '../../context.js';

/**
 * Keys of the zip module. Each purpose has its own server secret, so rotating the API-token secret
 * neither breaks download links nor changes how a group's UIDs are anonymised.
 */

/** Signs download links. */
export const zipLinkKey = (ctx: AppContext) => ctx.secrets.hmac('zip-link', 'radflow-zip-link');

/** The anonymiser's secret of a group: the same UIDs map the same way in every zip of the group. */
export const anonymizationSecret = (ctx: AppContext, groupId: number) =>
  ctx.secrets.hmac('anonymize', `group:${groupId}`);
