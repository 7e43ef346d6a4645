import { rm } from 'node:fs/promises';
import { makeTempDir, startTestSandbox } from '#server/sandbox/testing.ts';
import { SANDBOX_TEMPLATE_ENV } from './sandbox-template.ts';
import { STACK_TEMPLATE_ENV, startStack } from './stack.ts';

/**
 * The integration project's global setup: one stack and one bare sandbox are started and seeded,
 * then stopped, and their data directories are the templates every later plain stack or sandbox
 * starts from (a copy, in about a second, where seeding takes 10-30 s). Seventy-odd test files
 * each start at least one: the seed was the largest part of the integration run. Two templates,
 * because the seed writes the BFF's address into e-mail links: a stack's differs from a bare
 * sandbox's default. A start the copy would not fit (its own clock, data directory, database or
 * seed-relevant settings) still seeds its own (tests/support/stack.ts, sandbox-template.ts).
 */
export default async function setup() {
  const [stack, sandboxDir] = await Promise.all([
    startStack().then(async (template) => {
      await template.stop(false);
      return template.dataDir;
    }),
    makeTempDir().then(async ({ dir }) => {
      await (await startTestSandbox(dir)).close();
      return dir;
    }),
  ]);
  process.env[STACK_TEMPLATE_ENV] = stack;
  process.env[SANDBOX_TEMPLATE_ENV] = sandboxDir;
  return async () => {
    delete process.env[STACK_TEMPLATE_ENV];
    delete process.env[SANDBOX_TEMPLATE_ENV];
    await Promise.all([stack, sandboxDir].map((d) => rm(d, { recursive: true, force: true })));
  };
}
