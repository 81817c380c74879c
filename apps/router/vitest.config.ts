import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'router', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] } });
