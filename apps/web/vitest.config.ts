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
    unstubGlobals: true,
    // Ceilings, not waits: a jsdom render of a dialog takes 1–2 s on a busy 2-core machine, and a
    // story of several steps went past the 5 s default while other suites ran beside it.
    testTimeout: 20_000,
  },
});
