import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
// The viewer's early first image: the script, its build and the index.html seam live together.
import { earlyRequests } from './src/app/early/early-build';

/**
 * The study list's chunks (bench/web-bundle.ts; issue 4 budget 300 KB gzip for login + study list).
 * Left to itself the bundler cut what the study list imports into ~28 chunks, one per set of lazy
 * screens sharing a module (an icon shared with the template page, TableSortLabel with the lab
 * patients…), each gzipped on its own and one more split with every new lazy screen: 301.6 KB.
 * Instead it loads two chunks (21 + 13 KB gzip; login + study list 293.6 KB):
 * - `ui-shared`: what it shares with the other home screens (the screens roles land on or open by
 *   link: lab, customer, billing, dashboards, viewer…), so those do not load the study list's code;
 * - `study-list`: the rest, used by the list and the screens opened from it (its dialogs, settings,
 *   templates, search, summaries, the report editor), which find it in the cache.
 * Membership comes from the import graph at build time, so routes added later sort themselves.
 * Core modules follow their importers, so a screen sharing one with the list (the viewer: its schemas)
 * loads study-list too: +32 KB for a viewer opened with nothing cached; it opens from the list.
 */
const STUDY_LIST_ROOT = fileURLToPath(new URL('./src/features/worklist/index.ts', import.meta.url));
const ROUTES_MODULE = fileURLToPath(new URL('./src/app/routes.tsx', import.meta.url));
/** Route screens normally opened from the study list: what they share with it may live in its chunk. */
const OPENED_FROM_LIST =
  /[\\/]src[\\/]features[\\/](settings|report-templates|report-search|summaries|audit-logins|info|report-editor)[\\/]/;
/**
 * The core package is reached through its barrel, which imports every module; following it would put
 * all of core in every closure. Core modules go where the bundler puts them (with their importers).
 */
const isCore = (id: string) => /[\\/]packages[\\/]core[\\/]/.test(id);

interface TGraph {
  getModuleInfo(
    id: string,
  ): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;
}

function staticClosure(graph: TGraph, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id) || isCore(id)) continue;
    seen.add(id);
    stack.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

let studyListGroups: { list: Set<string>; shared: Set<string> } | undefined;
function studyListGroupsOf(graph: TGraph) {
  if (!studyListGroups) {
    const list = staticClosure(graph, [STUDY_LIST_ROOT]);
    const homeScreens = (graph.getModuleInfo(ROUTES_MODULE)?.dynamicallyImportedIds ?? []).filter(
      (id) => id !== STUDY_LIST_ROOT && !OPENED_FROM_LIST.test(id),
    );
    const theirs = staticClosure(graph, homeScreens);
    studyListGroups = { list, shared: new Set([...list].filter((id) => theirs.has(id))) };
  }
  return studyListGroups;
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
      // A zod schema the app never reads is dropped: calls on `z` (z.object(…).min(…)…) build values
      // and touch nothing else; `.meta({ id })` registers for the server's OpenAPI, which the browser
      // has no use for. Core's modules hold many schemas each (login + study list −1.3 KB gzip).
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        // Everything the entry loads statically in one chunk: left to itself the bundler cut it into
        // a dozen chunks shared with the lazy screens (settings dialogs, viewer), each gzipped on its
        // own; one chunk compresses better and the login + study list came to 292.6 KB gzip instead
        // of 307.5 (issue 4 budget 300; bench/web-bundle.ts).
        // Then the study list's two chunks (STUDY_LIST_ROOT above); a module goes to the first group
        // by priority that captures it.
        codeSplitting: {
          groups: [
            { name: 'shell', tags: ['$initial'], priority: 3 },
            {
              name: (id, ctx) => (studyListGroupsOf(ctx).shared.has(id) ? 'ui-shared' : null),
              debugName: 'ui-shared',
              priority: 2,
            },
            {
              name: (id, ctx) => (studyListGroupsOf(ctx).list.has(id) ? 'study-list' : null),
              debugName: 'study-list',
              priority: 1,
            },
          ],
        },
      },
    },
  },
});
