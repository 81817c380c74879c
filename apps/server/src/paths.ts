import { fileURLToPath } from 'node:url';

/**
 * Locations next to the code. src/ (tests, tsx) and dist/ (the esbuild bundle) are both one level
 * below apps/server, so the same relative URLs work from either.
 */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../drizzle', import.meta.url));
export const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));
/** The repository's DICOM corpus with its manifest (sources, licences): the demo studies' files. */
export const DEMO_FIXTURES_DIR = fileURLToPath(
  new URL('../../../packages/dicom/test-fixtures', import.meta.url),
);
/**
 * A migrated PGlite data directory that new embedded databases start from (db/pglite-template.ts):
 * beside the bundle, written by the build. From src/ (tsx, tests) there is none: databases are made
 * and migrated as before.
 */
export const PGLITE_TEMPLATE_FILE = fileURLToPath(new URL('./pglite-template.tar', import.meta.url));
