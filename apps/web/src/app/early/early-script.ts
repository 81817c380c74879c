/**
 * The window property index.html's loader sets to the promise of the early script's load
 * (early-build.ts `earlyRequests`), on viewer addresses only. Its own module, free of imports: the
 * app's shell checks it before it loads the hand-over code (lib/early-responses.ts), which other
 * pages never need.
 */
export const EARLY_SCRIPT_LOADED = '__radflowEarlyScript';

/** The early script's load, or undefined on a page without one (other pages, dev, tests). */
export function earlyScriptLoaded(): Promise<unknown> | undefined {
  if (typeof window === 'undefined') return undefined;
  return (window as unknown as Record<string, Promise<unknown> | undefined>)[EARLY_SCRIPT_LOADED];
}

/**
 * The window property the early script sets to a promise that settles once its first image is on
 * screen or will not be (app/early/early-preview.ts). index.html's loader starts the app's bundle
 * only then (or after APP_START_WAIT_MS): its evaluation and first renders would otherwise hold the
 * page's one thread while the image waits to be drawn.
 */
export const EARLY_PREVIEW_SETTLED = '__radflowEarlyPreview';

/** However the early preview goes, the app does not wait longer than this to start. */
export const APP_START_WAIT_MS = 1500;
