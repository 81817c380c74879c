import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as root from './index.js';

/*
 * The subpath entries of package.json (`@radflow/core/roles`, `/dicom-uid`, ...) are loaded on their
 * own: by the web page's early script (built apart from the app) and by the server's ingest workers.
 * They must keep resolving when files move between domain folders, stay free of imports (so loading
 * one does not pull in zod or the rest of core), and name the same bindings the root entry does.
 */
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, string>;
};
const subpaths = Object.entries(pkg.exports).filter(([key]) => key !== '.');
const IMPORT_STATEMENT = /^\s*(?:import\b|export\b[^;]*\bfrom\s)|\bimport\(/m;

describe('package.json subpath exports', () => {
  it.each(subpaths)(
    '%s resolves by package name to an import-free module of root bindings',
    async (key, file) => {
      const text = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
      expect(IMPORT_STATEMENT.test(text), `${file} imports another module`).toBe(false);
      const mod = (await import(`@radflow/core${key.slice(1)}`)) as Record<string, unknown>;
      const names = Object.keys(mod);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect((root as Record<string, unknown>)[name], name).toBe(mod[name]);
    },
  );
});
