// Bundles the router into dist/main.js: npm packages stay external (node_modules), the @radflow/*
// workspace packages (they export TypeScript source) are bundled — as apps/server/build.mjs does.
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
  entryPoints: { main: new URL('./src/main.ts', import.meta.url).pathname },
  outdir: new URL('./dist', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [externalNpmPackages],
});
