/**
 * The meta tag the router adds to the web app's index.html when it serves the app itself
 * (HYBRID.md): the app then talks to its own origin's local API (the router), not the cloud.
 * Its own module: every page reads it at start, and the hybrid contract's schemas (hybrid.ts) then
 * stay out of the web app's entry chunk.
 */
export const ROUTER_SERVED_META = { name: 'radflow-served-by', content: 'router' } as const;
