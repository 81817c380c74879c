// @vitest-environment node
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Plugin, type Rollup } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAGNOSTIC_VIEWER_ADDRESS, ENTRY_TAG_MISSING, earlyRequests } from './early-build';
import { EARLY_SCRIPT_LOADED } from './early-script';

/**
 * The index.html seam of the early first image, over what Vite really writes: a page shaped like the
 * app's (index.html with its module entry) is built with the real plugin, so a Vite release that
 * writes the entry tag otherwise fails here, and the build fails rather than shipping a loader that
 * does nothing.
 */
let root = '';

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'radflow-early-build-'));
  writeFileSync(
    join(root, 'index.html'),
    [
      '<!doctype html>',
      '<html lang="en">',
      '  <head><meta charset="UTF-8" /><title>Radflow</title></head>',
      '  <body>',
      '    <div id="root"></div>',
      '    <script type="module" src="/main.ts"></script>',
      '  </body>',
      '</html>',
    ].join('\n'),
  );
  writeFileSync(join(root, 'main.ts'), "document.getElementById('root')!.textContent = 'app';\n");
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

async function buildPage(plugins: Plugin[]): Promise<Rollup.RollupOutput> {
  const output = await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins,
    build: { write: false, outDir: join(root, 'dist'), emptyOutDir: false, modulePreload: false },
  });
  return (Array.isArray(output) ? output[0] : output) as Rollup.RollupOutput;
}

const fileOf = (output: Rollup.RollupOutput, name: string) => {
  const item = output.output.find((o) => o.fileName === name);
  if (!item) throw new Error(`${name} was not built`);
  return item.type === 'asset' ? String(item.source) : item.code;
};

/** A plugin that rewrites the entry tag after Vite wrote it, as a Vite that writes it otherwise would. */
function entryTagWrittenAs(replace: (tag: string) => string): Plugin {
  return {
    name: 'entry-tag-written-otherwise',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => html.replace(/<script type="module"[^>]*><\/script>/, replace),
    },
  };
}

describe('early-build: the loader takes over the entry tag Vite writes', { timeout: 60_000 }, () => {
  it('replaces the entry tag by the loader, a modulepreload of the entry and the early script', async () => {
    const output = await buildPage([earlyRequests()]);
    const entry = output.output.find((o) => o.type === 'chunk' && o.isEntry);
    const early = output.output.find((o) => /^assets\/early-requests-[0-9a-f]{8}\.js$/.test(o.fileName));
    expect(entry).toBeDefined();
    expect(early).toBeDefined();
    expect(fileOf(output, early!.fileName).length).toBeGreaterThan(1000);
    const html = fileOf(output, 'index.html');
    expect(html).not.toMatch(/<script type="module"/);
    expect(html).toContain(
      `<link rel="modulepreload" crossorigin="" href="/${entry!.fileName}" data-entry="">`,
    );
    expect(html).toContain(`m.src="/${entry!.fileName}"`);
    expect(html).toContain(`s.src="/${early!.fileName}"`);
    expect(html).toContain(`window.${EARLY_SCRIPT_LOADED}=new Promise`);
  });

  it('fails the build when the entry tag is not of the shape it takes over', async () => {
    await expect(
      buildPage([
        entryTagWrittenAs((tag) => tag.replace(' crossorigin', ' crossorigin="anonymous"')),
        earlyRequests(),
      ]),
    ).rejects.toThrow(ENTRY_TAG_MISSING);
  });
});

describe('early-build: which addresses get the early first image (issue 29 §4)', () => {
  const isEarly = (href: string) => {
    const url = new URL(href, 'http://localhost');
    return new Function('location', `return ${DIAGNOSTIC_VIEWER_ADDRESS}`)(url) as boolean;
  };
  it.each([
    ['/viewer/1.2.3/7?v=2&d=1', true],
    ['/viewer/1.2.3/7?d=1', true],
    ['/viewer/1.2.3/7?v=2&p=1&d=1&showEditor=1', true],
    ['/viewer/1.2.3/7?v=2', false],
    ['/viewer/1.2.3/7?v=2&d=10', false],
    ['/viewer/1.2.3/7?v=2&dd=1', false],
    ['/status?d=1', false],
  ])('%s → %s', (href, early) => {
    expect(isEarly(href)).toBe(early);
  });
});
