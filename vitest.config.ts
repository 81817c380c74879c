import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/core',
      'packages/dicom',
      'apps/server',
      'apps/server/vitest.isolated.config.ts',
      'apps/router',
      'apps/web',
      'e2e',
    ],
    // Vitest's default on 2 cores is one worker; the suites wait on PGlite, DCMTK and Orthanc often
    // enough that two run in 412 s instead of about 600 s (measured on this machine).
    maxWorkers: 2,
  },
});
