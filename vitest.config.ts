import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/core', 'packages/dicom', 'apps/server', 'apps/router', 'apps/web', 'e2e'],
  },
});
