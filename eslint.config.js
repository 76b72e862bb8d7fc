// Lint enforces the layering of docs/design.md §2 as errors. The TypeScript parser of typescript-eslint
// needs the TypeScript 5 API, which TypeScript 7 (our type checker) no longer ships, so files are
// parsed by Babel's parser with its TypeScript plugin; type errors are tsc's job, layering is lint's.
import js from '@eslint/js';
import babelParser from '@babel/eslint-parser';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { builtinModules } from 'node:module';

/**
 * Babel's parser with TypeScript, and JSX in .tsx files only (in a .ts file `<T>x` is a type
 * assertion). Chosen per file path rather than per config block, because import-x/no-cycle parses
 * the files a module imports with the importing file's parser options.
 */
const babelTypeScript = {
  meta: { name: 'babel-typescript', version: '1' },
  parseForESLint(code, options) {
    const jsx = /\.tsx$/.test(options?.filePath ?? '');
    return babelParser.parseForESLint(code, {
      ...options,
      requireConfigFile: false,
      babelOptions: {
        babelrc: false,
        configFile: false,
        parserOpts: { plugins: jsx ? ['typescript', 'jsx'] : ['typescript'] },
      },
    });
  },
};

const nodeBuiltins = ['node:*', ...builtinModules.flatMap((m) => [m, `${m}/*`])];
const rule = (message, group) => ({ group, message });

/** Every layer names what it must not import; see ARCHITECTURE.md. */
function restrict(...patterns) {
  return { 'no-restricted-imports': ['error', { patterns }] };
}
const noNode = rule(
  'this layer is pure TypeScript: no Node built-ins (docs/design.md §2)',
  nodeBuiltins,
);
const noElectron = rule('only electron/ imports electron', ['electron', 'electron/*']);
const noRenderer = rule('nothing imports the renderer', ['**/renderer/**', '**/renderer']);
const layer = (name, message) => rule(message, [`**/${name}/**`, `**/${name}`, `**/${name}.ts`]);
/** engine/lib (the library) is a layer; shared/lib (pure building blocks) is open to every layer. */
const engineLib = (message) => ({
  regex: String.raw`^(\.\./)+lib(/|\.ts$|$)|(^|/)engine/lib(/|$)`,
  message,
});

export default [
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      'e2e/screenshots/**',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.{js,mjs,ts,tsx}'],
    languageOptions: {
      parser: babelTypeScript,
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      // tsc checks names and unused symbols with type knowledge Babel lacks.
      'no-undef': 'off',
      'no-unused-vars': 'off',
      'no-redeclare': 'off',
      eqeqeq: ['error', 'smart'],
      'prefer-const': 'error',
      // A cycle makes load order decide which module sees the other half-initialised.
      'import-x/no-cycle': 'error',
    },
    plugins: { 'import-x': importX },
    settings: {
      // Imports name their files with the extension, so Node's own resolution finds them.
      'import-x/resolver-next': [createNodeResolver()],
      'import-x/extensions': ['.js', '.mjs', '.ts', '.tsx'],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Threads are the runtime's business: the host and the CLI drive them through its backends.
    files: ['**/*.{js,mjs,ts,tsx}'],
    ignores: ['engine/runtime/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'ImportDeclaration',
          'ImportExpression',
          'ExportAllDeclaration',
          'ExportNamedDeclaration',
        ].map((node) => ({
          selector: `${node}[source.value=/^(node:)?worker_threads$/]`,
          message: 'only engine/runtime imports worker_threads',
        })),
      ],
    },
  },
  {
    files: ['shared/**'],
    rules: restrict(
      noNode,
      noElectron,
      noRenderer,
      rule('shared/ is the contract; it imports nothing of ours', [
        '**/engine/**',
        '**/electron/**',
      ]),
    ),
  },
  {
    // Building blocks every layer (the renderer too) may import: they depend on nothing else.
    files: ['shared/lib/**'],
    rules: restrict(
      noNode,
      noElectron,
      noRenderer,
      rule('shared/lib/ is pure building blocks; it imports only shared/lib/', [
        '**/engine/**',
        '**/electron/**',
        '../*',
      ]),
    ),
  },
  {
    files: ['engine/core/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      ...restrict(
        noNode,
        noElectron,
        noRenderer,
        layer('runtime', 'engine/core is below engine/runtime'),
        layer('host', 'engine/core is below engine/host'),
        layer('cli', 'engine/core is below engine/cli'),
        engineLib('engine/core is below engine/lib'),
      ),
      // Time is passed in: the same policy code runs on the simulator's virtual clock.
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'engine/core never reads a clock' },
        { object: 'performance', property: 'now', message: 'engine/core never reads a clock' },
        { object: 'process', property: 'hrtime', message: 'engine/core never reads a clock' },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'engine/core never touches Node APIs' },
        { name: 'setTimeout', message: 'engine/core never schedules on a clock' },
        { name: 'setInterval', message: 'engine/core never schedules on a clock' },
      ],
    },
  },
  {
    files: ['engine/runtime/**'],
    rules: restrict(
      noElectron,
      noRenderer,
      layer('host', 'engine/runtime is below engine/host'),
      layer('cli', 'engine/runtime is below engine/cli'),
      engineLib('engine/runtime is below engine/lib'),
    ),
  },
  {
    files: ['engine/host/**'],
    rules: restrict(
      noElectron,
      noRenderer,
      layer('cli', 'engine/host is below engine/cli'),
      engineLib('engine/host is below engine/lib'),
    ),
  },
  {
    // The library (Scheduler) sits on engine/host; only the package entry and the CLI use it.
    files: ['engine/lib/**'],
    rules: restrict(noElectron, noRenderer, layer('cli', 'engine/lib is below engine/cli')),
  },
  {
    files: ['engine/cli/**'],
    rules: restrict(noElectron, noRenderer),
  },
  {
    files: ['electron/**'],
    rules: restrict(
      noRenderer,
      rule('electron/ talks to the engine through engine/host only', [
        '**/engine/core/**',
        '**/engine/runtime/**',
        '**/engine/cli/**',
      ]),
    ),
  },
  {
    files: ['renderer/**'],
    rules: restrict(
      noNode,
      rule('the renderer never imports electron', ['electron', 'electron/*', '**/electron/**']),
      rule('the renderer imports shared/ only, never the engine', ['**/engine/**', '**/engine']),
    ),
  },
];
