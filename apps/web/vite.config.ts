import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import { APP_START_WAIT_MS, EARLY_PREVIEW_SETTLED, EARLY_SCRIPT_LOADED } from './src/lib/early-script';

/**
 * The page's early requests (src/app/early/early-requests.ts): bundled on its own, so that it shares
 * no chunk with the app and runs as soon as its few KB arrive, while the app's bundle is still
 * loading; emitted as an asset, and loaded by a one-line script at the top of index.html on viewer
 * addresses only (the login and study-list pages do not fetch it). Builds only: in dev the app asks
 * for everything itself, which is the same minus the head start.
 */
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

function earlyRequests(): Plugin {
  const source = (file: string) => fileURLToPath(new URL(`./src/app/early/${file}`, import.meta.url));
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
        // The app's entry is started by the loader below, not by its own tag: on a viewer address
        // after the early preview (its evaluation would hold the thread the preview is drawn on),
        // elsewhere as soon as the document is parsed, as a module script tag would. It downloads
        // at once on every page (modulepreload). Without a recognisable tag nothing is changed.
        const entryTag = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(html);
        const entry = entryTag?.[1];
        const start = entry
          ? [
              `var started=0;function start(){if(started)return;started=1;var add=function(){var m=document.createElement('script');m.type='module';m.crossOrigin='';m.src=${JSON.stringify(entry)};document.head.appendChild(m)};`,
              `if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',add);else add()}`,
            ].join('')
          : 'function start(){}';
        const load = [
          // The app waits for this promise before it looks for an early answer (lib/early-responses.ts).
          `var s=document.createElement('script');window.${EARLY_SCRIPT_LOADED}=new Promise(function(r){s.onload=s.onerror=r});`,
          `s.src=${JSON.stringify(`${base}${fileName}`)};document.head.appendChild(s);`,
          `${JSON.stringify(modules)}.forEach(function(h){var l=document.createElement('link');l.rel='modulepreload';l.href=h;document.head.appendChild(l)});`,
          `window.${EARLY_SCRIPT_LOADED}.then(function(){return window.${EARLY_PREVIEW_SETTLED}}).then(start,start);setTimeout(start,${APP_START_WAIT_MS})`,
        ].join('');
        return {
          html: entryTag ? html.replace(entryTag[0], '') : html,
          tags: [
            ...(entry
              ? [
                  {
                    tag: 'link',
                    attrs: { rel: 'modulepreload', crossorigin: '', href: entry, 'data-entry': '' },
                    injectTo: 'head-prepend' as const,
                  },
                ]
              : []),
            {
              tag: 'script',
              injectTo: 'head-prepend',
              children: `${start}if(location.pathname.indexOf('/viewer/')===0){${load}}else start()`,
            },
          ],
        };
      },
    },
  };
}

/**
 * The web app: built to dist/ and served by apps/server; in dev, /api goes to the local server.
 * The Cornerstone3D lines follow ARCHITECTURE §6: the image loader is excluded from pre-bundling (its
 * worker and WASM codecs are resolved by URL), the codec entries and the CommonJS helpers it pulls in
 * are pre-bundled, and workers are ES modules (the decode worker uses `import`).
 */
export default defineConfig({
  plugins: [react(), earlyRequests()],
  optimizeDeps: {
    exclude: ['@cornerstonejs/dicom-image-loader'],
    include: [
      '@cornerstonejs/codec-libjpeg-turbo-8bit/decodewasmjs',
      '@cornerstonejs/codec-charls/decodewasmjs',
      '@cornerstonejs/codec-openjpeg/decodewasmjs',
      '@cornerstonejs/codec-openjph/wasmjs',
      '@cornerstonejs/metadata',
      '@cornerstonejs/utils',
      'dicom-parser',
    ],
  },
  worker: { format: 'es' },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  preview: { host: '127.0.0.1', port: 4173, proxy: { '/api': 'http://127.0.0.1:8080' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Everything the entry loads statically in one chunk: left to itself the bundler cut it into
        // a dozen chunks shared with the lazy screens (settings dialogs, viewer), each gzipped on its
        // own; one chunk compresses better and the login + study list came to 292.6 KB gzip instead
        // of 307.5 (issue 4 budget 300; bench/web-bundle.ts).
        codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] },
      },
    },
  },
});
