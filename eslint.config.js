// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Architecture boundaries (docs/contracts.md). Imports go through the package.json `imports`
 * field (`#client/*`, `#server/*`, ...), so the rules match those specifiers; relative imports that
 * climb out of a folder are refused everywhere, so nothing can sneak around them. */
const forbid = (groups, message) => ({ group: groups, message });
const boundaries = {
  'machines/**': [
    forbid(['\\#client/*', '\\#server/*'], 'machines/ is pure logic: only xstate and #common'),
  ],
  'common/**': [
    forbid(['\\#client/*', '\\#server/*', '\\#machines/*'], 'common/ imports nothing else'),
  ],
  'server/**': [forbid(['\\#client/*'], 'the server never imports the client')],
  'server/sandbox/**': [
    forbid(
      ['\\#client/*', '\\#server/*', '!\\#server/sandbox/'],
      'the sandbox does not import the BFF',
    ),
  ],
  'client/ui/**': [
    forbid(
      ['\\#client/features/*', '\\#client/app/*', '\\#server/*'],
      'the UI kit is feature-agnostic',
    ),
  ],
  'client/api/**': [
    forbid(
      ['\\#client/features/*', '\\#client/app/*', '\\#server/*'],
      'API clients are feature-agnostic',
    ),
  ],
  'client/features/**': [
    forbid(['\\#server/*'], 'the client never imports the server'),
    forbid(
      ['\\#client/features/*', '\\#client/app/*'],
      'features do not import each other or the app; share through client/ui, client/api, machines',
    ),
  ],
  'client/app/**': [forbid(['\\#server/*'], 'the client never imports the server')],
};
const BFF_ONLY_SANDBOX = forbid(
  ['\\#server/sandbox/*', '!\\#server/sandbox/sandbox.ts', '!\\#server/sandbox/service-names.ts'],
  'the BFF only starts the sandbox (sandbox.ts), reads the upstream service names (service-names.ts) and talks HTTP to it',
);

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
      'no-restricted-imports': [
        'error',
        { patterns: [forbid(['../../*'], 'use the #imports paths instead of climbing folders')] },
      ],
    },
  },
  ...Object.entries(boundaries).map(([glob, patterns]) => ({
    files: [glob],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid(['../../*'], 'use the #imports paths instead of climbing folders'),
            ...patterns,
            ...(glob === 'server/**' ? [BFF_ONLY_SANDBOX] : []),
          ],
        },
      ],
    },
  })),
);
