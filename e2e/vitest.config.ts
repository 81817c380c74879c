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
    // Files share their worker's module graph (playwright-core, the support modules): isolated, each
    // file imported them anew, ~1 s of a file's setup on a loaded machine. Each file still gets its
    // own browser (per-file.ts closes it after the file) and a fresh context per story; what the
    // support modules keep is the worker's (its server, the signed-in states on disk). 10 short files
    // alternating on a quiet machine: 71.2 / 73.5 s -> 60.5 / 63.4 s, CPU 130 / 138 -> 113 / 119 s.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
