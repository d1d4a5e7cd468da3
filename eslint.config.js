// One linter for the whole tree: typescript-eslint's recommended rules on top of ESLint's.
import js from '@eslint/js';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
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
  // No import circle, type imports included: a module's imports point away from it, never back
  // through another (harness/README.md, Layers).
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver()],
      'import-x/extensions': ['.ts', '.mts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.mts'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // The import direction of the layers (harness/README.md, Layers): core/ at the bottom; the engine
  // (harness/) and reporters/ on it, neither importing the other; on top the public API
  // (harness/index.ts), the runs that write reports (harness/runs.ts), the CLI and the fleet.
  {
    files: ['harness/**/*.ts'],
    ignores: ['harness/index.ts', 'harness/runs.ts', 'harness/cli/**', 'harness/fleet/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+reporters/',
              message:
                'the engine never imports reporters/: write reports in the top layer (harness/runs.ts, cli/, fleet/)',
            },
            {
              regex: '^\\.\\.?/((cli|fleet)/|(runs|index)\\.ts$)',
              message: 'the engine never imports the top layer (harness/index.ts, runs.ts, cli/, fleet/)',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.value=/reporters\\//]',
          message: 'the engine never imports reporters/, not even on demand',
        },
      ],
    },
  },
  {
    // The run result's types, evidence, redaction and verdict arithmetic: the engine and the
    // reporters both stand on it, and it stands on schemas/ and requirements/ alone.
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!(schemas|requirements)/)',
              message: 'core/ imports only itself, schemas/ and requirements/',
            },
          ],
        },
      ],
    },
  },
  {
    // Every format is written from the RunResult: a reporter reads the model, never the engine.
    files: ['reporters/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+harness/',
              message: 'reporters import core/, never the harness',
            },
          ],
        },
      ],
    },
  },
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
              regex: '^(\\.\\./)+(harness/(?!check/index\\.ts$)|core/)',
              message: 'suites import the harness (and core/) through harness/check/index.ts only',
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
