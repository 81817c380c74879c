import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as testSupport from './index.js';

/*
 * The DCMTK/Orthanc runners spawn processes and exist for tests and benchmarks: they live behind
 * `@radflow/dicom/test-support`, and neither a production entry nor a production module reaches them.
 */
const packageDir = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', packageDir), 'utf8')) as {
  exports: Record<string, string>;
};
const productionEntries = Object.keys(pkg.exports).filter((key) => key !== './test-support');
const testSupportNames = Object.keys(testSupport);

const srcDir = new URL('../', import.meta.url).pathname;
const isTestFile = (path: string) =>
  /\.test\.ts$|\.test-helpers\.ts$|(^|\/)test-[^/]*\.ts$/.test(path) || path.startsWith('test-support/');
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('test-support entry', () => {
  it('holds the DCMTK runners and the DICOM peers', () => {
    expect(testSupportNames).toEqual(
      expect.arrayContaining([
        'runStorescu',
        'runEchoscu',
        'runTool',
        'startStorescp',
        'startOrthanc',
        'freePort',
      ]),
    );
  });

  // Loading the main entry transforms the whole parser and codec table: seconds on a busy machine.
  it.each(productionEntries)('production entry %s exports none of them', { timeout: 60_000 }, async (key) => {
    const mod = (await import(`@radflow/dicom${key.slice(1)}`)) as Record<string, unknown>;
    expect(Object.keys(mod).filter((name) => testSupportNames.includes(name))).toEqual([]);
  });

  it('no production module imports test-support', () => {
    const offenders = sourceFiles(srcDir)
      .map((file) => relative(srcDir, file))
      .filter((file) => !isTestFile(file))
      .filter((file) =>
        /from\s+'[^']*test-support[^']*'|import\('[^']*test-support/.test(
          readFileSync(join(srcDir, file), 'utf8'),
        ),
      );
    expect(offenders).toEqual([]);
  });
});
