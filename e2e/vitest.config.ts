import { defineConfig } from 'vitest/config';

// Browser stories: one server per worker (the built bundle on a fresh PGlite data dir each:
// support/global-setup.ts, support/server.ts), one browser per file with a fresh context per session
// (support/browser.ts). The run's two workers (maxWorkers in the root config) each take the next
// file when free, so the files balance themselves. Timeouts are generous ceilings, never waits.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['specs/**/*.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    setupFiles: ['./support/per-file.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
