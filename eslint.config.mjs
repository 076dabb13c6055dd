// Flat config: typescript-eslint's recommended rules plus the project's own seams.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.vscode-test/**', 'test-output/**', '*.vsix'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // Each file is checked with the tsconfig of its runtime (src/, src/features/playground/page/, or the root one for
    // tests and scripts).
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      eqeqeq: ['error', 'smart'],
      curly: ['error', 'multi-line'],
      // Prettier (run by `npm run lint` too) keeps code within 140 columns; this holds comments to the same width. It
      // cannot break a string, so strings are left to it.
      'max-len': ['error', { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }],
      // An async function without await is how fakes and interface implementations return a promise (a throw becomes a
      // rejection, as callers expect).
      '@typescript-eslint/require-await': 'off',
      // Passing on what was caught (unknown) is not making a non-Error: only new rejection values must be Errors.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    // The service client runs under plain mocha and in benchmarks: it must never depend on VS Code.
    files: ['src/api/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/api never imports vscode.' }] }],
    },
  },
  {
    // The command line runs in plain Node (its bundle has no `vscode` to load: esbuild.mjs fails the build on one that
    // reaches it through another module).
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'The command line never imports vscode.' }] }],
    },
  },
  {
    // The local runtime runs under plain mocha, its child outside VS Code: it never reads VS Code (its settings come
    // from localRuntimeSettings.ts; the record of local models and the messages about them are VS Code's side).
    files: ['src/local/localRuntime.ts', 'src/local/runtime*.ts', 'src/local/storedLocalModels.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'The local runtime and its record never import vscode.' }] }],
    },
  },
  {
    // Activation loads only the entry module, in every window: it imports the few small modules
    // test/unit/entryModule.test.ts allows, and types (the main module comes through `import('./main.js')`).
    files: ['src/extension.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!vscode$|\\./(contributions|deferredTree|services|storageKeys|jobs/jobRecord)$)',
              allowTypeImports: true,
              message: 'The entry module stays small: load the rest through main(), or import types only.',
            },
          ],
        },
      ],
    },
  },
  {
    // Notifications and progress notifications render `[x](command:…)` links: every message goes through
    // src/util/notify.ts, which makes text from the service, files and the workspace inert first.
    files: ['src/**/*.ts'],
    ignores: ['src/features/playground/page/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'MemberExpression[property.name=/^(show(Error|Warning|Information)Message|withProgress)$/][object.property.name="window"]',
          message: 'Use showErrorMessage / showWarningMessage / showInformationMessage / withProgress from src/util/notify.ts.',
        },
      ],
    },
  },
  {
    // Browser code of the playground: no VS Code API, no Node, no network libraries. The host does all I/O.
    files: ['src/features/playground/page/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'The webview talks to the extension through protocol.ts messages only.' },
            { name: 'axios', message: 'The webview never talks to the network.' },
          ],
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'os', 'http', 'https', 'net', 'child_process', 'crypto'],
              message: 'No Node modules in the webview bundle.',
            },
            { group: ['**/api/*', '!**/api/types'], message: 'Only the API types may be shared with the webview.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
);
