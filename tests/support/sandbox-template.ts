import { cp } from 'node:fs/promises';
import type { RunningSandbox, SandboxOptions } from '#server/sandbox/sandbox.ts';
import { startTestSandbox } from '#server/sandbox/testing.ts';

/** Where the integration run's seeded sandbox data directory is (tests/support/stack-template.ts). */
export const SANDBOX_TEMPLATE_ENV = 'TEST_SANDBOX_TEMPLATE_DIR';

/**
 * A seeded sandbox on `dataDir` (an empty directory): a copy of the run's template when there is
 * one and the start would seed the same world, else a seed of its own. A clock of its own, a
 * database server or an explicit `seed` change what the seed writes (dates, where it goes), so
 * those seed here.
 */
export async function startSeededSandbox(
  dataDir: string,
  extra: Partial<SandboxOptions> = {},
): Promise<RunningSandbox> {
  const template = process.env[SANDBOX_TEMPLATE_ENV];
  const copies =
    template &&
    extra.clock === undefined &&
    extra.databaseUrl === undefined &&
    extra.seed === undefined &&
    extra.publicBaseUrl === undefined;
  if (!copies) return startTestSandbox(dataDir, extra);
  await cp(template, dataDir, { recursive: true });
  return startTestSandbox(dataDir, { ...extra, seed: false });
}
