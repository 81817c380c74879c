// Bundles the server into dist/main.js: npm packages stay external (node_modules), the @radflow/*
// workspace packages (they export TypeScript source) are bundled.
import { build } from 'esbuild';

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
  entryPoints: [new URL('./src/main.ts', import.meta.url).pathname],
  outfile: new URL('./dist/main.js', import.meta.url).pathname,
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
