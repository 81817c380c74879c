// Bundles the server into dist/main.js, and its worker threads beside it (started from beside
// main.js by worker-entry.ts): dist/ingest-worker.js (modules/archive/ingest-pool.ts) and
// dist/health-responder-worker.js (modules/health/health-responder.ts). npm packages stay external
// (node_modules), the @radflow/* workspace packages (they export TypeScript source) are bundled.
// `--outdir <dir>` writes the bundle elsewhere (benchmarks compare builds side by side).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';

const outdirFlag = process.argv.indexOf('--outdir');
const outdir =
  outdirFlag > 0 && process.argv[outdirFlag + 1]
    ? path.resolve(process.argv[outdirFlag + 1])
    : new URL('./dist', import.meta.url).pathname;

const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@radflow/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

await build({
  entryPoints: {
    main: new URL('./src/main.ts', import.meta.url).pathname,
    'ingest-worker': new URL('./src/modules/archive/ingest-worker.ts', import.meta.url).pathname,
    'health-responder-worker': new URL('./src/modules/health/health-responder-worker.ts', import.meta.url)
      .pathname,
    'pglite-template-writer': new URL('./src/db/pglite-template-writer.ts', import.meta.url).pathname,
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [externalNpmPackages],
  banner: {
    // UV_THREADPOOL_SIZE must be set before libuv's pool starts (first async fs call). Ingest fsyncs
    // each blob before acknowledging it, and every fsync holds a pool thread for a disk latency:
    // with the default 4, parallel associations queue behind each other (ARCHIVE.md, figures).
    js: [
      "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      "process.env.UV_THREADPOOL_SIZE ??= '16';",
    ].join(' '),
  },
  logLevel: 'info',
});

// The migrated PGlite template beside the bundle (src/db/pglite-template.ts): a new embedded database
// starts from it instead of an initdb and every migration. In a child process: the migration's WASM
// heap is not this script's.
execFileSync(
  process.execPath,
  [path.join(outdir, 'pglite-template-writer.js'), path.join(outdir, 'pglite-template.tar')],
  {
    stdio: 'inherit',
  },
);
