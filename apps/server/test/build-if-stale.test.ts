import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILD_OUTPUTS, buildState, writeBuildStamp } from '../../../scripts/build-if-stale.mjs';

/**
 * `npm start` skips the build when nothing it is built from changed (issue 21 §8): the check of
 * scripts/build-if-stale.mjs on a small tree shaped like the repository.
 */

let root: string;
const write = (rel: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
};

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'radflow-build-'));
  write('package.json', '{}');
  write('apps/web/src/main.tsx', 'export {};');
  write('apps/server/src/main.ts', 'export {};');
  write('packages/core/src/index.ts', 'export const a = 1;');
  for (const output of BUILD_OUTPUTS) write(output, 'built');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** As the start script does after a build: the inputs' hash is recorded. */
const built = () => writeBuildStamp(root, buildState(root).hash);

describe('the start-up build check', () => {
  it('builds when there is no record of a build, then not again while the sources are unchanged', () => {
    expect(buildState(root)).toMatchObject({ upToDate: false, reason: 'no record of the last build' });
    built();
    expect(buildState(root)).toMatchObject({ upToDate: true });
    // A source rewritten with the same bytes (a checkout, a touch) is no change.
    const later = new Date(Date.now() + 60_000);
    write('apps/server/src/main.ts', 'export {};');
    utimesSync(path.join(root, 'apps/server/src/main.ts'), later, later);
    expect(buildState(root).upToDate).toBe(true);
  });

  it('builds again when a source of the web app, the server or a shared package changes, or one is added', () => {
    built();
    write('packages/core/src/index.ts', 'export const a = 2;');
    expect(buildState(root)).toMatchObject({ upToDate: false, reason: 'sources changed' });
    built();
    write('apps/web/src/new-page.tsx', 'export {};');
    expect(buildState(root).upToDate).toBe(false);
    built();
    write('package-lock.json', '{"lockfileVersion":3}');
    expect(buildState(root).upToDate).toBe(false);
  });

  it('ignores tests and build outputs, and builds when an output is missing', () => {
    built();
    write('apps/server/src/main.test.ts', 'it()');
    write('apps/web/dist/assets/x.js', 'built');
    write('apps/web/node_modules/x/index.js', 'dependency');
    expect(buildState(root).upToDate).toBe(true);
    rmSync(path.join(root, 'apps/server/dist/main.js'));
    expect(buildState(root)).toMatchObject({
      upToDate: false,
      reason: 'apps/server/dist/main.js is missing',
    });
  });
});
