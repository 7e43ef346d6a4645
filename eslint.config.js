// @ts-check
import { fileURLToPath, URL } from 'node:url';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Architecture boundaries (docs/contracts.md, "Layout and imports"), judged by
 * eslint-plugin-boundaries on the file an import resolves to (eslint-import-resolver-typescript:
 * relative paths, the package.json `imports` field, packages), so `'../policies/x.ts'` counts the
 * same as `'#client/features/policies/x.ts'`. Each source file belongs to one element below; an
 * import is refused unless a policy allows it (scripts/lint-boundaries.test.ts proves they bite).
 */
const elements = [
  // Folders, matched from the file up: a file belongs to the innermost one (a service's file is
  // a sandbox-service, whose parents are sandbox and server).
  { type: 'sandbox-service', pattern: 'server/sandbox/services/*', capture: ['service'] },
  { type: 'sandbox', pattern: 'server/sandbox' },
  { type: 'server', pattern: 'server' },
  { type: 'machines', pattern: 'machines' },
  { type: 'common', pattern: 'common' },
  { type: 'ui', pattern: 'client/ui' },
  { type: 'api', pattern: 'client/api' },
  { type: 'entity', pattern: 'client/entities/*', capture: ['entity'] },
  { type: 'feature', pattern: 'client/features/*', capture: ['feature'] },
  { type: 'app', pattern: 'client/app' },
  { type: 'i18n', pattern: 'client/i18n' },
  { type: 'client', pattern: 'client' },
  { type: 'locales', pattern: 'locales' },
];
/** The sandbox's entry: what the BFF may import of it. */
const SANDBOX_ENTRY = ['sandbox.ts', 'service-names.ts'];

/** @param {string[]} types */
const to = (...types) => ({ to: { element: { type: types } } });
/** @param {string} capture */
const sameCaptured = (capture) => ({
  to: { element: { captured: { [capture]: `{{ from.element.captured.${capture} }}` } } },
});
const PACKAGES = { to: { module: { origin: 'external' } } };
const NODE_BUILTINS = { to: { module: { origin: 'core' } } };
/** @param {string | string[]} type @param {object[]} allow */
const layer = (type, allow) => ({ from: { element: { type } }, allow });
const CLIENT_BASE = ['ui', 'common', 'machines'];

const policies = [
  // Statecharts are pure logic: xstate and common/, no React, no client, no server.
  layer('machines', [to('machines', 'common'), { to: { module: { source: 'xstate' } } }]),
  // common/ is shared by everyone, so it imports nothing of client, server or machines.
  layer('common', [to('common'), PACKAGES]),
  // client/ui is a kit: no API, no entity, no feature, no app (and never the server).
  layer('ui', [to(...CLIENT_BASE), PACKAGES]),
  layer('api', [to('api', ...CLIENT_BASE), PACKAGES]),
  // Entities (client/entities/<entity>/): the widgets that know a record; they may use each other.
  layer('entity', [to('entity', 'api', 'i18n', ...CLIENT_BASE), PACKAGES]),
  // A feature imports its own folder and the layers below, never another feature or the app.
  layer('feature', [
    to('entity', 'api', 'i18n', ...CLIENT_BASE),
    { to: { element: { type: 'feature' } }, ...sameCaptured('feature') },
    PACKAGES,
  ]),
  layer('app', [to('app', 'feature', 'entity', 'api', 'i18n', ...CLIENT_BASE), PACKAGES]),
  // The language choice and the bundled English texts (client/i18n), and the entry (main.tsx).
  layer('i18n', [to('i18n', 'locales', 'common'), PACKAGES]),
  layer('client', [to('client', 'app', 'api', 'i18n', ...CLIENT_BASE), PACKAGES]),
  // The BFF talks HTTP to the sandbox; of its files it only starts it (sandbox.ts) and knows the
  // names of its services (service-names.ts). It never imports the client.
  layer('server', [
    to('server', 'common', 'machines'),
    { to: { element: { type: 'sandbox', fileInternalPath: SANDBOX_ENTRY } } },
    PACKAGES,
    NODE_BUILTINS,
  ]),
  // The sandbox stands in for the upstream services: it never imports the BFF or the client.
  layer('sandbox', [to('sandbox', 'sandbox-service', 'common'), PACKAGES, NODE_BUILTINS]),
  // A service (server/sandbox/services/<name>/) uses another only through that one's index.ts.
  layer('sandbox-service', [
    to('sandbox', 'common'),
    { to: { element: { type: 'sandbox-service' } }, ...sameCaptured('service') },
    { to: { element: { type: 'sandbox-service', fileInternalPath: 'index.ts' } } },
    PACKAGES,
    NODE_BUILTINS,
  ]),
];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'test-results', 'playwright-report', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
      'no-control-regex': 'off',
      // Style, not a boundary (those are judged on resolved paths below): a module has one
      // spelling from afar, its `#imports` path, so a search for it finds every user.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../../*'], message: 'use the #imports paths instead of climbing folders' },
          ],
        },
      ],
    },
  },
  {
    files: ['{client,server,machines,common}/**/*.{ts,tsx}'],
    // Tests may reach across layers (a test of the sandbox starts the BFF, a machine test uses
    // vitest); the rules hold for the code that ships.
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'machines/testing/**'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'boundaries/dependency-nodes': ['import', 'dynamic-import', 'export'],
      'boundaries/legacy-templates': false,
      // Absolute, so that the rules resolve the same when ESLint runs from another folder (the
      // boundary test lints fixtures with its cwd in a temporary tree).
      'import/resolver': {
        typescript: { project: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) },
      },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        { default: 'disallow', checkAllOrigins: true, checkUnknownLocals: true, policies },
      ],
    },
  },
);
