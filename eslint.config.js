import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import vitest from '@vitest/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/bench-dist*/**',
      'data/**',
      'apps/server/drizzle/**',
      '**/*.config.js',
      '**/*.mjs',
      'scripts/*.d.mts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { project: ['./tsconfig.eslint.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**/*.ts'],
    plugins: { vitest },
    rules: {
      'vitest/no-focused-tests': 'error',
      'vitest/no-disabled-tests': 'warn',
    },
  },
  {
    // Server tests live beside their modules (issue 22 §5); the server's own code never imports a
    // test or the test-support folder, so nothing of them can reach the bundle built from main.ts.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      '**/*.test.ts',
      '**/*.fixtures.ts',
      '**/*.arbitraries.ts',
      '**/*.helpers.ts',
      '**/*.table.ts',
      '**/*.calls.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/test/**',
                '**/*.test.js',
                '**/*.fixtures.js',
                '**/*.arbitraries.js',
                '**/*.helpers.js',
                '**/*.table.js',
                '**/*.calls.js',
              ],
              message: 'Test code (apps/server/test, *.test, fixtures, helpers) stays out of the server.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.tsx', 'apps/web/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
