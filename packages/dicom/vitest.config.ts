import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'dicom', include: ['src/**/*.test.ts'] } });
