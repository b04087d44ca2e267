import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'test-results', 'playwright-report', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Type-aware rules for the server: an unawaited promise there is a lost error or a race.
    files: ['server/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // The server is a separate program: from the SPA's sources it may import only the contract.
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/*', '!**/src/contract', '**/src/*/**', '!**/src/contract/**'],
              message: 'The server may import only src/contract from the SPA.',
            },
          ],
        },
      ],
    },
  },
  {
    // The daemon is its own component (a Wings peer): it never reaches into the panel's layers.
    files: ['server/daemon/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/*', '!**/src/contract', '**/src/*/**', '!**/src/contract/**'],
              message: 'The server may import only src/contract from the SPA.',
            },
            {
              group: ['**/services/**', '**/routes/**', '**/db/**', '**/http/**', '**/app', '**/deps'],
              message: 'The daemon does not import the panel.',
            },
          ],
        },
      ],
    },
  },
  {
    // The contract is shared by browser and server: it may import nothing but zod.
    files: ['src/contract/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['react*', 'node:*', '../*/**', '@tanstack/*'] }] },
  },
);
