import { defineConfig } from 'vitest/config';

// Browser stories: one server (the built bundle on a fresh PGlite data dir), one browser per file,
// files in sequence (2 cores). Timeouts are generous ceilings, never waits.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['specs/**/*.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
