import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The architecture boundaries (eslint.config.js, docs/contracts.md) are judged on the file an
 * import resolves to. These cases lint small files in a throwaway copy of the layout with the
 * project's own config, so a relative path that goes around a rule fails as the `#imports` path
 * does, and a config change that silently disables a rule fails here.
 */
const repo = process.cwd();
let root = '';
let eslint: ESLint;

/** What the cases import; each exists, so every import resolves (an unresolved one proves nothing). */
const TARGETS = [
  'client/features/policies/policies-page.tsx',
  'client/features/claims/claims-page.tsx',
  'client/api/policies-client.ts',
  'client/ui/button.tsx',
  'client/entities/policy/policies-table.tsx',
  'client/entities/lead/lead-columns.tsx',
  'client/app/app.tsx',
  'server/app.ts',
  'server/sandbox/db.ts',
  'server/sandbox/sandbox.ts',
  'server/sandbox/service-names.ts',
  'server/sandbox/services/b/index.ts',
  'server/sandbox/services/b/routes.ts',
  'server/sandbox/services/a/helper.ts',
  'machines/session.machine.ts',
  'common/permissions.ts',
];

function write(file: string, text: string) {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

beforeAll(() => {
  mkdirSync(join(repo, '.tmp'), { recursive: true });
  root = mkdtempSync(join(repo, '.tmp', 'boundaries-'));
  // The same `imports` map as the project, so `#client/...` resolves inside the fixture tree.
  const { imports } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    imports: Record<string, string>;
  };
  write('package.json', JSON.stringify({ type: 'module', imports }));
  for (const target of TARGETS) write(target, 'export {};\n');
  eslint = new ESLint({ cwd: root, overrideConfigFile: join(repo, 'eslint.config.js') });
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

let serial = 0;
/** The errors of `rule` in a file at `dir/` that imports `source`. */
async function violations(dir: string, source: string, rule = 'boundaries/dependencies') {
  serial += 1;
  const file = `${dir}/case-${serial}.${dir.startsWith('client') ? 'tsx' : 'ts'}`;
  write(file, `import '${source}';\nexport {};\n`);
  const [result] = await eslint.lintFiles([join(root, file)]);
  const messages = result!.messages;
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return messages.filter((m) => m.ruleId === rule).length;
}

describe('import boundaries on resolved paths', () => {
  it.each([
    // A feature does not import another feature, however the path is spelled.
    ['client/features/claims', '../policies/policies-page.tsx'],
    ['client/features/claims', '#client/features/policies/policies-page.tsx'],
    ['client/features/claims', '#client/app/app.tsx'],
    // The BFF: of the sandbox only its entry; never the client.
    ['server/routes', '../sandbox/db.ts'],
    ['server/routes', '#server/sandbox/db.ts'],
    ['server/routes', '#server/sandbox/services/b/index.ts'],
    ['server', '#client/app/app.tsx'],
    // The sandbox does not import the BFF.
    ['server/sandbox', '../app.ts'],
    ['server/sandbox/services/a', '#server/app.ts'],
    // machines/: xstate and common only.
    ['machines', 'react'],
    ['machines', '../client/ui/button.tsx'],
    ['machines', '#server/app.ts'],
    // common/ imports nothing of the others.
    ['common', '../server/app.ts'],
    ['common', '#machines/session.machine.ts'],
    // The UI kit and the API clients stay below entities and features.
    ['client/ui', '../api/policies-client.ts'],
    ['client/ui', '#client/entities/policy/policies-table.tsx'],
    ['client/ui', '#client/features/claims/claims-page.tsx'],
    ['client/api', '../entities/policy/policies-table.tsx'],
    ['client/api', '#client/features/claims/claims-page.tsx'],
    ['client/entities/lead', '#client/features/claims/claims-page.tsx'],
    // A service uses another only through its index.ts.
    ['server/sandbox/services/a', '../b/routes.ts'],
    ['server/sandbox/services/a', '#server/sandbox/services/b/routes.ts'],
  ])('%s may not import %s', async (dir, source) => {
    expect(await violations(dir, source)).toBe(1);
  });

  it.each([
    ['client/features/claims', './claims-page.tsx'],
    ['client/features/claims', '#client/entities/policy/policies-table.tsx'],
    ['client/features/claims', '#client/ui/button.tsx'],
    ['client/features/claims', '#machines/session.machine.ts'],
    ['client/entities/lead', '../policy/policies-table.tsx'],
    ['client/entities/lead', '#client/api/policies-client.ts'],
    ['client/ui', './button.tsx'],
    ['client/ui', '#common/permissions.ts'],
    ['server/routes', '../sandbox/sandbox.ts'],
    ['server/routes', '#server/sandbox/service-names.ts'],
    ['server/sandbox', './db.ts'],
    ['machines', 'xstate'],
    ['machines', '#common/permissions.ts'],
    ['server/sandbox/services/a', '../b/index.ts'],
    ['server/sandbox/services/a', './helper.ts'],
    ['server/sandbox/services/a', '#server/sandbox/db.ts'],
  ])('%s may import %s', async (dir, source) => {
    expect(await violations(dir, source)).toBe(0);
  });

  it('asks for the #imports path instead of climbing two folders (style, not a boundary)', async () => {
    expect(
      await violations('client/entities/lead', '../../ui/button.tsx', 'no-restricted-imports'),
    ).toBe(1);
    expect(await violations('client/entities/lead', '../../ui/button.tsx')).toBe(0);
  });

  it('refuses an import it cannot place (a misspelt path is no way around the rules)', async () => {
    expect(await violations('client/features/claims', '../policies/no-such-file.tsx')).toBe(1);
  });
});
