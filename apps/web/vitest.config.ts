import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // Files share one jsdom page and one module graph per worker. Isolated, every file set up its
    // own jsdom and imported React, MUI, emotion and the app anew (about 1 s a file before its first
    // test); shared, that happens once per worker. What a file could leave behind for the next is
    // put back after each test and each file (src/test/fresh-page.ts: the page, module state the
    // app keeps for a page's life, emotion's styles). Measured A/B alternating on the shared 2-core
    // VM (bench/results/2026-11-27-web-suite.json): 475 s -> 142 s at load 7-13, 331 s -> 106 s at
    // load 4-7; the summary's setup + import phases 150-190 s -> 15-22 s.
    isolate: false,
    unstubGlobals: true,
    // Ceilings, not waits: a jsdom render of a dialog takes 1–2 s on a busy 2-core machine, and a
    // story of several steps went past the 5 s default while other suites ran beside it.
    testTimeout: 20_000,
  },
});
