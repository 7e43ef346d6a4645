import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The architecture boundaries are lint rules; these cases prove the rules bite, so a config
 * change that silently disables them fails here. */
const eslint = new ESLint({ cwd: process.cwd() });
async function violations(file: string, code: string) {
  const [r] = await eslint.lintText(code, { filePath: file });
  return r!.messages.filter((m) => m.ruleId === 'no-restricted-imports').length;
}

describe('import boundaries', () => {
  it.each([
    ['machines/x.machine.ts', "import '#client/app/app.tsx';"],
    ['machines/x.machine.ts', "import '#server/app.ts';"],
    ['common/x.ts', "import '#machines/session.machine.ts';"],
    ['server/x.ts', "import '#client/app/app.tsx';"],
    ['server/x.ts', "import '#server/sandbox/platform/db.ts';"],
    ['server/routes/x.ts', "import '#server/sandbox/services/registry.ts';"],
    ['server/sandbox/x.ts', "import '#server/app.ts';"],
    ['client/features/a/x.tsx', "import '#client/features/b/y.tsx';"],
    ['client/features/a/x.tsx', "import '#server/app.ts';"],
    ['client/ui/x.tsx', "import '#client/features/b/y.tsx';"],
    ['client/features/a/deep/x.tsx', "import '../../b/y.tsx';"],
  ])('%s may not %s', async (file, code) => {
    expect(await violations(file, code)).toBe(1);
  });

  it.each([
    ['machines/x.machine.ts', "import '#common/permissions.ts';"],
    ['server/x.ts', "import '#server/sandbox/sandbox.ts';"],
    ['server/routes/x.ts', "import '#server/sandbox/service-names.ts';"],
    ['server/sandbox/x.ts', "import '#server/sandbox/platform/db.ts';"],
    [
      'client/features/a/x.tsx',
      "import '#client/ui/button.tsx'; import '#machines/session.machine.ts';",
    ],
  ])('%s may %s', async (file, code) => {
    expect(await violations(file, code)).toBe(0);
  });
});
