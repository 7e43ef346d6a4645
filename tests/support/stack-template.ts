import { rm } from 'node:fs/promises';
import { STACK_TEMPLATE_ENV, startStack } from './stack.ts';

/**
 * The integration project's global setup: one stack is started and seeded, then stopped, and its
 * data directory is the template every later plain stack starts from (a copy, in about a second,
 * where seeding takes 10-30 s). Sixty-odd test files each start at least one stack: the seed is
 * the largest part of the integration run. A stack the copy would not fit (its own clock, data
 * directory, database or seed-relevant settings) still seeds its own (tests/support/stack.ts).
 */
export default async function setup() {
  const template = await startStack();
  await template.stop(false);
  process.env[STACK_TEMPLATE_ENV] = template.dataDir;
  return async () => {
    delete process.env[STACK_TEMPLATE_ENV];
    await rm(template.dataDir, { recursive: true, force: true });
  };
}
