import { z } from 'zod';

/**
 * The group switches a center's router reads from the cloud (issue 29 §6; spec-core §3
 * USER_ADMIN_VISIBLE_PREFERENCES): GET /api/router/settings with the center's API token.
 * - removeCenterNameWhileUploading: the router blanks Institution Name (0008,0080) of every image
 *   it uploads, so the reading side never sees which center sent the study;
 * - sendCapabilityAtCenter: the router may send studies onward to a local PACS (send-job); off, its
 *   send-job/run refuses with ROUTER_SEND_OFF_MESSAGE.
 */
export const ZRouterCloudSettings = z
  .object({
    removeCenterNameWhileUploading: z.boolean(),
    sendCapabilityAtCenter: z.boolean(),
  })
  .meta({ id: 'RouterCloudSettings' });
export type TRouterCloudSettings = z.infer<typeof ZRouterCloudSettings>;

/** The router's refusal of a send while sendCapabilityAtCenter is off (or not yet known). */
export const ROUTER_SEND_OFF_MESSAGE =
  'Sending studies from this router is switched off for your group (Send capability at center).';

/** How often the router asks the cloud for its settings. */
export const ROUTER_SETTINGS_REFRESH_MS = 60_000;
