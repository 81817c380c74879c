import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const here = path.dirname(fileURLToPath(import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(path.join(here, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => path.relative(here, path.join(entry.parentPath, entry.name)));
}

/**
 * The files that need a module graph of their own run in the `server-isolated` project
 * (vitest.isolated.config.ts), each isolated; found by their text, so a new one goes there by itself:
 * those that replace a module (`vi.mock`/`vi.doMock`): a module an earlier file already loaded is
 * not replaced. (The files that read report PDFs back with pdfjs were here too: after other such
 * files in one process a letter read back dropped. That was the server's own fault, fontkit glyphs
 * shared by every document keeping the first text's code points; fixed in document-fonts.ts and
 * guarded by report-documents/pdf-text-any-order.test.ts.)
 */
export const ownGraphFiles = [...testFiles('src'), ...testFiles('test')].filter((file) =>
  /\bvi\.(do)?[mM]ock\(/.test(readFileSync(path.join(here, file), 'utf8')),
);

export const serverTest = {
  globalSetup: ['./test/global-setup.ts'],
  setupFiles: ['./test/password-cost.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...ownGraphFiles],
    ...serverTest,
    // Every file imports the whole app (Fastify, the drizzle schema, every module): isolated, each
    // file loaded it anew, ~2 s a file and over half of this project's time. Files share one module
    // graph per worker instead; each still builds its own app on its own database (test-app.ts),
    // and the modules' process-wide state (caches keyed by random ids or URLs, counters) is as in
    // a server that serves many requests.
    isolate: false,
  },
});
