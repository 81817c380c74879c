import { defineConfig } from 'vitest/config';

/**
 * The router's unit tests and its integration tests with real peers (the cloud server in process on
 * a database prepared by the server's global setup, DCMTK's storescu, the fault proxy).
 */
export default defineConfig({
  test: {
    name: 'router',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['../server/test/global-setup.ts'],
    setupFiles: ['../server/test/password-cost.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
