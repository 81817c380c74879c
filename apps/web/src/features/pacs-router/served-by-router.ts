import { ROUTER_SERVED_META } from '@radflow/core';

/**
 * Whether this page came from the center's router rather than the cloud (apps/router/HYBRID.md):
 * the router adds core ROUTER_SERVED_META to the index.html it serves. The app then talks to the
 * router at its own origin and shows the offline hybrid screen only.
 */
export function isServedByRouter(doc: Document = document): boolean {
  const meta = doc.querySelector(`meta[name="${ROUTER_SERVED_META.name}"]`);
  return meta?.getAttribute('content') === ROUTER_SERVED_META.content;
}
