import { defineConfig } from 'vitest/config';

// Browser stories: one server (the built bundle on a fresh PGlite data dir), one browser per file
// with a fresh context per session (support/browser.ts), files in sequence. `--shard=i/n` runs a
// share of the files on a server of its own, so two shards can run side by side (.ci/run).
// Timeouts are generous ceilings, never waits.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['specs/**/*.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    setupFiles: ['./support/per-file.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
