import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import type { HtmlTagDescriptor, Plugin, Rollup } from 'vite';
import { APP_START_WAIT_MS, EARLY_PREVIEW_SETTLED, EARLY_SCRIPT_LOADED } from './early-script';

/**
 * The build side of the viewer's early first image (VIEWER.md "Speed"), beside the script it builds
 * (early-requests.ts, early-preview.ts) and the window properties both sides share (early-script.ts).
 *
 * The page's early requests are bundled on their own, so that they share no chunk with the app and
 * run as soon as their few KB arrive while the app's bundle is still loading; emitted as an asset,
 * and loaded by a one-line script at the top of index.html on viewer addresses only (the login and
 * study-list pages do not fetch it). Builds only: in dev the app asks for everything itself, which
 * is the same minus the head start.
 *
 * The seam: the loader takes over the app's entry from the module script tag Vite writes into
 * index.html. That tag is found by its shape (ENTRY_TAG); a Vite that writes it otherwise fails the
 * build here (and early-build.test.ts, which builds a page with real Vite), instead of shipping a
 * page whose early script silently does nothing.
 */

/** The entry's module script tag as Vite writes it into the built index.html. */
export const ENTRY_TAG = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/;

export const ENTRY_TAG_MISSING =
  'radflow-early-requests: the built index.html has no entry tag of the shape <script type="module" crossorigin src="…"></script>; ' +
  "Vite's output changed: update ENTRY_TAG in apps/web/src/app/early/early-build.ts (and its test)";

/** The modules a viewer address renders its first image with (viewer-warm.ts, the route, the preview, the early hand-over). */
const VIEWER_ROUTE_MODULES =
  /src\/(features\/viewer\/(viewer-warm\.ts|ViewerPage\.tsx|first-image\/FirstImageCanvas\.tsx)|lib\/early-responses\.ts)$/;

/** The chunks of those modules and the chunks they import, but not the app's entry chunk. */
function viewerRouteChunks(bundle: Rollup.OutputBundle, entryFileName: string): string[] {
  const found = new Set<string>();
  const visit = (fileName: string) => {
    const item = bundle[fileName];
    if (found.has(fileName) || fileName === entryFileName || item?.type !== 'chunk') return;
    found.add(fileName);
    item.imports.forEach(visit);
  };
  for (const item of Object.values(bundle)) {
    if (item.type === 'chunk' && item.facadeModuleId && VIEWER_ROUTE_MODULES.test(item.facadeModuleId)) {
      visit(item.fileName);
    }
  }
  return [...found].sort();
}

/**
 * The loader's test of `location` (plain ES5 in index.html): a diagnostic viewer address
 * (`/viewer/…?…d=1`, core `viewerQueryOf`). The light viewer (no `d=1`) draws no early preview and
 * loads no Cornerstone: its page starts the app at once, like any other page.
 */
export const DIAGNOSTIC_VIEWER_ADDRESS =
  "location.pathname.indexOf('/viewer/')===0&&/[?&]d=1(&|$)/.test(location.search)";

/**
 * index.html with the loader in place of the entry's tag. The app's entry is started by the loader,
 * not by its own tag: on a viewer address after the early preview (its evaluation would hold the
 * thread the preview is drawn on), elsewhere as soon as the document is parsed, as a module script
 * tag would. It downloads at once on every page (modulepreload). Throws when the entry's tag is not
 * found (ENTRY_TAG_MISSING).
 */
export function withEarlyLoader(
  html: string,
  { earlyScript, modulePreloads }: { earlyScript: string; modulePreloads: readonly string[] },
): { html: string; tags: HtmlTagDescriptor[] } {
  const entryTag = ENTRY_TAG.exec(html);
  const entry = entryTag?.[1];
  if (!entryTag || !entry) throw new Error(ENTRY_TAG_MISSING);
  const start = [
    `var started=0;function start(){if(started)return;started=1;var add=function(){var m=document.createElement('script');m.type='module';m.crossOrigin='';m.src=${JSON.stringify(entry)};document.head.appendChild(m)};`,
    `if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',add);else add()}`,
  ].join('');
  const load = [
    // The app waits for this promise before it looks for an early answer (lib/early-responses.ts).
    `var s=document.createElement('script');window.${EARLY_SCRIPT_LOADED}=new Promise(function(r){s.onload=s.onerror=r});`,
    `s.src=${JSON.stringify(earlyScript)};document.head.appendChild(s);`,
    `${JSON.stringify(modulePreloads)}.forEach(function(h){var l=document.createElement('link');l.rel='modulepreload';l.href=h;document.head.appendChild(l)});`,
    `window.${EARLY_SCRIPT_LOADED}.then(function(){return window.${EARLY_PREVIEW_SETTLED}}).then(start,start);setTimeout(start,${APP_START_WAIT_MS})`,
  ].join('');
  return {
    html: html.replace(entryTag[0], ''),
    tags: [
      {
        tag: 'link',
        attrs: { rel: 'modulepreload', crossorigin: '', href: entry, 'data-entry': '' },
        injectTo: 'head-prepend',
      },
      {
        tag: 'script',
        injectTo: 'head-prepend',
        children: `${start}if(${DIAGNOSTIC_VIEWER_ADDRESS}){${load}}else start()`,
      },
    ],
  };
}

/** The Vite plugin: builds the early script and puts its loader into index.html (vite.config.ts). */
export function earlyRequests(): Plugin {
  const source = (file: string) => fileURLToPath(new URL(`./${file}`, import.meta.url));
  let base = '/';
  let fileName = '';
  return {
    name: 'radflow-early-requests',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    async buildStart() {
      const bundle = async (file: string) => {
        const result = await esbuild({
          entryPoints: [source(file)],
          bundle: true,
          write: false,
          format: 'iife',
          platform: 'browser',
          target: 'es2022',
          minify: true,
          legalComments: 'none',
        });
        const code = result.outputFiles[0]?.text ?? '';
        const name = file.replace(/\.ts$/, '').replaceAll('.', '-');
        const emitted = `assets/${name}-${createHash('sha256').update(code).digest('hex').slice(0, 8)}.js`;
        this.emitFile({ type: 'asset', fileName: emitted, source: code });
        return emitted;
      };
      fileName = await bundle('early-requests.ts');
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, chunk }) {
        const modules =
          bundle && chunk ? viewerRouteChunks(bundle, chunk.fileName).map((f) => `${base}${f}`) : [];
        return withEarlyLoader(html, { earlyScript: `${base}${fileName}`, modulePreloads: modules });
      },
    },
  };
}
