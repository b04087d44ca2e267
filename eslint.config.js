import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import pluginQuery from '@tanstack/eslint-plugin-query';

/*
 * SPA import boundaries. ESLint keeps only the last matching block's options for
 * a rule, so each block below lists every pattern that applies to its files.
 */
// From the SPA's sources the server (the daemon included) may import only the contract.
const SERVER_SPA_BOUNDARY = {
  group: ['**/src/*', '!**/src/contract', '**/src/*/**', '!**/src/contract/**'],
  message: 'The server may import only src/contract from the SPA.',
};
const CONTRACT_BARREL = {
  regex: '(^|/)contract(/index)?$',
  message: 'Import the contract area file (contract/files, contract/servers…): the barrel pulls every schema into the bundle.',
};
const OTHER_FEATURE_INTERNALS = {
  // `../<feature>/<file>` from inside a feature, unless the file is the feature's api.ts.
  regex: '^\\.\\./(?!\\.\\.(/|$))[^/]+/(?!api$)',
  message: 'Another feature is reached only through its api.ts (src/features/README.md).',
};
const ANY_FEATURE = {
  regex: '(^|/)features(/|$)',
  message: 'Shared components and lib code know no feature; pass what they need in props or arguments.',
};

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
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // Strings from the API are text, never markup (attacks T-XSS-1..3).
      'no-restricted-syntax': [
        'error',
        { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'Render text or elements; markup from strings is an XSS hole.' },
      ],
    },
  },
  // TanStack Query's recommended rules, for the SPA only.
  ...pluginQuery.configs['flat/recommended'].map((config) => ({ ...config, files: ['src/**/*.{ts,tsx}'] })),
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/contract/**', 'src/features/**', 'src/components/**', 'src/lib/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CONTRACT_BARREL] }] },
  },
  {
    files: ['src/features/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CONTRACT_BARREL, OTHER_FEATURE_INTERNALS] }] },
  },
  {
    files: ['src/components/**/*.{ts,tsx}', 'src/lib/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CONTRACT_BARREL, ANY_FEATURE] }] },
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
          patterns: [SERVER_SPA_BOUNDARY],
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
            SERVER_SPA_BOUNDARY,
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
