// One linter for the whole tree: typescript-eslint's recommended rules on top of ESLint's.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'reports/**', 'bench/results/**', 'schemas/generated/**', 'types/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: globals.node,
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  // The import direction of the layers (harness/README.md, Layers).
  {
    // A suite takes the harness through the check-writing API alone.
    files: ['suites/**/*.ts'],
    ignores: ['suites/vitest.config.ts', 'suites/support/global-setup.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+harness/(?!check/index\\.ts$)',
              message: 'suites import the harness through harness/check/index.ts only',
            },
          ],
        },
      ],
    },
  },
  {
    // The suites' vitest config and global setup start runs as the runner does, never through the API.
    files: ['suites/vitest.config.ts', 'suites/support/global-setup.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+harness/index\\.ts$',
              message: 'the public API (harness/index.ts) is for users; start a run with harness/runner/',
            },
          ],
        },
      ],
    },
  },
);
