// ESLint for `npm test`'s lint stage (and `npm run lint`): type-aware checks for what the compiler does
// not catch (promises nobody waits for, promises where a callback's result is ignored, values of type
// `any` leaking out of untyped code), and the layers of src/ as import rules. Formatting is Prettier's
// job (.prettierrc), unused locals and parameters the compiler's (tsconfig.base.json).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';
import { featureBoundaries } from './lint/featureBoundaries.mjs';
import { importCycles } from './lint/importCycles.mjs';

/**
 * The rooms of src/ that run in Node tests without VS Code: each feature's model/ and protocol.ts, and
 * the platform's client, kit and health. They import nothing from it.
 */
const pureRooms = [
  'src/*/model/**/*.ts',
  'src/*/protocol.ts',
  'src/platform/client/**/*.ts',
  'src/platform/kit/**/*.ts',
  'src/platform/health/**/*.ts',
  'src/platform/parquet/**/*.ts',
  'src/platform/charts/**/*.ts',
  'src/platform/scoring/**/*.ts',
  'src/platform/pages/*.ts',
];
/** The rooms that run in a webview (a browser): each feature's page/ and the pages' own helpers. */
const pageRooms = ['src/*/page/**/*.ts', 'src/platform/pages/page/**/*.ts'];
/** What both sides of a webview import: the contracts and the messaging under them. */
const sharedWithPages = ['src/*/protocol.ts', 'src/platform/pages/*.ts'];

const vscodeModule = {
  name: 'vscode',
  message: 'This room is pure (tested in Node without VS Code): take what it needs as a parameter, and keep the VS Code glue in a host/ room.',
};
const nodeOnly = [...builtinModules.filter((name) => !name.startsWith('_')), 'undici'].map((name) => ({
  name,
  message: 'Webview scripts run in a browser: no Node modules and no undici. Ask the extension host over the webview protocol instead.',
}));

/** Rules that deal in `any`: errors in src/, where every value has a type; tests read JSON bodies freely. */
const anyRules = [
  '@typescript-eslint/no-explicit-any',
  '@typescript-eslint/no-unsafe-argument',
  '@typescript-eslint/no-unsafe-assignment',
  '@typescript-eslint/no-unsafe-call',
  '@typescript-eslint/no-unsafe-member-access',
  '@typescript-eslint/no-unsafe-return',
];

export default defineConfig(
  {
    ignores: ['dist/**', 'out/**', 'media/**', 'node_modules/**', 'test/fixtures/**', 'test-results/**', '.vscode-test/**', '*.vsix'],
  },

  // Every file: ESLint's recommended checks, less the ones this code base answers otherwise.
  js.configs.recommended,
  {
    rules: {
      // Control characters in patterns are the point: they are what the sanitisers strip or refuse.
      'no-control-regex': 'off',
      // Errors are rewritten on purpose (plain words, redacted); a `cause` would carry the raw one along.
      'preserve-caught-error': 'off',
      // A generator that only throws stands for a stream that fails before its first chunk.
      'require-yield': 'off',
      // `let peer!: Endpoint` before two endpoints that post to each other is a forward declaration.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },

  // TypeScript, with type information from tsconfig.json (every file of src/ and test/).
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // The reason these rules are here: a promise nobody awaits loses its failure, and an async
      // function passed where a callback's result is ignored runs unobserved.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // Abort reasons and caught values are passed on as they are, whatever their type.
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // Command handlers take `(...args: any[])`, so that a handler may declare the arguments it takes.
      '@typescript-eslint/no-explicit-any': ['error', { ignoreRestArgs: true }],
      // `interface Stream extends AsyncIterable<Chunk> {}` names a type; it is not an empty object.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // Off: the compiler reports unused locals and parameters (noUnusedLocals, noUnusedParameters).
      '@typescript-eslint/no-unused-vars': 'off',
      // Off: features are loaded on first use with require() (esbuild.mjs's lazy bundle boundary).
      '@typescript-eslint/no-require-imports': 'off',
      // Off: an async function without await is how a promise-returning interface is met simply.
      '@typescript-eslint/require-await': 'off',
      // Off: `list[i]!` states that an index is in range; the rule would strip every one of them
      // (the compiler does not check indexed access, noUncheckedIndexedAccess being off).
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Off: unknown values are stringified on purpose, in messages that show what was received.
      '@typescript-eslint/no-base-to-string': 'off',
      // Off: unions that list the values expected (`'open' | string`, `Entry | unknown`) document them,
      // and `keyof T & string` is how string keys are named.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
    },
  },

  // The rooms of src/ (see README.md, "How it is built"): pure rooms import nothing of VS Code...
  {
    files: pureRooms,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [vscodeModule] }],
    },
  },
  // ...each feature keeps its rooms to itself, and the platform needs no feature...
  {
    files: ['src/**/*.ts'],
    plugins: { 'rl-studio': { rules: { 'import-cycles': importCycles, 'feature-boundaries': featureBoundaries } } },
    rules: { 'rl-studio/feature-boundaries': 'error' },
  },
  // No file of src/ imports its way back to itself.
  {
    files: ['src/**/*.ts'],
    rules: { 'rl-studio/import-cycles': 'error' },
  },
  // ...and the webview scripts, with what they share with the host, run in a browser: no VS Code, no
  // Node, no undici.
  {
    files: [...pageRooms, ...sharedWithPages],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ ...vscodeModule, message: 'Webview scripts run in a browser and reach VS Code only through the webview protocol.' }, ...nodeOnly],
          patterns: [{ group: ['node:*'], message: 'Webview scripts run in a browser: no Node modules. Ask the extension host over the webview protocol instead.' }],
        },
      ],
    },
  },

  // Tests and benchmarks: `any` from parsed JSON bodies and stand-ins is fine there, and test
  // contexts are destructured (their methods do not use `this`).
  {
    files: ['test/**/*.ts'],
    rules: {
      ...Object.fromEntries(anyRules.map((rule) => [rule, 'off'])),
      '@typescript-eslint/unbound-method': 'off',
      // A stand-in that implements a method with a `this` alias mirrors the object it replaces.
      '@typescript-eslint/no-this-alias': 'off',
      // Test servers take async request handlers: a rejection there fails the run as an unhandled one.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },

  // Node scripts (build, test runner, this file): plain JavaScript, no type information.
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        ['process', 'console', 'fetch', 'AbortSignal', 'AbortController', 'URL', 'Buffer', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'].map((name) => [name, 'readonly']),
      ),
    },
  },
);
