import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'test-results', 'playwright-report', '.tsbuild'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The browser app speaks HTTP only through src/api (one doorway, typed errors, schemas).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/api/**'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Call the API layer (src/api) instead.' }],
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'ky', message: 'Call the API layer (src/api).' }] },
      ],
    },
  },
  {
    // Servers and packages never run the browser's libraries (docs/architecture.md; the package
    // boundaries themselves are checked by tsc -b and scripts/architecture/boundaries.test.ts).
    files: ['server/**/*.ts', 'packages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            'react',
            'react-dom',
            'ky',
            '@tanstack/react-query',
            'react-pdf',
            'wouter',
            'idb-keyval',
          ].map((name) => ({
            name,
            message: 'Browser code: it belongs in src/, not in a server or package.',
          })),
          patterns: [
            { regex: '^(\\.\\./)+src/', message: 'The browser app (src/) is not imported from here.' },
          ],
        },
      ],
    },
  },
  {
    // Servers log through the one logger (packages/server-kit/src/logger.ts: JSON lines, levels,
    // request ids, secrets redacted), never bare console. The CLIs' own answers are their output, and
    // tests and their helper processes print what the tests read.
    files: ['server/**/*.ts', 'packages/**/*.ts'],
    ignores: ['server/app/review/cli/**', '**/*.test.ts', 'packages/test-kit/**'],
    rules: {
      'no-console': ['error'],
    },
  },
  {
    // The contract is data both sides agree on: zod (and re2js for rule patterns) only.
    files: ['packages/contract/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|zod/|re2js$|\\.|@extraction-review/contract/)',
              message: 'The contract imports zod, re2js and itself only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.mjs', '*.js'],
    languageOptions: { globals: globals.node },
  },
);
