/**
 * The window property index.html's loader sets to the promise of the early script's load (vite.config.ts
 * `earlyRequests`), on viewer addresses only. Its own module, free of imports: the app's shell checks
 * it before it loads the hand-over code (lib/early-responses.ts), which other pages never need.
 */
export const EARLY_SCRIPT_LOADED = '__radflowEarlyScript';

/** The early script's load, or undefined on a page without one (other pages, dev, tests). */
export function earlyScriptLoaded(): Promise<unknown> | undefined {
  if (typeof window === 'undefined') return undefined;
  return (window as unknown as Record<string, Promise<unknown> | undefined>)[EARLY_SCRIPT_LOADED];
}
