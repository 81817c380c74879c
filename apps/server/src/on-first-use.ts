import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A library that an idle server does not need, loaded by its first caller and kept (issue 28:
 * idle memory). Measured alone on Node 20, each one's resident memory once loaded: sharp 18 MB
 * (libvips), subset-font 14 MB (HarfBuzz, and fontverter's two WOFF2 WASM heaps of 16 MB each),
 * qrcode, sanitize-html and jszip 14 MB together; jsdom takes a second to load. A first call pays
 * the load once (milliseconds to a second); every server start and every test file that builds
 * the app no longer does. npm packages stay outside the bundle (build.mjs), so this resolves them
 * from node_modules as a static import would.
 */
export function onFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}
