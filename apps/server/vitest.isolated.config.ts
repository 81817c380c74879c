import { defineConfig } from 'vitest/config';
import { ownGraphFiles, serverTest } from './vitest.config.js';

/** The server's test files that need a module graph of their own (vitest.config.ts), each in a fresh one. */
export default defineConfig({
  test: { name: 'server-isolated', include: ownGraphFiles, ...serverTest, isolate: true },
});
