/**
 * The linter of the suite (`npm run lint`; `npm test` runs it beside tsc and Prettier, sharing tsc's program:
 * test/support/typecheck-lint.mjs). What it holds the code to, and why:
 * - functions that fit on a screen: `max-lines-per-function` 60, blank lines and comments not counted (a comment
 *   that explains a step is never the reason to split); the self-tests' describe/it callbacks are exempt, their helpers
 *   are not;
 * - `max-params` 4: past the subject, its context and a value or two, a call site stops saying what each argument is
 *   (`f(a, b, 3, true, x)`): a fifth parameter goes into an options object that names it. Four is what the suite's
 *   functions needed once their tails were named (3 would split pairs that belong together: a run, its options, a
 *   clock and a signal);
 * - ARCHITECTURE.md's layering as `no-restricted-imports`, one block per folder, generated from its table
 *   (test/support/layers.mjs); dynamic `import()` and `typeof import()` by the same patterns (`no-restricted-syntax`);
 * - typescript-eslint's recommended type-aware rules (floating and misused promises, unsafe `any`, unbound methods…),
 *   all of them on the suite's code. The self-tests read untyped JSON (reports, HAR files, manifests, k6 output) and
 *   check its shape with `expect`: there `any` and the `no-unsafe-*` rules are off; every other rule stays on.
 * A rule is disabled in a file only with its reason (`-- why`), and a disable comment that no longer disables anything
 * is an error.
 */
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { layeringBlocks } from './test/support/layers.mjs';

const NODE_GLOBALS = Object.fromEntries(
  ['process', 'console', 'Buffer', 'URL', 'TextDecoder', 'TextEncoder', 'setTimeout', 'clearTimeout', 'globalThis'].map((g) => [
    g,
    'readonly',
  ]),
);

export default defineConfig(
  { ignores: ['node_modules/', 'load/dist/', 'reports/', 'coverage/'] },
  {
    name: 'animal-store/all',
    extends: [js.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      'max-params': ['error', 4],
      // The suite reads wire formats: a control character in a regular expression is what it looks for (JSON's
      // forbidden characters, header values), never a typo.
      'no-control-regex': 'off',
    },
  },
  {
    name: 'animal-store/javascript',
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: NODE_GLOBALS },
  },
  {
    name: 'animal-store/report-page-script',
    files: ['src/results/writers/assets/*.js'],
    // ES2017 at most (no catch without its binding): an unused caught error is how it is written.
    rules: { 'no-unused-vars': ['error', { caughtErrors: 'none' }] },
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(['document', 'window', 'navigator', 'location'].map((g) => [g, 'readonly'])),
    },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } } },
  {
    name: 'animal-store/typescript',
    files: ['**/*.{ts,mts}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    name: 'animal-store/self-tests',
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // The fakes implement asynchronous interfaces (a server's hooks, GitHub's client, a transport's sleep) and must
      // reject, not throw, as the real ones do: `async` without `await` is how they are written.
      '@typescript-eslint/require-await': 'off',
    },
  },
  { name: 'animal-store/test-callbacks', files: ['test/**/*.test.ts'], rules: { 'max-lines-per-function': 'off' } },
  // The example servers are written as their stack's developers write them (a test of false alarms on code not in the
  // suite's style), not in the suite's: a request handler of one piece, as Node's http examples have it.
  { name: 'animal-store/example-servers', files: ['examples/**'], rules: { 'max-lines-per-function': 'off' } },
  ...layeringBlocks(),
);
