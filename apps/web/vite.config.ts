import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
// The viewer's early first image: the script, its build and the index.html seam live together.
import { earlyRequests } from './src/app/early/early-build';

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
